"""The choices offered, by key, in four sizes: one a line; the plays of
one card (or the moves of one train) gathered in a line; the same, each
cut to its first clause; and, when even that is too long, a line for each
such group saying only its keys and how many ways it has."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from command.stationmaster.screen.actions import describe_action
from command.words import counted, gathered_words, key_spans, or_words
from engine.stationmaster.rules.actions import Action, Answer, Attack, Discard, Draw, FlyingSwitch, Play, Pull, SortCars, Spot
from engine.stationmaster.rules.game import Game


def _head(keyed: Mapping[str, Action], more: str = "") -> str:
    return f"Your choices (type a key{more}{gap_note(keyed)}):"


def _group(action: Action) -> tuple[str, str] | None:
    """What gathers ``action`` with others in one line: the card played or
    discarded, the train moved, the Departments drawn from; None: alone."""
    if isinstance(action, (Play, Discard, Attack, Answer)):
        return (type(action).__name__, action.card)
    if isinstance(action, (Spot, Pull)):  # the moves of one train to one square
        return ("move", f"{action.train} {action.x},{action.y}")
    if isinstance(action, (FlyingSwitch, SortCars)):
        return (type(action).__name__, action.train or "")
    if isinstance(action, Draw) and action.source != "deck":
        return ("department", "")
    return None


def _gathered(game: Game, keyed: Mapping[str, Action]) -> list[list[tuple[str, str]]]:
    """The choices as groups of (key, words), each group where its first key is."""
    groups: dict[object, list[tuple[str, str]]] = {}
    for key, action in keyed.items():
        found = _group(action)
        groups.setdefault(key if found is None else found, []).append((key, describe_action(game, action)))
    return list(groups.values())


def _keys_said(keys: list[str]) -> str:
    """A row's keys, short: '3 to 6', '7, 8 or 10', and '7 ... 34' for more
    than three runs (the choices view lists each)."""
    spans = key_spans(keys)
    return or_words(spans) if len(spans) <= 3 else f"{keys[0]} ... {keys[-1]}"


def gap_note(keyed: Mapping[str, Action]) -> str:
    """A word on the numbers missing from the list, when some are."""
    numbers = sorted(int(key) for key in keyed if key.isdecimal())
    if numbers and numbers != list(range(1, len(numbers) + 1)):
        return "; a missing number is a choice no longer open this turn"
    return ""


def _width(keyed: Mapping[str, Action]) -> int:
    return max((len(k) for k in keyed), default=1)


def choices_full(game: Game, keyed: Mapping[str, Action]) -> list[str]:
    """One choice a line."""
    width = _width(keyed)
    return [_head(keyed), *(f"  {key:<{width}}  {describe_action(game, action)}" for key, action in keyed.items())]


def _gathered_line(group: list[tuple[str, str]], keyed: Mapping[str, Action], cut: Callable[[str], str] = str) -> str:
    if len(group) == 1:
        key, words = group[0]
        return f"  {key:<{_width(keyed)}}  {words}"
    shared, own = gathered_words([words for _, words in group])
    rests = [f"[{key}] {cut(words)}" for (key, _), words in zip(group, own)]
    return f"  {shared}: {'; '.join(rests)}" if shared else "  " + "; ".join(rests)


def choices_gathered(game: Game, keyed: Mapping[str, Action]) -> list[str]:
    """The choices of one card or one train in one line: 'Discard Sawmill
    onto Department: [1] 1 (...); [2] 2 (...)'."""
    return [_head(keyed), *(_gathered_line(group, keyed) for group in _gathered(game, keyed))]


_COORDINATES = re.compile(r"\(-?\d+, -?\d+\)")


def _short(words: str) -> str:
    """A choice's words up to its first clause: 'at (1, 0) turned 90°,
    replacing the Straight' -> 'at (1, 0) turned 90°'; a bracket of several
    words is left out ('1 (on top of Curve (right))' -> '1'), one word such as
    '(left)' or a square's coordinates stays."""
    kept: list[str] = []
    at = 0
    while at < len(words):
        square = _COORDINATES.match(words, at)
        if square:
            kept.append(square.group())
            at = square.end()
            continue
        if words.startswith(" (", at) and not _COORDINATES.match(words, at + 1):
            depth, end = 0, at + 1
            while end < len(words):  # to the bracket that closes this one
                depth += {"(": 1, ")": -1}.get(words[end], 0)
                end += 1
                if depth == 0:
                    break
            if " " in words[at + 1 : end]:  # words aside, not a one-word name part such as '(left)'
                at = end
                continue
        if words[at] in ",;":
            break
        kept.append(words[at])
        at += 1
    return "".join(kept).strip()


def choices_brief(game: Game, keyed: Mapping[str, Action]) -> list[str]:
    """As ``choices_gathered``, each choice cut to its first clause."""
    return [_head(keyed), *(_gathered_line(group, keyed, _short) for group in _gathered(game, keyed))]


def choices_counted(game: Game, keyed: Mapping[str, Action], most: int | None = None, *, alike: bool = False) -> list[str]:
    """One short line a group: its keys and what they share ('13 to 16
    Play Yard Office: 4 ways'); ``choices`` lists each. With ``most``, at
    most that many lines: first the groups that differ only in their
    square are told together ('Switch: X5 sets out its ... at 8 squares'),
    then the last groups of numbered choices, and the turn's own steps
    (d, e ...) stay. ``alike``: tell the groups that differ only in their
    square together however many lines there are."""
    width = _width(keyed)
    lines = [_head(keyed, "; choices shows each one")]
    # each row: its keys, its line, and its words with the square left out
    rows: list[tuple[list[str], str, str]] = []
    for group in _gathered(game, keyed):
        keys = [key for key, _ in group]
        said = _keys_said(keys)
        if len(group) == 1:
            rows.append((keys, f"  {said:<{width}}  {group[0][1]}", ""))
        else:
            shared = gathered_words([words for _, words in group])[0] or "choices"
            rows.append((keys, f"  {said}  {shared}: {counted(len(group), 'way')}", _COORDINATES.sub("", shared)))
    while (most is not None and len(rows) + 1 > most) or alike:
        numbered = [i for i, (keys, _, _) in enumerate(rows) if keys[0].isdecimal()]
        twins = [i for i, j in zip(numbered, numbered[1:]) if j == i + 1 and rows[i][2] and rows[i][2] == rows[j][2]]
        if twins:  # the last two that differ only in their square
            first, second = twins[-1], twins[-1] + 1
            keys = rows[first][0] + rows[second][0]
            squares = rows[first][1].count("squares") and int(re.findall(r"at (\d+) squares", rows[first][1])[0]) or 1
            squares += rows[second][1].count("squares") and int(re.findall(r"at (\d+) squares", rows[second][1])[0]) or 1
            pattern = rows[first][2].replace(" at ", f" at {squares} squares", 1) if " at " in rows[first][2] else rows[first][2]
            rows[first : second + 1] = [(keys, f"  {_keys_said(keys)}  {pattern.strip()}: {counted(len(keys), 'way')}", rows[first][2])]
            continue
        if len(numbered) < 2 or alike:
            break
        # the last two numbered rows become one
        first, second = numbered[-2], numbered[-1]
        keys = rows[first][0] + rows[second][0]
        rows[first : second + 1] = [(keys, f"  {_keys_said(keys)}  {counted(len(keys), 'more choice')}", "")]
    return lines + [line for _, line, _ in rows]
