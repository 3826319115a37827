"""Golden playthroughs, as OpenSpiel keeps them: one seeded bot game of a
pack written out as text, action by action, and held to the file it was
recorded in.

A pack's test plays the game and hands over plain JSON: the state at the
start, then each action with the state after it. What is written for each
action is the action, the lines the game's own log gained, and every other
part of the state that changed, as an exact edit (a list says which items
left or came in, and where), so that any change in behaviour moves the text
and the diff says where the game first went another way.

``make goldens`` records them again (it sets ``UPDATE_GOLDENS``); a failing
check names that command.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

UPDATE = "UPDATE_GOLDENS"
REFRESH = "make goldens"

# The part of a pack's state that is its own account of play, in words: its
# new lines are shown as prose, not as an edit of a list.
NARRATIVE = "log"

# A failure shows the start of the diff; the file itself holds the rest.
DIFF_LINES_SHOWN = 80

# A JSON value: what a pack's state and actions are made of.
Json = Any

Step = tuple[dict[str, Json], dict[str, Json]]  # an action, and the state after it


def _word(value: Json) -> str:
    """A value as a reader takes it in: a string bare, a list as ``[a b]``,
    an object as ``{key=value ...}``, anything else as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return f"[{_words(value)}]"
    if isinstance(value, dict):
        return "{" + " ".join(f"{key}={_word(value[key])}" for key in sorted(value)) + "}"
    return json.dumps(value)


def _words(items: Sequence[Json]) -> str:
    return " ".join(_word(item) for item in items)


def _deep(item: Json) -> bool:
    """A list, or an object that holds a list or an object."""
    return isinstance(item, list) or (isinstance(item, dict) and any(isinstance(v, (dict, list)) for v in item.values()))


def _followed_into(items: Sequence[Json]) -> bool:
    """A list that holds lists or deeper objects (the hands, the districts) is
    told item by item; one of plain values or plain objects (a deck, a yard
    of cars) is one value, so a card drawn or a car taken reads as one edit."""
    return any(_deep(item) for item in items)


def leaves(value: Json, path: str = "") -> Iterator[tuple[str, Json]]:
    """Every part of a JSON value with its path, as far as it is followed into."""
    if isinstance(value, dict):
        for key in sorted(value):
            yield from leaves(value[key], f"{path}.{key}" if path else str(key))
    elif isinstance(value, list) and _followed_into(value):
        for index, item in enumerate(value):
            yield from leaves(item, f"{path}[{index}]")
    else:
        yield path, value


def _list_edit(old: Sequence[Json], new: Sequence[Json]) -> str:
    """The edit that makes ``new`` of ``old``, position by position: ``-a b
    @3`` took a and b out at index 3, ``+c @0`` put c in at the front."""
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, [_word(item) for item in old], [_word(item) for item in new], autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        taken = f"-{_words(old[i1:i2])} " if i2 > i1 else ""
        given = f"+{_words(new[j1:j2])} " if j2 > j1 else ""
        parts.append(f"{taken}{given}@{i1}")
    return f"{', '.join(parts)} (now {len(new)})"


def _differences(path: str, old: Json, new: Json) -> Iterator[str]:
    """A line for each part that differs: a part that came in whole (a new
    square, a train that set out) on one line, a part that went as ``gone``."""
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys()):
            yield from _part(f"{path}.{key}" if path else str(key), old, new, key)
    elif isinstance(old, list) and isinstance(new, list) and (_followed_into(old) or _followed_into(new)):
        for index in range(max(len(old), len(new))):
            yield from _part(f"{path}[{index}]", old, new, index)
    elif isinstance(old, list) and isinstance(new, list):
        yield f"{path}: {_list_edit(old, new)}"
    else:
        yield f"{path}: {_word(old)} -> {_word(new)}"


def _part(path: str, old: Json, new: Json, key: str | int) -> Iterator[str]:
    """The differences of ``old[key]`` and ``new[key]``, either of which may be missing."""
    had = key in old if isinstance(old, dict) else isinstance(key, int) and key < len(old)
    has = key in new if isinstance(new, dict) else isinstance(key, int) and key < len(new)
    if not has:
        yield f"{path}: gone"
    elif not had:
        yield f"{path} = {_word(new[key])}"
    else:
        yield from _differences(path, old[key], new[key])


def changes(before: dict[str, Json], after: dict[str, Json]) -> list[str]:
    """What changed from ``before`` to ``after``, a line a part, the new lines
    of the narrative first."""
    told = [f"| {line}" for line in after.get(NARRATIVE, [])[len(before.get(NARRATIVE, [])) :]]
    rest = {key: value for key, value in before.items() if key != NARRATIVE}, {key: value for key, value in after.items() if key != NARRATIVE}
    return told + list(_differences("", *rest))


def _action(action: dict[str, Json]) -> str:
    """``draw player=0 source=deck``: the action's kind, then its fields."""
    fields = " ".join(f"{key}={_word(value)}" for key, value in sorted(action.items()) if key != "kind")
    return f"{action.get('kind', '?')} {fields}".rstrip()


def transcript(title: str, start: dict[str, Json], steps: Iterable[Step], scores: Callable[[], Sequence[int]]) -> str:
    """The whole game as text: ``title``, the state at the start, each
    action with what it changed, then the final ``scores`` (asked for once
    every step has been taken)."""
    lines = [f"# {title}", f"# Recorded by a seeded bot game; `{REFRESH}` records it again.", "", "== start"]
    lines += [f"{path} = {_word(value)}" for path, value in leaves(start) if path != NARRATIVE]
    lines += [f"| {line}" for line in start.get(NARRATIVE, [])]
    before = start
    for number, (action, after) in enumerate(steps, 1):
        lines += ["", f"== {number}. {_action(action)}"]
        lines += [f"   {line}" for line in changes(before, after)]
        before = after
    lines += ["", f"== end: scores {_words(list(scores()))}", ""]
    return "\n".join(lines)


def hold_to_golden(path: Path, text: str) -> None:
    """Fail, with the start of a readable diff, unless ``text`` is what
    ``path`` holds; with ``UPDATE_GOLDENS`` set, write ``text`` there instead."""
    if os.environ.get(UPDATE):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no golden playthrough at {path}: `{REFRESH}` records it")
    recorded = path.read_text(encoding="utf-8")
    if text == recorded:
        return
    diff = list(difflib.unified_diff(recorded.splitlines(), text.splitlines(), f"{path.name} (recorded)", f"{path.name} (played now)", lineterm=""))
    shown = "\n".join(diff[:DIFF_LINES_SHOWN])
    more = f"\n... and {len(diff) - DIFF_LINES_SHOWN} more lines of diff" if len(diff) > DIFF_LINES_SHOWN else ""
    pytest.fail(f"the game now plays differently from {path}:\n{shown}{more}\nIf the change is meant, `{REFRESH}` records the games again; review the diff of tests/*/golden/.", pytrace=False)
