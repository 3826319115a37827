"""``stationmaster play``: the terminal game, driven in-process through
``command.play.run`` with StringIO for stdin and stdout."""

from __future__ import annotations

import argparse
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import pytest

from engine_kit import codes

from command import play
from engine.stationmaster import rules
from engine.stationmaster.actions import Discard, Draw, from_json
from engine.stationmaster import load_catalog
from engine.stationmaster.game import Game
from engine.stationmaster.switching import switch_view, train_district
from engine.stationmaster.textview import describe_action, render_state

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content" / "stationmaster"
CATALOG = load_catalog(CONTENT)
PROMPT = re.compile(r"player \d+, action 1-\d+> ")


class Played(NamedTuple):
    code: int
    out: str
    err: str

    @property
    def replies(self) -> list[str]:
        """The output split at each prompt: [0] is the opening table, [i] what
        input line i brought (the last also holds the closing note)."""
        return PROMPT.split(self.out)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="stationmaster")
    play.add_parser(top.add_subparsers(dest="command", required=True))
    return top


def run_play(argv: list[str], lines: Sequence[str] = ()) -> Played:
    args = parser().parse_args(["play", "--content", str(CONTENT), *argv])
    out, err = io.StringIO(), io.StringIO()
    code = play.run(args, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out, stderr=err)
    return Played(code, out.getvalue(), err.getvalue())


def replay(path: Path) -> Game:
    return Game.loads(CATALOG, path.read_text(encoding="utf-8"))


def fresh(seed: int, players: int = 1) -> Game:
    return Game(CATALOG, players=players, seed=seed)


def assert_no_traceback(result: Played) -> None:
    assert "Traceback" not in result.out + result.err


# -- playing -------------------------------------------------------------------------


def test_numbered_actions_then_quit(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run_play(["--seed", "2", "--save", str(save)], ["1", "1", "2", "quit"])
    assert result.code == 0, result.err
    assert result.err == ""
    assert_no_traceback(result)
    # seed 2 opens with a Heavy Grade to set: action 1 sets it climbing east
    replies = result.replies
    assert "Setup" in replies[0] and "1. Set the grade at Heavy Grade" in replies[0]
    assert replies[1].startswith("> Set the grade at Heavy Grade [1] to climb eastward")
    assert replies[2].startswith("> Draw from the deck")
    assert "quit: stopping; the game is saved in" in replies[-1]
    expected = fresh(2)
    for choice in (1, 1, 2):
        expected.apply(expected.legal_actions()[choice - 1])
    assert replay(save).state_json() == expected.state_json()


def test_each_view_shows_the_table() -> None:
    result = run_play(["--seed", "5"], ["1", "?", "quit"])
    opening = result.replies[0]
    for part in ("Day 1 of 3, Stage 1 of 12", "player 0 to act", "Mainline, west to east:", "[0] West Division Point", "Office of district 0", "District 0 (Depot); Limits at columns -1 and 1", "<- Running Track", "|W Limits", "E Limits|", "Hand of player 0", "Departments (top cards):", "Timetable", "12: -", "Scores: district 0: 0", "Legal actions", "1. Draw from the deck"):
        assert part in opening, part
    # ? prints the same table again, unchanged
    assert result.replies[2].startswith("=== Day 1 of 3, Stage 1 of 12")
    assert render_state(_after(5, [1])) in result.replies[2]


def _after(seed: int, choices: list[int]) -> Game:
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


def test_a_refused_json_action_prints_every_reason_and_changes_nothing(tmp_path: Path) -> None:
    game = fresh(0)
    absent = next(c.id for c in CATALOG.cards if c.family == "track" and c.id not in game.state.hands[0])
    action = Discard(0, absent, 2)
    reasons = game.check(action)
    assert {"not-in-hand", "discard-not-now"} <= set(codes(reasons)), reasons  # not in hand, and no Draw came first
    save = tmp_path / "s.json"
    text = json.dumps(action.to_json())
    result = run_play(["--seed", "0"], [text, f"save {save}", "quit"])
    assert result.code == 0
    reply = result.replies[1]
    lines = reply.splitlines()
    assert lines[0].startswith(f"refused: Discard {CATALOG.by_id[absent].name} onto Department 2")
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
    result = run_play(["--seed", "0"], [*BAD_LINES, "1", "quit"])
    assert result.code == 0
    assert_no_traceback(result)
    replies = result.replies
    for line, reply in zip(BAD_LINES, replies[1:]):
        assert reply.startswith("error: "), (line, reply)
        assert reply.count("\n") == 1, (line, reply)
    # and the game goes on: the next input is still taken
    assert replies[len(BAD_LINES) + 1].startswith("> Draw from the deck")


def test_an_empty_line_reminds_of_the_commands() -> None:
    result = run_play([], ["", "help", "quit"])
    assert result.replies[1].startswith("(type an action's number")
    assert result.replies[2].startswith("(type an action's number")


# -- saving and resuming -----------------------------------------------------------------


def test_save_then_load_resumes_the_identical_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    probe, choices = fresh(5), []
    for step in range(9):  # a varied, always valid choice at each step
        choice = step * 7 % len(probe.legal_actions()) + 1
        probe.apply(probe.legal_actions()[choice - 1])
        choices.append(str(choice))
    first = run_play(["--seed", "5", "--save", str(save)], choices)  # stdin ends: saved, exit 0
    assert first.code == 0
    assert "end of input: stopping; the game is saved in" in first.replies[-1]
    saved = replay(save)
    assert len(saved.history) == len(choices)
    expected = _after(5, [int(c) for c in choices])
    assert saved.state_json() == expected.state_json()

    again = tmp_path / "again.json"
    second = run_play(["--load", str(save)], [f"save {again}", "quit"])
    assert second.code == 0, second.err
    assert second.out.startswith(f"Resumed {save}: {len(choices)} actions replayed.")
    assert render_state(expected) in second.replies[0]
    assert replay(again).state_json() == expected.state_json()
    # the resumed game carries on exactly as the unbroken one would
    third = run_play(["--load", str(save), "--save", str(save)], ["1", "1"])
    assert third.code == 0
    for _ in range(2):
        expected.apply(expected.legal_actions()[0])
    assert replay(save).state_json() == expected.state_json()


def test_saves_are_written_atomically_and_keep_no_temporary_files(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run_play(["--save", str(save)], ["1", "1", "1"])
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
    assert "District 0 (Whistle Post)" in result.out
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


def test_a_whole_solitaire_game_by_always_choosing_1(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run_play(["--seed", "11", "--save", str(save)], ["1"] * 1000)
    assert result.code == 0, result.err
    assert_no_traceback(result)
    expected = fresh(11)
    while not expected.is_over():
        expected.apply(expected.legal_actions()[0])
    assert "=== Game over: 3 Days played ===" in result.out
    assert result.out.rstrip().endswith(f"Final scores: district 0: {expected.score()[0]}")
    assert len(result.replies) == len(expected.history) + 1  # one prompt per action, none after the end
    assert replay(save).state_json() == expected.state_json()


def test_two_players_take_turns_at_one_terminal() -> None:
    result = run_play(["--players", "2", "--seed", "4"], ["1"] * 2000)
    assert result.code == 0
    assert "player 1 to act" in result.out and "Hand of player 1" in result.out
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


def test_the_switch_view_names_reachable_and_blocked_squares() -> None:
    seen_open = seen_blocked = False
    for seed in range(60):
        game = fresh(seed)
        while not game.is_over() and not (seen_open and seen_blocked):
            for train in game.state.trains:
                district = train_district(game, train)
                view = switch_view(game, train)
                if district is None or district.player != game.to_act or not view:
                    continue
                text = render_state(game)
                assert f"Switching at your Office: {CATALOG.by_id[train.card].name} ({train.id})" in text
                for where, why in view.items():
                    x, y = (int(v) for v in where.split(","))
                    if why is None:
                        assert re.search(rf"\({x}, {y}\) .*: may run here", text)
                        seen_open = True
                    else:
                        assert f"blocked: {why}" in text or f"blocked for coupling: {why}" in text
                        seen_blocked = True
            game.apply(game.random_legal_action())  # type: ignore[arg-type]
        if seen_open and seen_blocked:
            break
    assert seen_open and seen_blocked


def test_the_district_grid_marks_rows_columns_and_limits() -> None:
    game = fresh(5)
    while len(game.state.districts[0].squares) < 5 and not game.is_over():
        game.apply(game.random_legal_action())  # type: ignore[arg-type]
    text = render_state(game)
    district = game.state.districts[0]
    assert f"Limits at columns {district.west_limit} and {district.east_limit}" in text
    header = next(line for line in text.splitlines() if line.strip().startswith(f"x={district.west_limit}"))
    assert f"x={district.east_limit}" in header
    assert any(line.startswith("  y=0 ") and line.endswith("<- Running Track") for line in text.splitlines())
    for where, square in district.squares.items():
        x, y = (int(v) for v in where.split(","))
        assert f"({x}, {y}) {CATALOG.by_id[square.card].name}" in text
