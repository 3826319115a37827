"""Saved games, for any pack: a save is a JSON object holding its game's
format, the fingerprint of the content it was played with, the seed and
setup, and the actions in order. A pack says whether a save is its own and
how to rebuild the game; the checks and the replay are the same for all,
and so are reading a save file and writing one (``read_text``,
``check_target``, ``write_text``): only a regular file is read or replaced,
so a FIFO, a device or a folder named as a save is refused up front, never
read until it hangs or the memory runs out, and a save is written whole or
not at all."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from engine.atomic import write_whole
from engine.content import files
from engine.errors import ConfigurationError, IllegalActionError, InvalidActionError, SaveError, UsageError

G = TypeVar("G")


def envelope(format: str, fingerprint: str, seed: int, players: int, rules: Mapping[str, Any], actions: Iterable[Any], **more: Any) -> dict[str, Any]:
    """A save as every game writes it (``opened`` reads it back): its format,
    the content's fingerprint, the seed, the players, the house rules, each
    action's JSON in order, and whatever ``more`` the game adds."""
    return {
        "format": format,
        **more,
        "content": fingerprint,
        "seed": seed,
        "players": players,
        "houseRules": dict(rules),
        "actions": [a.to_json() for a in actions],
    }


# Where a save written at a table records who sat there: a list with, for
# each seat in order, null for a person or the name of the bot that played
# it. The rules never read it (a replay is the same game without it); the
# terminal game seats a resumed game by it.
TABLE = "table"


def with_table(save: Mapping[str, Any], seats: Sequence[str]) -> str:
    """The text of ``save`` (a game's ``save()``) with its ``TABLE``: each
    seat's bot, "" for a person. The same JSON layout as every save."""
    return json.dumps({**save, TABLE: [bot or None for bot in seats]}, indent=1, sort_keys=True, ensure_ascii=False)


# A seed is any whole number ``play --seed`` takes: up to Python's own
# limit on the digits of an integer read from text.
SAVE_DIGITS = 4300


def parsed(text: str) -> object:
    """The save's JSON, read as all JSON from disk is (``engine.jsonfile``:
    bounded nesting and numbers), or SaveError saying why not."""
    from engine import jsonfile

    try:
        return jsonfile.loads(text, max_digits=SAVE_DIGITS)
    except jsonfile.JsonRefused as exc:
        raise SaveError(f"the save {exc.reason}") from None


def foreign_format(save: Mapping[str, Any], expected: str, title: str) -> str | None:
    """None when ``save`` declares the format ``expected`` (``PACK-save/N``);
    else what is true of the format it declares, in words: none at all,
    another version of this game's saves (or the field was edited), or
    another game's saves. Every game's ``foreign`` starts here."""
    found = save.get("format")
    if found == expected:
        return None
    if found is None:
        return f'not a {title} save: it has no format field (a {title} save has "format": {_quoted(expected)})'
    if not isinstance(found, str):
        return f'not a {title} save: its format field is not text (a {title} save has "format": {_quoted(expected)})'
    ours = expected.partition("-save/")[0]
    pack, marked, _ = found.partition("-save/")
    if marked and pack == ours:
        return f"the save's format is {_quoted(found)}, which this version of the kit does not read (it reads {_quoted(expected)}): was it made by another version, or its format field edited?"
    if marked:
        return f"not a {title} save: its format {_quoted(found)} is another game's"
    return f"not a {title} save: its format is {_quoted(found)} (a {title} save's is {_quoted(expected)})"


def _quoted(text: str) -> str:
    """``text`` in quotes, cut short and on one line, for a message."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


def opened(save: object, foreign: Callable[[dict[str, Any]], str | None], fingerprint: str) -> tuple[dict[str, Any], list[Any], dict[str, Any]]:
    """The save, its actions and its house rules, or SaveError: not an
    object, another game's (``foreign`` says why, or None when it is this
    game's), made with other content, or missing its parts."""
    if not isinstance(save, dict):
        raise SaveError("a saved game is a JSON object")
    why = foreign(save)
    if why is not None:
        raise SaveError(why)
    if save.get("content") != fingerprint:
        raise SaveError("the save was made with different card content; it cannot be replayed with this content")
    actions, house = save.get("actions"), save.get("houseRules")
    if not isinstance(actions, list) or not isinstance(house, dict):
        raise SaveError("the save is missing its action list or house rules")
    return save, actions, house


def replayed(start: Callable[[], G], apply: Callable[[G, Any], None], actions: list[Any]) -> G:
    """The game ``start`` sets up with every action applied in order
    (``apply(game, data)`` reads and applies one); SaveError naming the first
    that cannot be set up or replayed, with the rules' reasons when refused."""
    try:
        game = start()
    except ConfigurationError as exc:
        raise SaveError(str(exc)) from None
    for number, data in enumerate(actions, start=1):
        try:
            apply(game, data)
        except (InvalidActionError, IllegalActionError) as exc:
            error = SaveError(f"the save's action {number} cannot be replayed: {exc}")
            if isinstance(exc, IllegalActionError):
                error.reasons = exc.reasons
            raise error from None
    return game


def read_text(path: Path, title: str) -> str:
    """The text of the save file at ``path``; UsageError saying, in one
    line, why it cannot be read (``title`` names the game's saves)."""
    try:
        data = files.read_bytes(path)
    except files.Unreadable as exc:
        if exc.missing:
            raise UsageError(f"{files.shown(path)}: no such save file") from None
        raise UsageError(f"{files.shown(path)}: {exc.reason}{'' if exc.refused else ', so not a save file'}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{files.shown(path)}: not a {title} save (it is not UTF-8 text)") from None


def check_target(path: Path, is_save: Callable[[str], bool], title: str) -> None:
    """Nothing when a save may be written at ``path``; else UsageError
    saying why not (the sentence's subject is the place). The rule is the
    one every file a person names follows (``engine.targets``): here what
    already stands there must be a regular file holding a save that
    ``is_save`` recognises, so nothing else is ever replaced."""
    from engine.targets import refusal

    why = refusal(path, recognised=lambda held: is_save(_text(held)), what=f"a {title} save")
    if why is not None:
        raise UsageError(f"{why}; refusing to overwrite it" if why.startswith("the file exists") else why)


def _text(held: bytes) -> str:
    try:
        return held.decode("utf-8")
    except UnicodeDecodeError:
        return ""


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (``engine.atomic``):
    through a symbolic link, keeping an existing file's permissions. OSError
    when that fails (a full disk, an I/O error); whatever stood at ``path``
    is then as it was."""
    write_whole(path, text.encode("utf-8"))
