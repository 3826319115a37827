"""``stationmaster play``'s shared frame (``command.play``), driven in this
process: a save remembers the table and ``--load`` seats it again (or as
``--bots``/``--bot`` say, with a line saying so); Ctrl-C and SIGTERM say
where the game is kept and the command that resumes it, keeping it in a
recovery file that the next game offers when there was no ``--save``; and
the small refusals (a negative seed, one seat, the other game's save)."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import pytest

from command import play
from command.stationmaster import session
from engine.stationmaster.rules.game import Game
from tests.kit.cli import call_cli
from tests.kit.stationmaster import CATALOG
from tests.kit.stationmaster_play import CONTENT, replay, run_play

# A 2-player game, a person and the greedy bot, two actions in (draw, then end).
TWO = ["--players", "2", "--bots", "1", "--seed", "3"]


def _saved(tmp_path: Path) -> Path:
    save = tmp_path / "game.json"
    result = run_play([*TWO, "--save", str(save)], ["d", "e", "quit"])
    assert result.code == 0, result.err
    return save


# -- the table in the save -------------------------------------------------------------------


def test_a_save_records_the_table_and_still_replays_the_same_game(tmp_path: Path) -> None:
    save = _saved(tmp_path)
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["table"] == [None, "greedy"]
    game = replay(save)
    # the table is beside the game, never part of it: the rest is the game's own save
    assert {key: value for key, value in data.items() if key != "table"} == json.loads(game.dumps())
    assert Game.loads(CATALOG, game.dumps()).dumps() == game.dumps()


def test_load_seats_the_saved_table(tmp_path: Path) -> None:
    save = _saved(tmp_path)
    result = run_play(["--load", str(save)], ["quit"])
    assert result.code == 0, result.err
    assert "player 0 (a person), player 1 (greedy bot)" in result.out
    assert "changed the saved table" not in result.out and "a person), player 1 (a person)" not in result.out


@pytest.mark.parametrize(
    ("argv", "now"),
    [
        (["--bots", "0"], "now player 0 (a person), player 1 (a person)."),
        (["--bot", "random"], "now player 0 (a person), player 1 (random bot)."),
        (["--bots", "2", "--bot", "random"], "now player 0 (random bot), player 1 (random bot)."),
    ],
)
def test_bots_given_again_change_the_table_and_say_so(tmp_path: Path, argv: list[str], now: str) -> None:
    save = _saved(tmp_path)
    result = run_play(["--load", str(save), *argv], ["quit"])
    assert result.code == 0, result.err
    said = [line for line in result.out.splitlines() if "changed the saved table" in line]
    assert len(said) == 1 and said[0].endswith(now), result.out[:600]
    assert said[0].startswith(f"{' and '.join(argv[::2])} changed the saved table: it was player 0 (a person), player 1 (greedy bot); ")


def test_a_save_without_a_table_loads_and_says_the_table_was_not_recorded(tmp_path: Path) -> None:
    save = tmp_path / "old.json"
    save.write_text(Game(CATALOG, players=2, seed=3).dumps(), encoding="utf-8")
    result = run_play(["--load", str(save), "--bots", "1"], ["quit"])
    assert result.code == 0, result.err
    assert "The save does not record who sat where (it was made before saves did): seated player 0 (a person), player 1 (greedy bot)." in result.out


@pytest.mark.parametrize(
    ("table", "words"),
    [
        (["greedy"], "the save's table is damaged (it must list, for each of the 2 seats, null for a person or a bot's name)"),
        ([None, 7], "the save's table is damaged"),
        ([None, "oracle"], "the save seats a bot named 'oracle', which Station Master does not have (its bots: random, greedy, paired-8, deep-6)"),
    ],
)
def test_a_bad_table_is_a_one_line_usage_error(tmp_path: Path, table: object, words: str) -> None:
    save = tmp_path / "bad.json"
    save.write_text(json.dumps(dict(Game(CATALOG, players=2, seed=3).save(), table=table)), encoding="utf-8")
    result = run_play(["--load", str(save)], ["quit"])
    assert result.code == 2 and words in result.err and result.err.count("\n") == 1, result.err
    assert result.out == ""


# -- interruptions ---------------------------------------------------------------------------


class Interrupting:
    """A keyboard that types ``lines`` and then Ctrl-C (or sends SIGTERM)."""

    def __init__(self, lines: list[str], term: bool = False) -> None:
        self.lines = list(lines)
        self.term = term

    def readline(self) -> str:
        if self.lines:
            return self.lines.pop(0) + "\n"
        if self.term:
            signal.raise_signal(signal.SIGTERM)
        raise KeyboardInterrupt


def _interrupted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str], lines: list[str], term: bool = False) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", Interrupting(lines, term))
    result = call_cli(["play", "--content", str(CONTENT), *argv], tmp_path)
    return result.code, result.out, result.err


def test_ctrl_c_without_save_keeps_the_game_and_the_next_game_offers_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, private_state: Path) -> None:
    recovery = private_state / "stationmaster" / "recover-stationmaster.json"
    recovery.unlink(missing_ok=True)
    code, out, err = _interrupted(monkeypatch, tmp_path, TWO, ["d"])
    command = f"stationmaster play --content {CONTENT} --load {recovery}"
    assert code == 130 and "Traceback" not in out + err
    assert out.endswith(f"\ninterrupted: the game was not saved with --save, so it was kept in {recovery}; resume it with: {command}\n"), out[-400:]
    assert "stopped by Ctrl-C" in err
    kept = replay(recovery)
    assert len(kept.history) == 1 and json.loads(recovery.read_text(encoding="utf-8"))["table"] == [None, "greedy"]
    # the next new game offers it, and the command resumes it, bot and all
    offered = run_play(["--seed", "5"], ["quit"])
    assert "A game was interrupted on " in offered.out and f", 1 action in; resume it with: {command}\n" in offered.out
    resumed = run_play(["--load", str(recovery)], ["quit"])
    assert resumed.out.startswith(f"Resumed {recovery}: 1 action replayed.") and "player 1 (greedy bot)" in resumed.out
    recovery.unlink()


def test_sigterm_with_save_says_where_it_is_saved(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, out, err = _interrupted(monkeypatch, tmp_path, [*TWO, "--save", str(save)], ["d"], term=True)
    assert code == 143 and "stopped by SIGTERM" in err and "Traceback" not in out + err
    assert out.endswith(f"\ninterrupted: the game is saved in {save}; resume it with: stationmaster play --content {CONTENT} --load {save} --save {save}\n")
    assert len(replay(save).history) == 1


def test_ctrl_c_after_save_file_points_at_that_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    save = tmp_path / "mine.json"
    code, out, _ = _interrupted(monkeypatch, tmp_path, TWO, ["d", f"save {save}"])
    assert code == 130 and out.endswith(f"\ninterrupted: the game is saved in {save}; resume it with: stationmaster play --content {CONTENT} --load {save}\n")


def test_quit_after_save_file_says_the_game_is_saved(tmp_path: Path) -> None:
    save = tmp_path / "mine.json"
    result = run_play(TWO, ["d", f"save {save}", "quit"])
    assert result.out.rstrip().endswith(f"quit: stopping; the game is saved in {save} (resume with --load {save})")
    assert "not saved" not in result.out


# -- small refusals --------------------------------------------------------------------------


def test_a_negative_seed_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        play.main(["--seed", "-5"])
    assert stopped.value.code == 2
    assert "argument --seed: a seed is a whole number from 0 up, not -5" in capsys.readouterr().err


def test_one_seat_is_said_in_the_singular() -> None:
    result = run_play(["--players", "1", "--bots", "2"])
    assert result.code == 2 and "--bots 2: a 1-player game has 1 seat, so from 0 to 1 of them can be bots" in result.err


def test_a_save_of_the_other_game_is_refused_in_one_sentence(tmp_path: Path) -> None:
    from engine.trickoftherails.rules.game import Game as Rails
    from tests.kit.trickoftherails import CATALOG as RAILS

    save = tmp_path / "rails.json"
    save.write_text(Rails(RAILS, 3, 1).dumps(), encoding="utf-8")
    result = run_play(["--load", str(save)])
    assert result.code == 2
    assert result.err == f"stationmaster play: {save}: cannot resume: it is a Trick of the Rails save, not a Station Master one (play it with --game trickoftherails)\n"
    assert session.SAVES.title == "Station Master"


def test_bot_alone_with_a_save_of_people_only_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "people.json"
    save.write_text(json.dumps(dict(Game(CATALOG, players=2, seed=3).save(), table=[None, None])), encoding="utf-8")
    result = run_play(["--load", str(save), "--bot", "random"])
    assert result.code == 2 and "--bot random: nobody in the saved game is a bot; give --bots N too" in result.err


def test_the_recovered_game_played_out_is_offered_no_more(private_state: Path) -> None:
    recovery = play.recovery_file("stationmaster")
    assert recovery is not None and recovery.is_relative_to(private_state)
    recovery.parent.mkdir(parents=True, exist_ok=True)
    recovery.write_text(json.dumps(dict(Game(CATALOG, players=1, seed=3).save(), table=["random"])), encoding="utf-8")
    result = run_play(["--load", str(recovery)])
    assert result.code == 0 and "Game over" in result.out, result.err
    assert not recovery.exists()
    assert "was interrupted" not in run_play(["--seed", "1"], ["quit"]).out


def test_a_refusal_is_wrapped_to_the_terminal_between_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal 60 columns wide the refusal of a key comes back in
    lines of at most 60, never a word cut at the edge."""
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("LINES", "40")
    result = run_play(["--seed", "4"], ["d", "e", "quit"])
    refusal = result.out[result.out.index("error: ") :].split("\nplayer ")[0]
    lines = refusal.splitlines()
    assert len(lines) > 1 and all(len(line) <= 60 for line in lines), refusal
    words = " ".join(refusal.split())
    assert "the hand holds 4 cards and the limit is 3" in words, words
