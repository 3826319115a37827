"""A located problem in a content file, and the three ways to print a list of them."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from engine.content.files import one_line, shown

Pointer = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a record was written: a content file and the path inside it."""

    file: str
    pointer: Pointer


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with the content, where it is, in words a designer can act on.

    ``line`` and ``column`` are 1-based; both are 0 when the problem has no
    place inside a file (a required file that does not exist, say).
    """

    path: str
    line: int
    column: int
    message: str

    def render(self) -> str:
        # One problem, one line, and its place is the place: a value with a
        # line break in it is shown escaped, and so is a path that holds one,
        # or a colon that could pose as a line and column (``files.shown``).
        message = one_line(self.message)
        if self.line:
            return f"{shown(self.path)}:{self.line}:{self.column}: {message}"
        return f"{shown(self.path)}: {message}"

    def render_github(self) -> str:
        # Annotation properties and message need %, CR, LF (and , : in
        # properties) escaped, or GitHub cuts the text short.
        def esc(text: str, prop: bool) -> str:
            text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            if prop:
                text = text.replace(":", "%3A").replace(",", "%2C")
            return text

        where = f"file={esc(self.path, True)}"
        if self.line:
            where += f",line={self.line},col={self.column}"
        return f"::error {where}::{esc(self.message, False)}"

    def as_json(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "column": self.column, "message": self.message}


def about(record: str, field: str | None = None, *, kind: str = "card") -> str:
    """What a message is about, as every message of every pack opens:
    ``card 'coal-mine', field 'lockouts[0]'``."""
    who = f"{kind} '{one_line(record)}'"
    return f"{who}, field '{field}'" if field else who


def field_path(pointer: Pointer) -> str:
    """A place inside a file as a designer reads it: ``consist.freight``, ``hands[0].source``."""
    return ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in pointer).replace(".[", "[").lstrip(".")


def render_all(problems: Iterable[Problem], fmt: str) -> str:
    items = list(problems)
    if fmt == "json":
        return json.dumps([p.as_json() for p in items], indent=2, ensure_ascii=False)
    if fmt == "github":
        return "\n".join(p.render_github() for p in items)
    return "\n".join(p.render() for p in items)
