"""Where things sit in a JSON text: the position of each key and value.

Python's ``json`` module gives values but no positions, and a fault in a
schema file is only useful to its author with the line and column of the key
at fault. ``scan`` reads a text ``json.loads`` has already accepted and maps
every JSON pointer to the offsets of its key and its value. ``first_hazard``
runs before ``json.loads``: nesting deep enough to exhaust Python's stack (the
decoder recurses per bracket) and the non-JSON constants ``json.loads``
accepts (NaN, Infinity) are found by one flat pass, without recursing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

Pointer = tuple[str | int, ...]

_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SCALAR = re.compile(r"-?(?:Infinity|[0-9][0-9.eE+-]*)|true|false|null|NaN")
# One flat pass: the opening quote of a string, a bracket, or a bare constant.
_HAZARD = re.compile(r'["\[\]{}]|-?\bInfinity\b|\bNaN\b')
# The rest of a string after its opening quote, through its closing quote.
# Possessive, so that a string never closed fails in one pass over it.
_STRING_REST = re.compile(r'[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)


@dataclass(frozen=True, slots=True)
class Hazard:
    offset: int
    message: str


def first_hazard(text: str, max_depth: int) -> Hazard | None:
    """The first bracket nested deeper than ``max_depth``, or the first NaN or
    Infinity outside a string, whichever comes first; None when neither."""
    depth = 0
    at = 0
    # Each character is looked at once. Matching whole strings in the one
    # pattern was quadratic for a string never closed: every quote inside it
    # (an escaped one, say) started another attempt that ran to the end.
    while (match := _HAZARD.search(text, at)) is not None:
        token = match.group()
        at = match.end()
        if token == '"':
            rest = _STRING_REST.match(text, at)
            if rest is None:
                # Never closed: nothing after it is JSON, json.loads reports
                # it, and the brackets before it were all counted.
                return None
            at = rest.end()
        elif token in ("[", "{"):
            depth += 1
            if depth > max_depth:
                return Hazard(match.start(), f"nesting deeper than {max_depth} levels; a schema is far shallower (is a bracket repeated?)")
        elif token in ("]", "}"):
            depth -= 1
        else:
            return Hazard(match.start(), f"'{token}' is not a JSON number; write a number")
    return None


@dataclass(slots=True)
class Positions:
    """Offsets of every value, and of every object member's key."""

    values: dict[Pointer, int] = field(default_factory=dict)
    keys: dict[Pointer, int] = field(default_factory=dict)
    # (pointer, offset) of a key written a second time in one object.
    repeats: list[tuple[Pointer, int]] = field(default_factory=list)

    def offset(self, pointer: Pointer) -> int:
        """Where ``pointer``'s key is (its value, for a list item), falling
        back to its nearest enclosing value."""
        while True:
            if pointer in self.keys:
                return self.keys[pointer]
            if pointer in self.values:
                return self.values[pointer]
            if not pointer:
                return 0
            pointer = pointer[:-1]


def scan(text: str) -> Positions:
    """Positions in ``text``, a JSON text that ``json.loads`` accepted (and
    ``first_hazard`` found shallow, so recursing per level is safe)."""
    found = Positions()
    _value(text, _skip(text, 0), (), found)
    return found


def _skip(text: str, at: int) -> int:
    match = _WS.match(text, at)
    return match.end() if match else at


def _value(text: str, at: int, pointer: Pointer, found: Positions) -> int:
    """Record the value starting at ``at``; return the offset just past it."""
    found.values[pointer] = at
    opener = text[at]
    if opener == "{":
        at = _skip(text, at + 1)
        seen: set[str] = set()
        while text[at] != "}":
            match = _STRING.match(text, at)
            assert match is not None  # the text is valid JSON
            key = json.loads(match.group())
            if key in seen:
                found.repeats.append((pointer + (key,), at))
            seen.add(key)
            found.keys[pointer + (key,)] = at
            at = _skip(text, match.end()) + 1  # past the ':'
            at = _skip(text, _value(text, _skip(text, at), pointer + (key,), found))
            if text[at] == ",":
                at = _skip(text, at + 1)
        return at + 1
    if opener == "[":
        at = _skip(text, at + 1)
        index = 0
        while text[at] != "]":
            at = _skip(text, _value(text, at, pointer + (index,), found))
            index += 1
            if text[at] == ",":
                at = _skip(text, at + 1)
        return at + 1
    match = (_STRING if opener == '"' else _SCALAR).match(text, at)
    assert match is not None  # the text is valid JSON
    return match.end()
