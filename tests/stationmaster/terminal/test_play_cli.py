"""``stationmaster play``: the terminal game, driven in-process through
``command.play.run`` with StringIO for stdin and stdout."""

from __future__ import annotations

import argparse
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from command import play
from command.stationmaster.textview import ActionKeys, describe_action, render_final, render_state
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules import dispatch as rules
from engine.stationmaster.rules.actions import Action, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, SortCars, Spot, from_json
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.switching import train_district
from tests.kit.stationmaster import CATALOG, codes
from tests.kit.stationmaster_play import Played, asked, parser, replay, run_play


def fresh(seed: int, players: int = 1) -> Game:
    return Game(CATALOG, players=players, seed=seed)


def assert_no_traceback(result: Played) -> None:
    assert "Traceback" not in result.out + result.err


# -- playing -------------------------------------------------------------------------


def test_keys_then_quit(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run_play(["--seed", "2", "--save", str(save)], ["1", "d", "2", "quit"])
    assert result.code == 0, result.err
    assert result.err == ""
    assert_no_traceback(result)
    # seed 2 opens with a Heavy Grade to set: choice 1 sets it climbing east
    replies = result.replies
    assert "Setup" in replies[0] and re.search(r"^  1  Set the grade at Heavy Grade", replies[0], re.M)
    assert replies[1].startswith("> Set the grade at Heavy Grade [1] to climb eastward")
    assert replies[2].startswith("> Draw from the deck")
    assert re.match(r"> Draw from the deck \(\d+ cards\)\n  player 0 draws \S", replies[2])
    assert "quit: stopping; the game is saved in" in replies[-1]
    assert replay(save).state_json() == _after_keys(2, ["1", "d", "2"]).state_json()


def test_each_view_shows_the_table() -> None:
    result = run_play(["--seed", "5"], ["d", "?", "quit"])
    opening = result.replies[0]
    for part in (
        "Day 1 of 3, Stage 1 of 12",
        "player 0 to act",
        "Mainline, west to east:",
        "[0] West Division Point",
        "Office of district 0",
        "District 0 (its Office: Depot); its Limits signs stand at columns -1 and 1",
        "<- Running Track",
        "|W Limits",
        "E Limits|",
        "Hand of player 0",
        "Departments:",
        "Timetable",
        "12: -",
        "Scores: district 0: 0",
        "Your choices",
    ):
        assert part in opening, part
    assert re.search(r"^  d +Draw from the deck", opening, re.M) and re.search(r"^  e +End the turn", opening, re.M)
    # ? prints the same table again, unchanged
    assert result.replies[2].startswith("=== Day 1 of 3, Stage 1 of 12")
    game, keys = _session(5, ["d"])
    assert render_state(game, keys.assign(game, game.legal_actions())) in result.replies[2]


def _session(seed: int, keys: Sequence[str], players: int = 1) -> tuple[Game, ActionKeys]:
    """The game after typing ``keys`` in a fresh session, and that session's keys."""
    game = fresh(seed, players)
    held = ActionKeys()
    for typed in keys:
        game.apply(held.assign(game, game.legal_actions())[typed])
    return game, held


def _after_keys(seed: int, keys: Sequence[str]) -> Game:
    return _session(seed, keys)[0]


def _first_keys(seed: int, players: int = 1) -> tuple[list[str], Game]:
    """The keys of a whole game that always takes the first choice listed;
    with more than one player (all people), an Enter at each hand-over."""
    game, held, typed = fresh(seed, players), ActionKeys(), []
    at_terminal = None
    while not game.is_over():
        keyed = held.assign(game, game.legal_actions())
        first, action = next(iter(keyed.items()))
        if asked(keyed):  # else the session takes the lone choice unasked
            if players > 1 and game.to_act != at_terminal:
                typed.append("")
                at_terminal = game.to_act
            typed.append(first)
        game.apply(action)
    return typed, game


def _after(seed: int, choices: list[int]) -> Game:
    """The game after taking these positions (from 1) of legal_actions()."""
    game = fresh(seed)
    for choice in choices:
        game.apply(game.legal_actions()[choice - 1])
    return game


def test_a_legal_json_action_is_taken(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    result = run_play(["--seed", "3", "--save", str(save)], ['{"kind": "draw", "player": 0, "source": "2"}', "quit"])
    assert result.code == 0
    assert result.replies[1].startswith("> Draw from Department 2 (")
    expected = fresh(3)
    expected.apply(Draw(0, "2"))
    assert replay(save).state_json() == expected.state_json()


def test_a_refused_json_action_prints_every_reason_and_changes_nothing(catalog: Catalog, tmp_path: Path) -> None:
    game = fresh(0)
    absent = next(c.id for c in catalog.cards if c.family == "track" and c.id not in game.state.hands[0])
    action = Discard(0, absent, 2)
    reasons = game.check(action)
    assert {"not-in-hand", "discard-not-now"} <= set(codes(reasons)), reasons  # not in hand, and no Draw came first
    save = tmp_path / "s.json"
    text = json.dumps(action.to_json())
    result = run_play(["--seed", "0"], [text, f"save {save}", "quit"])
    assert result.code == 0
    reply = result.replies[1]
    lines = reply.splitlines()
    assert lines[0].startswith(f"refused: Discard {catalog.by_id[absent].name} onto Department 2")
    assert lines[1:] == [f"  - {r}" for r in reasons]
    assert replay(save).history == []
    assert replay(save).state_json() == fresh(0).state_json()
    assert from_json(json.loads(text)) == action


BAD_LINES = [
    "abc",
    "0",
    "99",
    "-1",
    "1.5",
    "²",
    "{not json",
    "[1, 2]",
    '{"kind": "fly", "player": 0}',
    '{"kind": "draw"}',
    '{"kind": "draw", "player": 7, "source": "deck"}',
    '{"kind": "draw", "player": 0, "source": "attic"}',
    '{"kind": "spot", "player": 0, "train": "nowhere", "x": 0, "y": 0}',
    '{"kind": "play", "player": 0, "card": "no-such-card"}',
    "[" * 50000,
    "1" * 5000,
    "save",
    "save /no/such/folder/x.json",
    "quit now",
    "frobnicate the points",
]


def test_malformed_input_gets_a_one_line_error_and_the_prompt_again() -> None:
    result = run_play(["--seed", "0"], [*BAD_LINES, "d", "quit"])
    assert result.code == 0
    assert_no_traceback(result)
    replies = result.replies
    for line, reply in zip(BAD_LINES, replies[1:]):
        assert reply.startswith("error: "), (line, reply)
        assert reply.count("\n") == 1, (line, reply)
    # and the game goes on: the next input is still taken
    assert replies[len(BAD_LINES) + 1].startswith("> Draw from the deck")
    assert "there is no choice 99 now: choose " in replies[3]


def test_a_key_that_is_no_choice_now_says_why() -> None:
    """A number given earlier this turn, or a turn step's letter, that the
    rules refuse now: the one-line error says what it was and why."""
    game, held = _session(2, [])
    typed: list[str] = []
    while True:  # to the first turn with a play after a draw
        offered = held.assign(game, game.legal_actions())
        if "d" in offered and any(isinstance(a, Play) for a in offered.values()):
            break
        typed.append(next(iter(offered)))
        game.apply(offered[typed[-1]])
    typed.append("d")
    game.apply(offered["d"])
    offered = held.assign(game, game.legal_actions())
    play_key = next(k for k, a in offered.items() if isinstance(a, Play))
    typed.append(play_key)
    played = offered[play_key]
    game.apply(played)
    offered = held.assign(game, game.legal_actions())
    assert play_key not in offered
    result = run_play(["--seed", "2"], [*typed, play_key, "d", "quit"])
    stale, drawn = result.replies[len(typed) + 1], result.replies[len(typed) + 2]
    assert stale.startswith(f"error: {play_key} is not a choice now: Play ") and " is refused because " in stale and stale.count("\n") == 1, stale
    assert drawn.startswith("error: d is not a choice now: Draw from the deck") and drawn.count("\n") == 1, drawn


def test_an_empty_line_reminds_of_the_commands() -> None:
    result = run_play([], ["", "help", "quit"])
    assert result.replies[1].startswith("(type a key from the list")
    help_text = result.replies[2]
    for documented in (
        "d: draw from the deck",
        "d1, d2, d3: draw from that Department",
        "e: end the turn",
        "h1: hold train 1",
        "r1: stop train 1 where it stands with a Red Flag from your hand",
        "numbers choose plays and moves",
        "keeps its number until the turn ends",
    ):
        assert documented in " ".join(help_text.split()), documented


# -- saving and resuming -----------------------------------------------------------------


def test_save_then_load_resumes_the_identical_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    probe, held, typed = fresh(5), ActionKeys(), []
    for step in range(9):  # a varied, always valid choice at each step
        offered = held.assign(probe, probe.legal_actions())
        choice = list(offered)[step * 7 % len(offered)]
        probe.apply(offered[choice])
        typed.append(choice)
    first = run_play(["--seed", "5", "--save", str(save)], typed)  # stdin ends: saved, exit 0
    assert first.code == 0
    assert "end of input: stopping; the game is saved in" in first.replies[-1]
    saved = replay(save)
    assert len(saved.history) == len(typed)
    expected = _after_keys(5, typed)
    assert saved.state_json() == expected.state_json()

    again = tmp_path / "again.json"
    second = run_play(["--load", str(save)], [f"save {again}", "quit"])
    assert second.code == 0, second.err
    assert second.out.startswith(f"Resumed {save}: {len(typed)} actions replayed.")
    assert render_state(expected, held.assign(expected, expected.legal_actions())) in second.replies[0]
    assert replay(again).state_json() == expected.state_json()
    # the resumed game carries on exactly as the unbroken one would, keys and all
    more = []
    for _ in range(2):
        offered = held.assign(expected, expected.legal_actions())
        more.append(list(offered)[-1])
        expected.apply(offered[more[-1]])
    third = run_play(["--load", str(save), "--save", str(save)], more)
    assert third.code == 0
    assert replay(save).state_json() == expected.state_json()


def test_a_resumed_game_shows_the_keys_the_unbroken_one_would(catalog: Catalog) -> None:
    """Mid-turn, a play keeps the number it had before the save."""
    typed, _ = _first_keys(3)
    for cut in range(1, 40):
        game, held = _session(3, typed[:cut])
        if game.history and not isinstance(game.history[-1], EndTurn):
            again = Game.loads(catalog, game.dumps())
            offered = held.assign(game, game.legal_actions())
            assert ActionKeys.resumed(again).assign(again, again.legal_actions()) == offered


def test_saves_are_written_atomically_and_keep_no_temporary_files(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run_play(["--save", str(save)], ["d", "1", "e"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    assert json.loads(save.read_text())["format"] == "stationmaster-save/2"


def _damaged_saves(tmp_path: Path) -> dict[str, bytes]:
    game = _after(2, [1, 1, 1, 1])
    good = game.dumps()
    data = json.loads(good)
    other = dict(data, content="0" * 64)
    foreign = {"format": "someone-else/2", "moves": []}
    unreplayable = dict(data, actions=[*data["actions"], {"kind": "draw", "player": 0, "source": "deck"}] * 3)
    return {
        "truncated": good[: len(good) // 2].encode(),
        "empty": b"",
        "not json": b"this is not a save\n",
        "foreign": json.dumps(foreign).encode(),
        "other content": json.dumps(other).encode(),
        "not utf-8": b"\xff\xfe\x00garbage",
        "huge number": b"1" * 5000,
        "bad players": json.dumps(dict(data, players="two")).encode(),
        "unreplayable": json.dumps(unreplayable).encode(),
        "a list": b"[]",
    }


@pytest.mark.parametrize(
    "kind",
    ["truncated", "empty", "not json", "foreign", "other content", "not utf-8", "huge number", "bad players", "unreplayable", "a list"],
)
def test_a_damaged_save_is_refused_and_never_overwritten(tmp_path: Path, kind: str) -> None:
    save = tmp_path / "game.json"
    body = _damaged_saves(tmp_path)[kind]
    save.write_bytes(body)
    result = run_play(["--load", str(save), "--save", str(save)], ["1", "1", "quit"])
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1 and result.err.startswith(f"stationmaster play: {save}"), result.err
    assert_no_traceback(result)
    assert save.read_bytes() == body
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_missing_save_file_is_a_usage_error(tmp_path: Path) -> None:
    result = run_play(["--load", str(tmp_path / "nope.json")])
    assert result.code == 2 and "no such save file" in result.err


def test_save_never_overwrites_a_file_that_is_not_a_save(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    result = run_play(["--save", str(notes)], ["1"])
    assert result.code == 2 and "not a Station Master save" in result.err
    assert notes.read_text() == "my notes\n"
    # nor does the save command at the prompt
    result = run_play([], [f"save {notes}", "quit"])
    assert result.code == 0
    assert result.replies[1].startswith("error: could not save to") and result.replies[1].count("\n") == 1
    assert notes.read_text() == "my notes\n"


def test_save_into_a_missing_folder_is_refused_up_front(tmp_path: Path) -> None:
    result = run_play(["--save", str(tmp_path / "no" / "game.json")])
    assert result.code == 2 and "does not exist" in result.err and result.out == ""


def test_load_takes_no_seed_players_or_house_rules(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save.write_text(fresh(1).dumps())
    result = run_play(["--load", str(save), "--seed", "3"])
    assert result.code == 2 and "--seed" in result.err


def test_end_of_input_without_save_exits_quietly() -> None:
    result = run_play([], ["1"])
    assert result.code == 0 and result.err == ""
    assert result.out.rstrip().endswith("end of input: stopping; the game was not saved (use --save FILE or 'save FILE' to keep it)")


# -- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize("assignment", ["nokey", "=depot", "unknownRule=1", "openingDeal=bogus", "discardTimetabled=yes", "startingOffice=", "startingOffice=terminal"])
def test_a_bad_house_rule_is_a_one_line_usage_error(assignment: str) -> None:
    result = run_play(["--house-rule", assignment], ["1"])
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1 and result.err.startswith("stationmaster play: "), result.err
    assert_no_traceback(result)


def test_house_rules_are_played(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    result = run_play(["--house-rule", "startingOffice=whistle-post", "discardTimetabled=true", "--save", str(save)], ["quit"])
    assert result.code == 0, result.err
    assert "District 0 (its Office: Whistle Post)" in result.out
    rules_used = json.loads(save.read_text())["houseRules"]
    assert rules_used["startingOffice"] == "whistle-post" and rules_used["discardTimetabled"] is True


@pytest.mark.parametrize("players", ["0", "99"])
def test_players_out_of_range_is_a_usage_error(players: str) -> None:
    result = run_play(["--players", players])
    assert result.code == 2 and "players must be" in result.err


@pytest.mark.parametrize("argv", [["--seed", "x"], ["--players", "two"], ["--house-rule"], ["--frob"]])
def test_bad_arguments_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        parser().parse_args(["play", *argv])
    assert stopped.value.code == 2


def test_a_missing_content_directory_is_a_usage_error(tmp_path: Path) -> None:
    args = argparse.Namespace(content=str(tmp_path / "nothing"), seed=None, players=None, house_rules=None, load=None, save=None)
    err = io.StringIO()
    assert play.run(args, stdin=io.StringIO(""), stdout=io.StringIO(), stderr=err) == 2
    assert "no such content directory" in err.getvalue()


# -- whole games -----------------------------------------------------------------------


def test_a_whole_solitaire_game_by_always_choosing_the_first_listed(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    typed, expected = _first_keys(11)
    result = run_play(["--seed", "11", "--save", str(save)], typed)
    assert result.code == 0, result.err
    assert_no_traceback(result)
    assert "=== Game over: 3 Days played ===" in result.out
    assert result.out.rstrip().endswith(f"Final scores: district 0: {expected.score()[0]}")
    assert len(result.replies) == len(expected.history) + 1  # one prompt per action, none after the end
    assert replay(save).state_json() == expected.state_json()


def test_two_players_take_turns_at_one_terminal() -> None:
    typed, _ = _first_keys(4, players=2)
    result = run_play(["--players", "2", "--seed", "4"], typed)
    assert result.code == 0 and "=== Game over" in result.out
    assert "error:" not in result.out  # every key landed where it was meant
    assert "player 1 to act" in result.out and "Hand of player 1" in result.out
    assert "Pass the terminal to player 1." in result.out and play.CLEAR in result.out
    assert "Final scores: district 0: " in result.out and "; district 1: " in result.out


def test_the_same_seed_and_input_print_the_same_game() -> None:
    lines = ["1", "3", "?", "2", "bad", "1", "1", "quit"]
    assert run_play(["--seed", "9"], lines) == run_play(["--seed", "9"], lines)


def test_an_engine_failure_is_reported_in_one_line_and_undone(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = rules.perform

    def broken(game: Game, action: object) -> None:
        game.state.hands[0].clear()  # half-done damage that must not survive
        raise RuntimeError("boom")

    monkeypatch.setattr(rules, "perform", broken)
    save = tmp_path / "s.json"
    result = run_play(["--seed", "2"], ["1", f"save {save}", "quit"])
    monkeypatch.setattr(rules, "perform", real)
    assert result.code == 0
    assert result.replies[1].startswith("error: internal error") and result.replies[1].count("\n") == 1
    assert replay(save).state_json() == fresh(2).state_json()


# -- the text view ------------------------------------------------------------------------


def test_every_legal_action_has_its_own_description() -> None:
    for seed in range(4):
        game = fresh(seed, players=1 + seed % 2)
        while not game.is_over():
            actions = game.legal_actions()
            said = [describe_action(game, a) for a in actions]
            assert len(set(said)) == len(said), said
            game.apply(game.random_legal_action())  # type: ignore[arg-type]


_SWITCHING = (Spot, Pull, FlyingSwitch, SortCars, Hold)
_SQUARE_LINE = re.compile(r"^  \((-?\d+), (-?\d+)\) (.*)$")


def _panel_truth(game: Game, offered: dict[str, Action]) -> tuple[bool, bool]:
    """Check the switching panel against the actions offered; whether it
    showed an open square and a refused one."""
    text = render_state(game, offered)
    panel = text[text.index("Switching at your Office") :] if "Switching at your Office" in text else ""
    mine = {t.id for t in game.state.trains if (d := train_district(game, t)) is not None and d.player == game.to_act}
    switching = {k for k, a in offered.items() if isinstance(a, _SWITCHING) and a.train in mine}
    shown = set(re.findall(r"\[(\w+)\]", panel))
    assert shown == switching, (shown, switching, panel)
    seen_open = seen_refused = False
    train = ""
    for line in panel.splitlines():
        header = re.match(r"Switching at your Office: .* \(train (\d+)\)", line)
        if header is not None:
            train = game.state.trains[int(header[1]) - 1].id
            assert train in mine, line
        if line.startswith("  no switching move now: "):
            assert not any(isinstance(a, (Spot, Pull)) and a.train == train for a in offered.values()), panel
            seen_refused = True
        if ": no move there: " in line:
            idle = {(int(x), int(y)) for x, y in re.findall(r"\((-?\d+), (-?\d+)\)", line.split(": no move there")[0])}
            assert idle and not any(isinstance(a, (Spot, Pull)) and a.train == train and (a.x, a.y) in idle for a in offered.values()), line
            seen_refused = True
            continue
        found = _SQUARE_LINE.match(line)
        if found is None:
            continue
        x, y, rest = int(found[1]), int(found[2]), found[3]
        here = {k for k, a in offered.items() if isinstance(a, (Spot, Pull)) and a.train == train and (a.x, a.y) == (x, y)}
        keys = set(re.findall(r"\[(\w+)\]", rest))
        if "no move here" in rest:
            assert not keys and not here, line
            seen_refused = True
            continue
        assert keys == here, (line, here)
        seen_open = True
        for part in rest.split("; "):
            for key in re.findall(r"\[(\w+)\]", part):
                action = offered[key]
                assert isinstance(action, Pull) == ("couple" in part or "take back" in part), (part, action)
    return seen_open, seen_refused


def test_the_switching_panel_offers_exactly_the_moves_listed() -> None:
    """Every key the panel shows is a move offered there, and every move
    offered to a train at the Office is in the panel, under its square."""
    seen_open = seen_refused = False
    for seed in range(30):
        game, held = fresh(seed, players=1 + seed % 2), ActionKeys()
        while not game.is_over():
            offered = held.assign(game, game.legal_actions())
            opened, refused = _panel_truth(game, offered)
            seen_open, seen_refused = seen_open or opened, seen_refused or refused
            game.apply(game.random_legal_action())  # type: ignore[arg-type]
        if seed >= 4 and seen_open and seen_refused:
            break
    assert seen_open and seen_refused


def test_no_switching_panel_once_the_game_is_over() -> None:
    typed, game = _first_keys(0)
    result = run_play(["--seed", "0"], typed)
    closing = result.out[result.out.index("=== Game over") :]
    assert "Switching" not in closing and "Your choices" not in closing
    assert render_final(game) in closing


def test_the_district_grid_marks_rows_columns_and_limits(catalog: Catalog) -> None:
    game = fresh(5)
    while len(game.state.districts[0].squares) < 5 and not game.is_over():
        game.apply(game.random_legal_action())  # type: ignore[arg-type]
    text = render_state(game)
    district = game.state.districts[0]
    assert f"Limits signs stand at columns {district.west_limit} and {district.east_limit}" in text
    header = next(line for line in text.splitlines() if line.strip().startswith(f"x={district.west_limit}"))
    assert f"x={district.east_limit}" in header
    assert any(line.startswith("  y=0 ") and line.endswith("<- Running Track") for line in text.splitlines())
    for where, square in district.squares.items():
        x, y = (int(v) for v in where.split(","))
        assert f"({x}, {y}) {catalog.by_id[square.card].name}" in text
