"""``validate``'s problems as the editor's diagnostics: the same words (as
``Problem.render`` prints them), at the same line and column, spanning the
word written there; a did-you-mean becomes a quick fix."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

from command.lsp.workspace import Checked, absolute
from engine.content.files import one_line
from engine.content.problems import Problem
from engine.packs import GAME_FILE

SOURCE = "stationmaster"
_MEANT = re.compile(r"\(did you mean '([^'\n]+)'\?\)")
_WORD = re.compile(r"""[^\s,\[\]{}#"']+""")

# (line, character) in code points, 0-based, to the client's units.
Place = Callable[[Path, int, int], types.Position]


def word_end(line: str, start: int) -> int:
    """Where the word written at ``start`` ends: a quoted text to its closing
    quote, a plain one before a comma, bracket, comment or ``: ``; one
    character (a tab, say) when no word starts there."""
    if start >= len(line):
        return start
    if line[start] in "\"'":
        close = line.find(line[start], start + 1)
        return close + 1 if close > 0 else len(line)
    match = _WORD.match(line, start)
    if match is None:
        return start + 1
    word = match.group(0)
    colon = word.find(": ")
    if word.endswith(":"):
        word = word[:-1]
    elif colon >= 0:
        word = word[:colon]
    return start + max(1, len(word))


def where(problem: Problem, folder: Path) -> Path:
    """The file a problem belongs to: a problem about a whole folder (no
    line) is shown on that pack's game file."""
    path = absolute(problem.path)
    if path.is_dir():
        return path / GAME_FILE if (path / GAME_FILE).exists() else folder / GAME_FILE
    return path


def diagnostics(checked: Checked, text_of: Callable[[Path], str | None], place: Place) -> dict[Path, list[types.Diagnostic]]:
    """Every problem of a check as diagnostics, by file."""
    found: dict[Path, list[types.Diagnostic]] = {}
    for problem in checked.problems:
        path = where(problem, checked.folder)
        line = max(problem.line - 1, 0)
        start = max(problem.column - 1, 0)
        text = text_of(path) if problem.line else None
        lines = text.split("\n") if text is not None else []
        end = word_end(lines[line].rstrip("\r"), start) if line < len(lines) else start
        meant = _MEANT.search(problem.message)
        if meant is not None and line < len(lines):
            # A fix only where the word it replaces is the one the message quotes.
            written = lines[line][start:end].strip("\"'")
            if not written or f"'{written}'" not in problem.message[: meant.start()]:
                meant = None
        found.setdefault(path, []).append(
            types.Diagnostic(
                range=types.Range(place(path, line, start), place(path, line, end)),
                message=one_line(problem.message),
                severity=types.DiagnosticSeverity.Error,
                source=SOURCE,
                data={"meant": meant.group(1)} if meant else None,
            )
        )
    return found


def quick_fixes(uri: str, context: types.CodeActionContext) -> list[types.CodeAction]:
    """The did-you-mean of each diagnostic asked about, as an edit that writes it."""
    actions: list[types.CodeAction] = []
    for diagnostic in context.diagnostics:
        data = diagnostic.data
        meant = data.get("meant") if isinstance(data, dict) else None
        if not isinstance(meant, str) or diagnostic.source != SOURCE:
            continue
        edit = types.WorkspaceEdit(changes={uri: [types.TextEdit(range=diagnostic.range, new_text=meant)]})
        actions.append(types.CodeAction(title=f"Change to '{meant}'", kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic], edit=edit, is_preferred=True))
    return actions
