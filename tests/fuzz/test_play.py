"""Fuzzing ``stationmaster play``, both games: garbage typed at the prompt,
and damaged save files given to ``--load``.

Whatever is typed or loaded: exit 0, 1 or 2, never 3; no traceback; no hang;
the content, a file that is not a save, and another game's save are never
changed, and no temporary file is left behind. Most cases run in-process
(stopped by a watchdog at the case limit); a few run the real command in a
child process under the hang guard, through a real stdin pipe.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.atomic import TEMP_SUFFIX
from tests.kit.fuzz import Outcome, assert_sound, call, changes, fingerprint, fuzz_settings, scratch, spawn
from tests.kit.fuzz_mutations import NUMBERS, ODD_TEXT, Draw, Spared, json_paths, set_at
from tests.kit.project import PROJECT_ROOT

GAMES = ("stationmaster", "trickoftherails")

# Cases per game: in-process runs of typed lines and of damaged saves.
LINE_EXAMPLES = 12
SAVE_EXAMPLES = 12

# What the fuzzer may type, beside free text.
KEYS = ["d", "e", "d1", "d2", "d3", "d9", "h1", "h9", "r1", "r0", "0", "1", "2", "3", "7", "12", "40", "-1", "1.5", "99999999999999999999", "?", "help", "HELP", " 1 ", "1 2", "d 1", "e e"]
COMMANDS = [
    "",
    " ",
    "\t",
    "quit",
    "exit",
    "QUIT",
    "save",
    "save ",
    "save mine.json",
    "save fresh.json",
    "save decoy.txt",
    "save other-game.json",
    "save content",
    "save content/stationmaster/game.yaml",
    "save nowhere/x.json",
    "save " + "x" * 5000,
    "save ~/saved.json",
    "save ~nobody/x.json",
    "save .",
    "save /",
    "save mine.json extra",
    "save\tmine.json",
    "save -",
    "save *",
    "save $HOME",
]
JSON_LINES = [
    '{"kind": "draw", "player": 0, "source": "deck"}',
    '{"kind": "draw", "player": 1, "source": "deck"}',
    '{"kind": "endTurn", "player": 0}',
    '{"kind": "play", "player": 0, "card": "nowhere"}',
    '{"kind": "play", "player": 0, "card": "extra-12", "slot": 0, "heading": "east", "load": ["loaded reefer"]}',
    '{"kind": "attack", "player": 0, "card": "strike", "rival": 1, "x": 0, "y": -1}',
    '{"kind": "play", "player": 0, "card": "nyc-7"}',
    '{"kind": "placeCity", "player": 0, "company": "erie", "side": "left"}',
    '{"kind": "layTrack", "player": 0, "side": "right"}',
    "{}",
    "[]",
    "null",
    "true",
    "1",
    '"draw"',
    "{",
    '{"kind": null}',
    '{"kind": "draw"}',
    '{"kind": "draw", "player": -1, "source": "deck"}',
    '{"kind": "draw", "player": 1e400, "source": "deck"}',
    '{"kind": "draw", "player": NaN, "source": "deck"}',
    '{"kind": "draw", "player": true, "source": "deck"}',
    '{"kind": "draw", "player": 0, "source": "deck", "extra": 1}',
    '{"kind": "draw", "player": 99999999999999999999999, "source": "deck"}',
    '{"kind": "draw", "player": 0, "source": ["deck"]}',
    '{"kind": "play", "player": 0, "card": "' + "x" * 10000 + '"}',
    "[" * 100000 + "]" * 100000,
    '{"kind": "draw", "player": ' + "9" * 5000 + "}",
    '{"kind": "draw", "kind": "endTurn", "player": 0}',
]
CARD_WORDS = ["nyc 7", "NYC 7", "nyc", "b-and-o-2", "erie 1", "prr 99", "left", "right", "pittsburgh", "train-3", "depot", "straight"]


def _line() -> st.SearchStrategy[bytes]:
    text = st.one_of(
        st.sampled_from(KEYS + COMMANDS + JSON_LINES + CARD_WORDS + ODD_TEXT),
        st.text(max_size=30),
        st.lists(st.sampled_from(ODD_TEXT + KEYS), min_size=1, max_size=4).map("".join),
    ).map(lambda line: line.encode("utf-8", "surrogatepass"))
    raw = st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xfe\xff", b"\x00", b"\r", b"x" * 100_000, b"\x1b[2J", b"\xef\xbb\xbf1"])
    return st.one_of(text, text, text, raw)


def _stdin() -> st.SearchStrategy[bytes]:
    def join(parts: tuple[list[bytes], bool]) -> bytes:
        lines, last_newline = parts
        return b"\n".join(lines) + (b"\n" if last_newline else b"")

    return st.tuples(st.lists(_line(), min_size=1, max_size=25), st.booleans()).map(join)


def _setup(draw: Draw, game: str) -> list[str]:
    """The arguments of a new game: a seed, the seats, the bots (a person
    always among them: a game of bots alone plays to its end without input)."""
    if game == "stationmaster":
        players = draw(st.integers(min_value=1, max_value=4))
        bots = ["random", "greedy"]
    else:
        players = draw(st.integers(min_value=3, max_value=5))
        bots = ["random"]
    args = ["--game", game, "--seed", str(draw(st.integers(min_value=0, max_value=50))), "--players", str(players)]
    count = draw(st.integers(min_value=0, max_value=players - 1))
    if count:
        args += ["--bots", str(count), "--bot", draw(st.sampled_from(bots))]
    if draw(st.booleans()):
        args += ["--save", draw(st.sampled_from(["mine.json", "fresh.json", "decoy.txt", "other-game.json"]))]
    return args


# -- the files a session must leave alone ----------------------------------------


def _session_folder(root: Path, game: str) -> None:
    """Beside the content: a file that is no save, a save of the other game,
    and a save of this one (which the player may overwrite)."""
    (root / "decoy.txt").write_bytes(b"my notes, not a save\n")
    other = "trickoftherails" if game == "stationmaster" else "stationmaster"
    (root / "other-game.json").write_text(saves(other)[0][1], encoding="utf-8")
    (root / "mine.json").write_text(saves(game)[0][1], encoding="utf-8")


def _assert_session(before: dict[str, str], root: Path, outcome: Outcome, case: str) -> None:
    """Sound, and every file that stood before the session stands unchanged
    (but the saves the player may overwrite: mine.json, fresh.json,
    saved.json); new files are the player's saves, never temporary files."""
    assert_sound(outcome, case)
    after = fingerprint(root)
    kept = {key: value for key, value in before.items() if not re.fullmatch(r"(mine|fresh|saved)\.json", key)}
    changed = changes(kept, {key: after.get(key, "absent") for key in kept})
    assert not changed, f"{case}: files changed: {changed}\n{outcome}"
    temporary = [key for key in after if key not in before and (key.endswith(".tmp") or key.endswith(TEMP_SUFFIX))]
    assert not temporary, f"{case}: temporary files left: {temporary}\n{outcome}"


# -- saves to damage -----------------------------------------------------------------


def _station_master_saves() -> list[tuple[str, str]]:
    from engine.stationmaster import load_catalog
    from engine.stationmaster.rules.game import Game

    catalog = load_catalog(PROJECT_ROOT / "content" / "stationmaster")
    found = []
    for players, seed, steps in ((1, 3, 0), (1, 5, 12), (2, 7, 40)):
        game, pick = Game(catalog, players=players, seed=seed), random.Random(seed)
        for _ in range(steps):
            if game.is_over():
                break
            game.apply(pick.choice(game.legal_actions()))
        found.append((f"stationmaster {players}p seed {seed}, {steps} actions", game.dumps()))
    return found


def _trick_of_the_rails_saves() -> list[tuple[str, str]]:
    from engine.trickoftherails import load_catalog
    from engine.trickoftherails.rules.game import Game

    catalog = load_catalog(PROJECT_ROOT / "content" / "trickoftherails")
    found = []
    for players, seed, steps in ((3, 3, 0), (4, 5, 10), (5, 7, 30)):
        game, pick = Game(catalog, players=players, seed=seed), random.Random(seed)
        for _ in range(steps):
            if game.is_over():
                break
            game.apply(pick.choice(game.legal_actions()))
        found.append((f"trickoftherails {players}p seed {seed}, {steps} actions", game.dumps()))
    return found


@functools.cache
def saves(game: str) -> list[tuple[str, str]]:
    """A few real saves of ``game`` (made once, when first needed): a fresh
    game, one a few actions in, one well under way with more players."""
    return _station_master_saves() if game == "stationmaster" else _trick_of_the_rails_saves()


SAVE_VALUES: list[Any] = [None, True, False, 0, -1, 1, 2, 5, 99, 10**6, 2**63, -(2**63), 1.5, float("inf"), "", "x", "deck", "nyc-7", [], {}, [[]], {"kind": "draw"}, "x" * 10000]


def _damage_json(draw: Draw, text: str) -> tuple[str, str]:
    """A save damaged at the level of its JSON: a value of the wrong type or
    size, a key gone, the actions cut, repeated, shuffled, or of the other
    game, the format or the content fingerprint changed, deep nesting."""
    data = json.loads(text)
    how = draw(st.sampled_from(["value", "value", "drop", "actions", "format", "content", "nesting", "number"]))
    paths = [p for p in json_paths(data) if p]
    if how == "value":
        path = draw(st.sampled_from(paths))
        data = set_at(data, path, draw(st.sampled_from(SAVE_VALUES)))
        return json.dumps(data), f"{'/'.join(map(str, path))} -> a new value"
    if how == "drop":
        path = draw(st.sampled_from(paths))
        parent: Any = data
        for step in path[:-1]:
            parent = parent[step]
        del parent[path[-1]]
        return json.dumps(data), f"{'/'.join(map(str, path))} removed"
    if how == "actions":
        actions = data.get("actions") or [{"kind": "draw", "player": 0, "source": "deck"}]
        change = draw(st.sampled_from(["cut", "repeat", "shuffle", "many", "reverse", "other"]))
        if change == "cut":
            actions = actions[: draw(st.integers(0, len(actions)))]
        elif change == "repeat":
            k = draw(st.integers(0, len(actions) - 1))
            actions = actions[: k + 1] + actions[k:]
        elif change == "shuffle":
            random.Random(draw(st.integers(0, 99))).shuffle(actions)
        elif change == "many":
            actions = actions + [actions[-1]] * 5000
        elif change == "reverse":
            actions = actions[::-1]
        else:
            other = "trickoftherails" if data.get("format", "").startswith("stationmaster") else "stationmaster"
            actions = json.loads(saves(other)[-1][1])["actions"]
        data["actions"] = actions
        return json.dumps(data), f"actions: {change}"
    if how == "format":
        new = draw(st.sampled_from(["stationmaster-save/2", "stationmaster-save/1", "stationmaster-save/999", "trickoftherails-save/1", "trickoftherails-save/0", "", "x-save/1", None]))
        data["format"] = new
        return json.dumps(data), f"format -> {new!r}"
    if how == "content":
        data["content"] = draw(st.sampled_from(["0" * 64, "", None, data.get("content", "")[:-1]]))
        return json.dumps(data), "content fingerprint changed"
    if how == "nesting":
        depth = draw(st.sampled_from([50, 1000, 100_000]))
        path = draw(st.sampled_from(paths))
        deep = "[" * depth + "]" * depth
        return json.dumps(set_at(data, path, "@@DEEP@@")).replace('"@@DEEP@@"', deep), f"{'/'.join(map(str, path))} nested {depth} deep"
    path = draw(st.sampled_from(paths))
    number = draw(st.sampled_from(NUMBERS[:6] + ["1e999", "-1e999", "NaN", "Infinity", "1" + "0" * 4400]))
    return json.dumps(set_at(data, path, "@@N@@")).replace('"@@N@@"', number), f"{'/'.join(map(str, path))} -> {number[:20]}"


def _damage_bytes(draw: Draw, text: str) -> tuple[bytes, str]:
    data = text.encode()
    how = draw(st.sampled_from(["truncate", "flip", "invalid", "bom", "utf-16", "empty", "nul", "trailing", "crlf", "duplicate-key", "two-documents"]))
    if how == "truncate":
        at = draw(st.integers(0, len(data)))
        return data[:at], f"cut at byte {at}"
    if how == "flip":
        at = draw(st.integers(0, max(0, len(data) - 1)))
        value = draw(st.integers(0, 255))
        return data[:at] + bytes([value]) + data[at + 1 :], f"byte {at} -> {value:#x}"
    if how == "invalid":
        at = draw(st.integers(0, len(data)))
        return data[:at] + b"\xff\xc3" + data[at:], f"invalid UTF-8 at byte {at}"
    if how == "bom":
        return b"\xef\xbb\xbf" + data, "UTF-8 byte-order mark"
    if how == "utf-16":
        return text.encode("utf-16"), "UTF-16"
    if how == "empty":
        return draw(st.sampled_from([b"", b" ", b"\n", b"\x00", b"null", b"[]", b"{}", b'""', b"1e999"])), "empty or nearly"
    if how == "nul":
        at = draw(st.integers(0, len(data)))
        return data[:at] + b"\x00" + data[at:], f"NUL at byte {at}"
    if how == "trailing":
        return data + draw(st.sampled_from([b"x", b"{}", b"\n\n", b"\x00", b" garbage"])), "something after the JSON"
    if how == "crlf":
        return data.replace(b"\n", b"\r\n"), "CRLF"
    if how == "duplicate-key":
        return data.replace(b'"seed": ', b'"seed": 1, "seed": ', 1), "seed given twice"
    return data + b"\n" + data, "the save twice"


def _damaged_save(draw: Draw, game: str) -> tuple[bytes, str]:
    name, text = draw(st.sampled_from(saves(game)))
    if draw(st.booleans()):
        try:
            damaged, what = _damage_json(draw, text)
        except Spared:
            damaged, what = text, "unchanged"
        if draw(st.integers(0, 3)) == 0:
            raw, more = _damage_bytes(draw, damaged)
            return raw, f"{name}: {what}; {more}"
        return damaged.encode("utf-8", "surrogatepass"), f"{name}: {what}"
    raw, what = _damage_bytes(draw, text)
    return raw, f"{name}: {what}"


# -- the cases ---------------------------------------------------------------------


Runner = Callable[..., Outcome]


def _typed(game: str, examples: int, run: Runner) -> None:
    @fuzz_settings(examples)
    @given(st.data())
    def case(data: st.DataObject) -> None:
        with scratch(PROJECT_ROOT, ["content"]) as root:
            _session_folder(root, game)
            args = ["play", *_setup(data.draw, game)]
            typed = data.draw(_stdin(), label="stdin")
            before = fingerprint(root)
            outcome = run(args, root, stdin=typed)
            _assert_session(before, root, outcome, f"{' '.join(args)} fed {typed[:300]!r}")

    case()


def _loaded(game: str, examples: int, run: Runner) -> None:
    @fuzz_settings(examples)
    @given(st.data())
    def case(data: st.DataObject) -> None:
        with scratch(PROJECT_ROOT, ["content"]) as root:
            _session_folder(root, game)
            raw, what = _damaged_save(data.draw, game)
            (root / "damaged.json").write_bytes(raw)
            args = ["play", "--game", game, "--load", "damaged.json"]
            if data.draw(st.booleans()):
                args += ["--bots", str(data.draw(st.integers(min_value=-1, max_value=2))), "--bot", "random"]
            typed = data.draw(st.sampled_from([b"", b"quit\n", b"?\n1\nquit\n", b"d\n1\n2\nhelp\n"]), label="stdin")
            before = fingerprint(root)
            outcome = run(args, root, stdin=typed)
            _assert_session(before, root, outcome, f"{' '.join(args)} with the save {what}, fed {typed!r}")
            if outcome.code == 0:
                # A save that loads is one the engine accepts: it must replay.
                assert "Resumed" in outcome.out, outcome

    case()


@pytest.mark.parametrize("game", GAMES)
def test_play_survives_garbage_typed_at_the_prompt(game: str) -> None:
    _typed(game, LINE_EXAMPLES, call)


@pytest.mark.parametrize("game", GAMES)
def test_play_survives_damaged_saves(game: str) -> None:
    _loaded(game, SAVE_EXAMPLES, call)


def _save_target(game: str, examples: int, run: Runner) -> None:
    """A damaged save of either game named by ``--save`` (a game of bots
    alone plays to its end and saves after every action): it is replaced
    only when it still reads as a save of this game; anything else stays
    byte for byte, and the run still ends soundly."""

    @fuzz_settings(examples)
    @given(st.data())
    def case(data: st.DataObject) -> None:
        with scratch(PROJECT_ROOT, ["content"]) as root:
            owner = data.draw(st.sampled_from(GAMES), label="whose save")
            raw, what = _damaged_save(data.draw, owner)
            target = root / "target.json"
            target.write_bytes(raw)
            seats = ["--players", "1", "--bots", "1"] if game == "stationmaster" else ["--players", "3", "--bots", "3"]
            args = ["play", "--game", game, *seats, "--seed", "2", "--save", "target.json"]
            outcome = run(args, root)
            case = f"{' '.join(args)} over a {owner} save {what}"
            assert_sound(outcome, case)
            format_of = {"stationmaster": "stationmaster-save/2", "trickoftherails": "trickoftherails-save/1"}[game]
            try:
                held = json.loads(raw.decode("utf-8"))
            except (ValueError, RecursionError):
                held = None
            ours = isinstance(held, dict) and held.get("format") == format_of
            if not ours:
                assert target.read_bytes() == raw, f"{case}: a file that is not a {game} save was overwritten\n{outcome}"
                assert outcome.code == 2, f"{case}: {outcome}"
            leftover = [p.name for p in root.iterdir() if p.name.endswith(TEMP_SUFFIX)]
            assert not leftover, f"{case}: temporary files left: {leftover}"

    case()


@pytest.mark.parametrize("game", GAMES)
def test_play_save_never_replaces_what_is_not_its_save(game: str) -> None:
    _save_target(game, SAVE_EXAMPLES, call)


# For the child processes: what an in-process run cannot show (the
# interpreter's own decoding of a real stdin pipe, its exit), fed input
# chosen to hit that decoding: bytes that are not UTF-8, a byte-order mark,
# NUL, an escape sequence, a 100,000-character line, JSON nested past
# Python's recursion limit, and no final newline.
CHILD_STDIN = b"\n".join([b"\xff\xfe", b"\xc3", b"\xef\xbb\xbf1", b"\x00", b"\x1b[2J", b"x" * 100_000, b"[" * 100_000, b'{"kind": "draw"}', b"?", b"help", b"save ~/saved.json", b"1"])


@pytest.mark.parametrize("game", GAMES)
def test_play_in_a_child_process_survives_garbage(game: str) -> None:
    with scratch(PROJECT_ROOT, ["content"]) as root:
        _session_folder(root, game)
        args = ["play", "--game", game, "--seed", "1", "--players", "3" if game == "trickoftherails" else "1"]
        before = fingerprint(root)
        _assert_session(before, root, spawn(args, root, stdin=CHILD_STDIN), f"{' '.join(args)} in a child")


@pytest.mark.parametrize("game", GAMES)
def test_play_in_a_child_process_survives_a_damaged_save(game: str) -> None:
    with scratch(PROJECT_ROOT, ["content"]) as root:
        _session_folder(root, game)
        text = saves(game)[-1][1].encode()
        (root / "damaged.json").write_bytes(text[: len(text) // 2] + b"\xff\xc3")
        args = ["play", "--game", game, "--load", "damaged.json"]
        before = fingerprint(root)
        _assert_session(before, root, spawn(args, root, stdin=b"quit\n"), f"{' '.join(args)} in a child")
