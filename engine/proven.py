"""The actions a game has itself just proposed and judged legal, so that
``apply`` of one of them need not judge it a second time.

A bot's turn is: propose, judge, pick, apply. Judging again in ``apply`` what
was judged a moment before, in the same position, was a third of the
engine's work in random play. The record trusts an action only when all of
these hold, and anything else is judged in full as before:

- the position is the one it was judged in: the same state object and the
  same number of actions played (every change of a position goes through
  ``apply``, which plays one more);
- it is the very object the game handed out (an equal action built by a
  caller, typed by a person or read from a save is judged, as it always was);
- its fields still hold what they held when it was judged (a frozen
  dataclass can still be changed by force, with ``object.__setattr__``).

Nothing here names a game: a game keeps one ``Proven`` and asks it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

# Each action class's reader of all its fields at once (a C-level getter: a
# snapshot costs far less than the judging it saves).
_READERS: dict[type, Callable[[Any], Any]] = {}


def _reader(cls: type) -> Callable[[Any], Any]:
    read = _READERS[cls] = attrgetter(*(f.name for f in fields(cls)))
    return read


def snapshot(action: object) -> tuple[type, Any]:
    """The action's class and the values of its fields, as they are now."""
    cls = type(action)
    return cls, (_READERS.get(cls) or _reader(cls))(action)


class Proven:
    """The actions judged legal in one position (see the module's docstring)."""

    __slots__ = ("_state", "_ply", "_last", "_more")

    def __init__(self) -> None:
        self._state: object = None
        self._ply = -1
        # The action recorded last (a bot's pick: nearly always the only
        # one), then any others (``legal_actions``), by id: each as (the
        # action itself, kept so its id is not reused; its class; its fields'
        # values).
        self._last: tuple[object, type, Any] | None = None
        self._more: dict[int, tuple[object, type, Any]] = {}

    def record(self, state: object, ply: int, action: object) -> None:
        """``action`` was judged legal in ``state`` after ``ply`` actions."""
        cls = type(action)
        entry = (action, cls, (_READERS.get(cls) or _reader(cls))(action))
        if self._state is not state or self._ply != ply:
            self._state, self._ply = state, ply
            if self._more:
                self._more = {}
        elif self._last is not None:
            self._more[id(self._last[0])] = self._last
        self._last = entry

    def holds(self, state: object, ply: int, action: object) -> bool:
        """Whether ``action`` is one recorded for this very position, unchanged."""
        if self._state is not state or self._ply != ply:
            return False
        entry = self._last
        if entry is None or entry[0] is not action:
            entry = self._more.get(id(action))
            if entry is None or entry[0] is not action:
                return False
        cls = type(action)
        return entry[1] is cls and _READERS[cls](action) == entry[2]

    def carried(self, state: object, copied: object) -> Proven:
        """The record for an exact copy ``copied`` of ``state`` (a bot trying
        a move on a copy of the game): what was proven in ``state`` holds in
        its copy, at the same ply; anything recorded for another position is
        left behind."""
        twin = Proven()
        if self._state is state:
            twin._state, twin._ply, twin._last, twin._more = copied, self._ply, self._last, dict(self._more)
        return twin
