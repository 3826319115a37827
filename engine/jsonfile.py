"""The one way the kit reads JSON it did not just make: a save, a cell of
the sweep cache, the list of files the kit wrote (``engine.targets``).

``json.loads`` trusts its input in ways a file on disk does not deserve:
100,000 nested brackets exhaust the stack, a 4,000-digit number is parsed
(and then hangs whatever multiplies or counts with it), ``NaN`` and
``Infinity`` pass for numbers. Here the bytes come through
``engine.content.files`` (regular files only, opened without blocking,
never more than a size limit), the nesting is measured in one flat pass
before anything is parsed, and every number is bounded as it is parsed.
Every refusal is one ``JsonRefused`` saying why in words, never a hang,
never a traceback.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Final

from engine.content import files
from engine.content.jsonpos import first_hazard

# Far deeper than any save, cell or list the kit writes; far shallower
# than what exhausts Python's stack.
MAX_DEPTH: Final = 64
# An integer longer than this is no count, score or seed the kit writes
# (a 64-bit value has 20 digits).
MAX_DIGITS: Final = 20
# What one file may hold unless its reader says less.
LIMIT: Final = files.LIMIT


class JsonRefused(ValueError):
    """JSON that is not read: ``reason`` says why, as the end of a sentence
    about the file ("is not valid JSON: ..."); ``missing`` when there is no
    file at all."""

    def __init__(self, reason: str, *, missing: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.missing = missing


def _integers(max_digits: int) -> Callable[[str], int]:
    def integer(text: str) -> int:
        digits = len(text.lstrip("-"))
        if digits > max_digits:
            raise JsonRefused(f"holds a number of {digits:,} digits; no figure the kit writes there has more than {max_digits:,}")
        return int(text)

    return integer


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or len(text) > 4 * MAX_DIGITS:
        raise JsonRefused(f"holds the number {text[:24]}{'...' if len(text) > 24 else ''}, beyond any figure the kit writes")
    return value


def _constant(text: str) -> float:
    raise JsonRefused(f"holds {text}, which is not a JSON number")


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH, max_digits: int = MAX_DIGITS) -> object:
    """The JSON value in ``text`` (bytes are read as UTF-8); JsonRefused when
    it is not JSON, or nests deeper than ``max_depth``, or holds a number out
    of bounds (an integer of more than ``max_digits`` digits, a number that
    is not finite, NaN)."""
    import json

    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise JsonRefused("is not UTF-8 text") from None
    hazard = first_hazard(text, max_depth)
    if hazard is not None:
        if hazard.message.startswith("nesting"):
            raise JsonRefused(f"nests deeper than {max_depth} levels, which nothing the kit writes does")
        raise JsonRefused(f"is not valid JSON: {hazard.message}")
    try:
        return json.loads(text, parse_int=_integers(max_digits), parse_float=_real, parse_constant=_constant)
    except JsonRefused:
        raise
    except (ValueError, RecursionError) as exc:
        raise JsonRefused(f"is not valid JSON: {exc}") from None


def read(path: str | os.PathLike[str], *, limit: int = LIMIT, max_depth: int = MAX_DEPTH, max_digits: int = MAX_DIGITS) -> object:
    """The JSON value in the regular file at ``path``; JsonRefused saying
    why not (``missing`` when nothing is there). A FIFO, a device, a
    folder, a link to any of them or a file over ``limit`` bytes is refused
    before a byte of it is parsed."""
    try:
        data = files.read_bytes(path, limit)
    except files.Unreadable as exc:
        raise JsonRefused(exc.reason, missing=exc.missing) from None
    return loads(data, max_depth=max_depth, max_digits=max_digits)
