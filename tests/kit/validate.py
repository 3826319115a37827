"""Helpers of the ``validate`` tests (tests/content/test_validate_*.py):
damage a scratch copy of the content by meaning (a card's block, a key, data
read from the shipped file) rather than by its current value, work out where
the damage lies in the damaged text, and check what ``validate`` reported.
The ``validate`` fixture itself is in tests/content/conftest.py."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from tests.kit.cli import CliResult
from tests.kit.project import SHIPPED_CONTENT

# The ``validate`` fixture: ``validate(*args, target=..., cwd=...)``.
Validate = Callable[..., CliResult]

HEADER = "# yaml-language-server: $schema=schema/game.schema.json\n"
# Tests of the YAML reader write whole files; game.yaml must keep its id line
# (it says which pack the folder is), so they write supplies.yaml instead.
SUPPLIES_HEADER = "# yaml-language-server: $schema=schema/supplies.schema.json\n"
SUMMARY = re.compile(r"^content: ok, [1-9][0-9]* card records in [1-9][0-9]* families, [^\n]*[1-9][0-9]* effects(, [^\n]+)?$")


def shipped(rel: str) -> Any:
    """The shipped file's data, to pick what to damage by meaning."""
    return yaml.safe_load((SHIPPED_CONTENT / rel).read_text(encoding="utf-8"))


def cards(rel: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = shipped(rel)["cards"]
    return found


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every directory and file under ``root`` with its bytes."""
    found: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        for name in dirnames:
            found[(here / name).relative_to(root).as_posix() + "/"] = None
        for name in filenames:
            path = here / name
            found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def at(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def position(text: str, needle: str, *, nth: int = 1, shift: int = 0) -> tuple[int, int]:
    """(line, column) of the ``nth`` occurrence of ``needle``, plus ``shift`` characters."""
    start = -1
    for _ in range(nth):
        start = text.index(needle, start + 1)
    return at(text, start + shift)


def read(content: Path, rel: str) -> str:
    return (content / rel).read_bytes().decode("utf-8")


def write(content: Path, rel: str, text: str | bytes) -> Any:
    path = content / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return text


def card_span(text: str, card_id: str) -> tuple[int, int]:
    """Start and end offsets of the block of the card with this id."""
    m = re.search(rf"^  - id: {re.escape(card_id)}\n", text, re.M)
    assert m, f"card {card_id} not found"
    nxt = re.compile(r"^(?:  - |\S)", re.M).search(text, m.end())
    return m.start(), nxt.start() if nxt else len(text)


def sub(content: Path, rel: str, pattern: str, repl: str | Callable[[re.Match[str]], str], *, nth: int = 1, card: str | None = None) -> tuple[str, int]:
    """Replace the ``nth`` match of a multi-line regex (inside one card's block,
    if ``card``); returns the new text and the offset where the change starts."""
    text = read(content, rel)
    lo, hi = card_span(text, card) if card else (0, len(text))
    found = list(re.compile(pattern, re.M).finditer(text, lo, hi))
    assert len(found) >= nth, f"{pattern!r} not in {rel}{' card ' + card if card else ''} (the content changed shape?)"
    m = found[nth - 1]
    new = repl(m) if callable(repl) else m.expand(repl)
    text = text[: m.start()] + new + text[m.end() :]
    write(content, rel, text)
    return text, m.start()


def schema_key(content: Path, rel: str, after: str, key: str, *, shown: str = "content") -> str:
    """``path:line:column`` of the first ``"key"`` after the text ``after``
    in a schema file, as a message names it (``shown`` is the content
    folder as the command was given it)."""
    text = read(content, rel)
    line, column = at(text, text.index(f'"{key}"', text.index(after)))
    return f"{shown}/{rel}:{line}:{column}"


def card_at(text: str, offset: int) -> str:
    """Id of the card whose block holds ``offset``."""
    ids = list(re.finditer(r"^  - id: ([\w-]+)", text[:offset], re.M))
    assert ids, "offset is before the first card"
    return ids[-1].group(1)


def card_start(text: str, card_id: str) -> tuple[int, int]:
    """Where a card's mapping starts: its first key, after '- '."""
    start, _ = card_span(text, card_id)
    return at(text, start + len("  - "))


def value_at(text: str, offset: int) -> tuple[int, int]:
    """Position of the value of the ``key: value`` line starting at ``offset``."""
    return at(text, text.index(": ", offset) + 2)


def expect_problem(result: CliResult, path: str, line: int, column: int, *fragments: str) -> str:
    """Exit 1, and a ``path:line:column:`` problem line holding every fragment."""
    assert result.code == 1, f"exit {result.code}\n{result.output}"
    where = f"{path}:{line}:{column}: "
    here = [text for text in result.out.splitlines() if text.startswith(where)]
    assert here, f"no problem reported at {where!r}; stdout was:\n{result.out}"
    matching = [text for text in here if all(f in text for f in fragments)]
    assert matching, f"no problem at {where!r} says all of {fragments}; got:\n" + "\n".join(here)
    # Every stdout line is one problem, and the stderr summary counts them.
    assert len(result.problems) == len(result.out.splitlines()), result.out
    summary = re.search(r"^([0-9]+) problem\(s\) in ", result.err, re.M)
    assert summary and int(summary[1]) == len(result.problems), result.err
    return matching[0]


def no_traceback(result: CliResult) -> None:
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    assert "RecursionError" not in result.output
    assert result.code in (0, 1, 2), result.output


def misspell(m: re.Match[str]) -> str:
    """The match with a "q" typed after its first group: a reference that
    names nothing."""
    return m.group(0)[: m.start(1) - m.start()] + m.group(1) + "q" + m.group(0)[m.end(1) - m.start() :]


def set_consist(content: Path, consist: str, caboose: bool) -> tuple[str, int, str]:
    """Give the first train card of the copy this consist and caboose: the
    new text, the offset of the consist line and the card's id."""
    card = cards("home-deck/trains.yaml")[0]["id"]
    sub(content, "home-deck/trains.yaml", r"^    caboose: .*$", f"    caboose: {'true' if caboose else 'false'}", card=card)
    text, off = sub(content, "home-deck/trains.yaml", r"^    consist: .*$", f"    consist: {consist}", card=card)
    return text, off, card
