"""Screens that fit the terminal, for every terminal game: lines wrapped
between words to its width, the size of the terminal printed on, and the
parts of a screen grown in turn while they fit its height."""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TextIO

# The smallest screen laid out: below this the terminal is taken to be this big.
MIN_COLUMNS, MIN_ROWS = 40, 12


def wrap_line(line: str, width: int, hang: int = 4) -> list[str]:
    """``line`` in lines of at most ``width``, broken between words; the
    lines after the first are indented ``hang`` more than the line itself.
    A word longer than the whole width (never a real word) is cut."""
    if len(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    first = " " * min(indent, width // 2)
    more = " " * min(indent + hang, width // 2)
    # a pair of numbers such as (1, 0) is one word: a no-break space holds it
    # together through textwrap, which breaks only at ASCII spaces
    held = _PAIR.sub(lambda m: m.group().replace(" ", _NO_BREAK), line.strip())
    wrapped = textwrap.wrap(held, width, initial_indent=first, subsequent_indent=more, break_on_hyphens=False) or [""]
    return [part.replace(_NO_BREAK, " ") for part in wrapped]


_PAIR = re.compile(r"\(-?\d+, -?\d+\)")
_NO_BREAK = "\u00a0"


def wrap_lines(lines: Iterable[str], width: int | None) -> list[str]:
    """Every line wrapped to ``width`` (None: as they are)."""
    out: list[str] = []
    for text in lines:
        for line in text.split("\n"):
            out += [line] if width is None else wrap_line(line.rstrip(), width)
    return out


def screen_size(out: TextIO) -> tuple[int, int] | None:
    """The columns and rows of the terminal ``out`` prints on; when it is no
    terminal, COLUMNS and LINES if both are set, else None (print it all)."""
    try:
        tty = out.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty:
        size = shutil.get_terminal_size()
        return max(size.columns, MIN_COLUMNS), max(size.lines, MIN_ROWS)
    columns, rows = os.environ.get("COLUMNS", ""), os.environ.get("LINES", "")
    if columns.isdecimal() and rows.isdecimal():
        return max(int(columns), MIN_COLUMNS), max(int(rows), MIN_ROWS)
    return None


@dataclass
class Part:
    """One part of a screen in its sizes (lists of lines, smallest first;
    an empty first size: the part may be left out)."""

    name: str
    sizes: list[list[str]]
    size: int = 0

    @property
    def lines(self) -> list[str]:
        return self.sizes[self.size]


def sized(width: int, *sizes: Sequence[str]) -> list[list[str]]:
    """A part's sizes, each wrapped to ``width``."""
    return [wrap_lines(list(lines), width) for lines in sizes]


def used(parts: Sequence[Part]) -> int:
    return sum(len(part.lines) for part in parts)


def grow(parts: Sequence[Part], growth: Sequence[tuple[str, int]], room: int) -> None:
    """Each (part, size) of ``growth`` in turn: the part takes that size if
    the screen still fits ``room`` lines with it, and keeps its size if not."""
    by_name = {part.name: part for part in parts}
    for name, size in growth:
        part = by_name.get(name)
        if part is None or size >= len(part.sizes) or size <= part.size:
            continue
        before = part.size
        part.size = size
        if used(parts) > room:
            part.size = before
