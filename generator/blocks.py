"""Generated blocks inside hand-written pages.

A block is a pair of marker lines; everything between them belongs to the
generator, everything outside them to the writer, and is never touched:

    <!-- generated: track -->
    ...machine-owned...
    <!-- /generated -->

Marker mistakes (unclosed, repeated, nested, a stray close, an unknown table,
a line that looks like a marker but is not one) are located errors. A marker
the page shows as code (in a fenced or indented code block, or quoted in
inline code) is the writer's example text, as Markdown displays it.

This reads only as much Markdown as finding code takes, without a parser
(the quick ``check`` imports this module). Where it cannot tell for sure, it
errs only one way: a real marker stands at column 1, and no line at column 1
is ever taken for code inside a list item, so a real marker is never hidden;
at worst an indented marker that Markdown shows as code (under a list in a
shape not read here, such as a fence in a list inside a block quote) is reported as
misplaced, and can be moved or quoted in inline code.

A page keeps its own line endings: a page written with CRLF gets its
generated text with CRLF too, so rewriting it never leaves mixed endings and
comparing it never calls every table changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from engine.content.problems import Problem

OPEN_RE = re.compile(r"^<!-- generated: ([a-z][a-z0-9-]*) -->$")
CLOSE = "<!-- /generated -->"
_LOOKS_LIKE = re.compile(r"<!--\s*/?\s*generated\b", re.IGNORECASE)
# A fenced code block as CommonMark has it: up to three spaces, then three or
# more backticks (with no backtick after them) or tildes. Inside one, marker
# lines are example text, as the page shows them.
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}(?!.*`)|~{3,})")
_FENCE_CLOSE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")
# An inline code span on one line: a run of backticks, then the shortest text
# up to a run of exactly as many. A marker quoted inside one is shown, not
# read, so the marker check looks at the line with its code spans taken out.
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")
# Four spaces (or a tab) make an indented code block, but only where a
# paragraph is not running on: after a blank line, a heading, the start of
# the page, or a line of the same code block.
_INDENTED = re.compile(r"^(?: {4}| {0,3}\t)")
_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
# A setext heading's underline or a thematic break also ends a paragraph, so
# an indented line after one is code. (An "===" line that is itself a
# paragraph is taken for one too: that can only call a line code that is
# not, and an indented marker is never a real one, whatever it is.)
_PARAGRAPH_END = re.compile(r"^ {0,3}(?:=+|-+|(?:[-*_][ \t]*){3,})[ \t]*$")
# A list item, and a fence indented four or more spaces under one: inside a
# list item, a fence is indented as far as the item's text (two spaces for
# "- ", four for "10. "), plus up to three. Such a fence runs to its closing
# fence or, as CommonMark has it, to the first line less indented than the
# item's text: any line at column 1, so a real marker (always at column 1)
# is never taken into one.
_LIST_ITEM = re.compile(r"^ {0,3}(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|$)")
_DEEP_FENCE_OPEN = re.compile(r"^(?: {4,}| {0,3}\t)[ \t]*(`{3,}(?!.*`)|~{3,})")
_DEEP_FENCE_CLOSE = re.compile(r"^[ \t]+(`{3,}|~{3,})[ \t]*$")
# Lines end at "\n" only (a "\r" before it is part of the line ending): not
# at the other characters ``str.splitlines`` breaks at (form feed, U+2028,
# ...), which Markdown and editors treat as text.
_LINES = re.compile(r"[^\n]*\n|[^\n]+\Z")


def newline_of(text: str) -> str:
    """The page's own line ending: CRLF if most of its lines end so."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf > text.count("\n") - crlf else "\n"


def split_lines(text: str) -> list[str]:
    """``text`` as its lines, each with its line ending (see ``_LINES``)."""
    return _LINES.findall(text)


@dataclass(frozen=True, slots=True)
class Block:
    name: str
    line: int  # 1-based line of the opening marker
    body: str  # the text between the markers, each line ended by "\n" whatever the page uses


@dataclass(frozen=True, slots=True)
class Page:
    """A page split into prose pieces and blocks; ``parts`` alternate
    prose, block, prose, ... and always start and end with prose."""

    path: str
    parts: tuple[str | Block, ...]
    newline: str = "\n"  # the page's own line ending, given to generated text

    @property
    def blocks(self) -> list[Block]:
        return [p for p in self.parts if isinstance(p, Block)]

    def render(self, body_of: Callable[[Block], str]) -> str:
        """The page with each block's body from ``body_of`` (written with
        "\n"); prose is kept byte for byte."""
        out: list[str] = []
        for part in self.parts:
            if isinstance(part, Block):
                block = f"<!-- generated: {part.name} -->\n{body_of(part)}{CLOSE}\n"
                out.append(block if self.newline == "\n" else block.replace("\n", self.newline))
            else:
                out.append(part)
        return "".join(out)


class MarkerError(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(p.render() for p in problems))


def parse_page(path: str, text: str, known: Collection[str]) -> Page:
    """Split ``text`` into prose and blocks, or raise MarkerError with every problem."""
    problems: list[Problem] = []
    parts: list[str | Block] = []
    prose: list[str] = []
    body: list[str] = []
    open_name: str | None = None
    open_line = 0
    seen: dict[str, int] = {}
    fence = ""  # the fence of the code block the line is in, if any
    fence_line = 0
    hidden: list[int] = []  # marker-like lines inside the open code block
    code_may_start = True  # an indented line here would begin (or go on with) a code block
    in_indented_code = False
    in_list = False  # the last line at column 1 began a list item (indented lines are its own)
    deep_fence = ""  # the fence of a code block inside a list item, indented 4 or more
    lines = split_lines(text)
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if open_name is None:
            blank = not line.strip()
            if deep_fence:
                if blank or line[:1] in (" ", "\t"):
                    closing = _DEEP_FENCE_CLOSE.match(line)
                    if closing and closing.group(1)[0] == deep_fence[0] and len(closing.group(1)) >= len(deep_fence):
                        deep_fence = ""
                    prose.append(raw)
                    continue
                deep_fence = ""  # a line at column 1 ends the list item, and its code
            if not fence and not blank and _INDENTED.match(line) and (code_may_start or in_indented_code):
                in_indented_code = True
                prose.append(raw)
                continue
            if not blank:
                in_indented_code = False
            code_may_start = blank or in_indented_code or bool(_ATX_HEADING.match(line) or _PARAGRAPH_END.match(line))
            if fence:
                closing = _FENCE_CLOSE.match(line)
                if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
                    fence, hidden = "", []
                    code_may_start = True
                elif _LOOKS_LIKE.search(line):
                    hidden.append(number)
                prose.append(raw)
                continue
            opening = _FENCE_OPEN.match(line)
            if opening:
                fence, fence_line = opening.group(1), number
                prose.append(raw)
                continue
            deep = _DEEP_FENCE_OPEN.match(line) if in_list else None
            if deep:
                deep_fence = deep.group(1)
                prose.append(raw)
                continue
            if _LIST_ITEM.match(line):
                in_list = True
            elif line[:1] not in ("", " ", "\t"):
                in_list = False
        else:
            code_may_start, in_indented_code = True, False  # after the block's closing marker
        stripped = line.strip()
        opened = OPEN_RE.match(stripped)
        col = line.find("<!--") + 1 if "<!--" in line else 1
        if opened:
            name = opened.group(1)
            if open_name is not None:
                problems.append(Problem(path, number, col, f"block '{name}' opens inside block '{open_name}' (opened at line {open_line}); blocks cannot nest — close the first with '{CLOSE}'"))
                continue
            if name not in known:
                problems.append(Problem(path, number, col, f"unknown table '{name}'; known tables: {', '.join(sorted(known))}"))
            if name in seen:
                problems.append(Problem(path, number, col, f"table '{name}' is placed twice on this page (first at line {seen[name]})"))
            seen.setdefault(name, number)
            if line != stripped:
                problems.append(Problem(path, number, 1, "a marker must start at the beginning of its line, with nothing after it"))
            parts.append("".join(prose))
            prose = []
            open_name, open_line, body = name, number, []
        elif stripped == CLOSE:
            if line != stripped:
                problems.append(Problem(path, number, 1, "a marker must start at the beginning of its line, with nothing after it"))
            if open_name is None:
                problems.append(Problem(path, number, col, "a closing marker with no block open"))
                continue
            parts.append(Block(open_name, open_line, "".join(body)))
            open_name = None
        elif _LOOKS_LIKE.search(_CODE_SPAN.sub("", line)):
            problems.append(Problem(path, number, col, f"this looks like a marker but is not one; write '<!-- generated: NAME -->' or '{CLOSE}' alone on a line"))
        elif open_name is not None:
            body.append(line + "\n" if raw.endswith("\n") else line)
        else:
            prose.append(raw)
    if open_name is not None:
        problems.append(Problem(path, open_line, 1, f"block '{open_name}' is never closed; add '{CLOSE}' after it"))
    if fence and hidden:
        # CommonMark runs an unclosed code block to the end of the page, so
        # these markers would be shown as code, and their tables never drawn.
        problems.append(
            Problem(path, hidden[0], 1, f"this marker is inside the code block opened at line {fence_line}, which is never closed; close it with '{fence[0] * len(fence)}' or move the marker out")
        )
    if problems:
        raise MarkerError(problems)
    parts.append("".join(prose))
    return Page(path, tuple(parts), newline_of(text))
