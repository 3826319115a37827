"""A chunk of games as plain values (lists, dicts, strings, whole numbers
and booleans), and the checks a chunk must pass when it comes back.

Why: a cluster's worker is another program, perhaps on another machine,
and what it hands back must not be able to run code or change a verdict in
the process that sweeps. A pack's ``chunk_to_plain`` turns its chunk into
values of those few builtin types on the worker, which cross the wire as
data and nothing else; its ``chunk_from_plain`` checks them on return (every
game there, every count whole and in range, the counts adding up) and
rebuilds the chunk. A chunk that fails is refused with ``BadChunk``, one
line saying what is wrong, rather than merged into the figures.

The helpers here are the checks every pack needs; each pack's own module
(``engine/<pack>/sim/plain.py``) says what its chunk holds.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

# No figure of a game comes near this: a larger one is a forged chunk, and
# it would only make the merge slow (Python's whole numbers have no limit).
LARGEST_FIGURE: Final = 10**12


class BadChunk(ValueError):
    """A chunk handed back by a worker is not what playing its games gives."""


def as_list(value: object, what: str, length: int | None = None) -> list[object]:
    """``value`` if it is a list (of ``length`` items, if given), else BadChunk."""
    if not isinstance(value, list):
        raise BadChunk(f"{what} is not a list")
    if length is not None and len(value) != length:
        raise BadChunk(f"{what} holds {len(value)} item(s), not {length}")
    return value


def as_dict(value: object, what: str) -> dict[object, object]:
    """``value`` if it is a dict, else BadChunk."""
    if not isinstance(value, dict):
        raise BadChunk(f"{what} is not a mapping")
    return value


def as_text(value: object, what: str, known: Collection[str] | None = None) -> str:
    """``value`` if it is a string (one of ``known``, if given), else BadChunk."""
    if not isinstance(value, str):
        raise BadChunk(f"{what} is not text")
    if known is not None and value not in known:
        raise BadChunk(f"{what} {value[:40]!r} is not one the game knows")
    return value


def as_flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise BadChunk(f"{what} is not true or false")
    return value


def as_whole(value: object, what: str, low: int = 0, high: int = LARGEST_FIGURE) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (a bool is
    not one), else BadChunk."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadChunk(f"{what} is not a whole number")
    if not low <= value <= high:
        raise BadChunk(f"{what} is {value if abs(value) < LARGEST_FIGURE else 'huge'}, outside {low}..{high}")
    return value


def as_counts(value: object, what: str, width: int) -> list[int]:
    """A row of ``width`` counts, each whole and not negative, else BadChunk."""
    return [as_whole(item, what) for item in as_list(value, what, width)]
