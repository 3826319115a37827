"""``stationmaster play --bots N``: Station Master with bots at the table,
driven in-process through ``command.play.run`` (or a ``Session`` on a game
set up for the purpose) with StringIO for stdin and stdout. A person and two
bots play to the end, bots alone play themselves the same way twice, bad
seat counts and bot names are one-line usage errors, and in a response
window the terminal is handed to the defending person before their hand is
shown, while a defending bot answers by itself."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import TextIO, cast

import pytest

from command import play
from command.stationmaster import session
from command.stationmaster.textview import ActionKeys
from engine.stationmaster.bots import BOTS, greedy_bot
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Answer, Decline
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import CATALOG, give
from tests.kit.stationmaster_play import CONTENT, Played, parser, replay, run_play
from tests.kit.stationmaster_scenarios import STRIKE, struck_game

# A person's prompt, and the prompt that waits for the terminal to be handed over.
PROMPT = re.compile(r"player (\d+), (choose [^>\n]*|press Enter when only you can see the screen)> ")
HAND = re.compile(r"^Hand of player (\d+) ", re.M)


class FirstChoice:
    """A person at the keyboard who reads the screen: Enter at a hand-over,
    else the first key the prompt offers (the first action listed). Only
    ``readline`` is asked of stdin."""

    def __init__(self, screen: io.StringIO, lines: int = 2000) -> None:
        self.screen = screen
        self.lines = lines  # then the input ends (and a game that never ends cannot hang the test)
        self.typed = 0

    def readline(self) -> str:
        self.typed += 1
        if self.typed > self.lines:
            return ""
        asked = re.search(r"choose ([^>\n]*)> $", self.screen.getvalue()[-300:])
        return "\n" if asked is None else re.split(r", | to | or ", asked.group(1))[0] + "\n"


def run_with_first_choices(argv: list[str], lines: int = 2000) -> Played:
    args = parser().parse_args(["play", "--content", str(CONTENT), *argv])
    out, err = io.StringIO(), io.StringIO()
    code = play.run(args, stdin=cast(TextIO, FirstChoice(out, lines)), stdout=out, stderr=err)
    return Played(code, out.getvalue(), err.getvalue())


def expected_game(players: int, seed: int, people: int) -> Game:
    """The game the engine plays when the first ``people`` seats take the
    first action listed and the rest are greedy bots."""
    game, keys = Game(CATALOG, players=players, seed=seed), ActionKeys()
    while not game.is_over():
        listed = keys.assign(game, game.legal_actions())
        action = next(iter(listed.values())) if game.to_act < people else greedy_bot(game)
        assert action is not None
        game.apply(action)
    return game


# -- whole games -----------------------------------------------------------------------------


def test_one_person_and_two_bots_play_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run_with_first_choices(["--players", "3", "--bots", "2", "--seed", "4", "--save", str(save)])
    assert result.code == 0, result.err
    assert result.err == "" and "Traceback" not in result.out and "error:" not in result.out
    opening = " ".join(result.out.split("\n\n")[0].splitlines())
    assert opening == "Station Master, 3 players, seed 4: player 0 (a person), player 1 (greedy bot), player 2 (greedy bot)."
    game = replay(save)
    assert game.is_over()
    assert game.state_json() == expected_game(3, 4, people=1).state_json()
    assert f"Final scores: district 0: {game.score()[0]}; district 1: {game.score()[1]}; district 2: {game.score()[2]}" in result.out
    # only the person is asked; one person: no hand-over, no cleared screen
    assert {player for player, _ in PROMPT.findall(result.out)} == {"0"}
    assert play.CLEAR not in result.out and "press Enter" not in result.out
    # the bots' actions are told under their names; their hands and draws never shown
    assert "player 1 (greedy bot):\n  > Draw from the deck" in result.out
    assert "player 2 (greedy bot):\n  > " in result.out
    assert set(HAND.findall(result.out)) == {"0"}
    assert re.search(r"player [12] draws ", result.out) is None
    assert "  player 0 draws " in result.out


def test_a_game_of_bots_plays_itself_the_same_way_twice() -> None:
    first = run_play(["--players", "2", "--bots", "2", "--seed", "3"])
    assert first.code == 0, first.err
    assert first.err == "" and PROMPT.search(first.out) is None
    assert "Every seat is a bot: the game plays itself through." in first.out
    assert "Hand of player" not in first.out and play.CLEAR not in first.out
    expected = expected_game(2, 3, people=0)
    assert first.out.rstrip().splitlines()[-3:-1] == ["Game over after 3 Days.", f"Final scores: district 0: {expected.score()[0]}; district 1: {expected.score()[1]}"]
    assert run_play(["--players", "2", "--bots", "2", "--seed", "3"]) == first


def test_a_bot_named_plays_its_seats() -> None:
    result = run_play(["--players", "2", "--bots", "1", "--bot", "random", "--seed", "5"], ["quit"])
    assert result.code == 0, result.err
    assert "player 1 (random bot)" in result.out.split("\n\n")[0]


def test_a_resumed_game_says_again_who_the_bots_are(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    stopped = run_with_first_choices(["--players", "3", "--bots", "2", "--seed", "4", "--save", str(save)], lines=12)
    assert stopped.code == 0 and "end of input: stopping; the game is saved" in stopped.out
    halfway = replay(save)
    assert len(halfway.history) > 12 and halfway.to_act == 0  # the bots took their turns between the person's
    resumed = run_with_first_choices(["--load", str(save), "--bots", "2", "--save", str(save)])
    assert resumed.code == 0, resumed.err
    assert f"Resumed {save}: {len(halfway.history)} actions replayed." in resumed.out
    assert replay(save).is_over() and "Final scores:" in resumed.out


# -- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--players", "3", "--bots", "4"], "--bots 4: a 3-player game has 3 seats, so from 0 to 3 of them can be bots"),
        (["--bots", "-1"], "--bots -1: a 1-player game"),
        (["--players", "2", "--bots", "1", "--bot", "clever"], f"--bot clever: Station Master has no such bot (its bots: {', '.join(BOTS)})"),
        (["--players", "2", "--bot", "random"], "--bot random names the bot for the --bots seats; give --bots N too"),
    ],
)
def test_bad_seats_are_one_line_usage_errors(argv: list[str], words: str) -> None:
    result = run_play(argv, ["1"])
    assert result.code == 2 and result.out == ""
    assert result.err.count("\n") == 1 and result.err.startswith("stationmaster play: ") and words in result.err, result.err


# -- a response window -----------------------------------------------------------------------


def _session_on(game: Game, seated: list[str], lines: list[str]) -> str:
    out = io.StringIO()
    code = session.Session(game, out, None, seated).loop(io.StringIO("".join(line + "\n" for line in lines)))
    assert code == 0
    return out.getvalue()


def test_a_defending_person_is_handed_the_terminal_before_their_hand_is_shown(catalog: Catalog) -> None:
    game = struck_game()  # player 0 holds a Strike aimed at player 1's Grocer's Warehouse
    give(game, "arbitration", player=1)  # and player 1 a defence that answers it
    hands = [list(hand) for hand in game.state.hands]
    strike, decline = json.dumps(STRIKE.to_json()), json.dumps(Decline(1).to_json())
    out = _session_on(game, ["", ""], ["", strike, "", decline, "", "quit"])
    assert [a.kind for a in game.history[-2:]] == ["attack", "decline"] and game.to_act == 0
    stretches = out.split(play.CLEAR)[1:]  # one a hand-over: players 0, 1, then 0 again
    assert [s.splitlines()[2] for s in stretches] == [f"Pass the terminal to player {p}." for p in (0, 1, 0)]
    for at_terminal, stretch in zip((0, 1, 0), stretches):
        assert set(HAND.findall(stretch)) == {str(at_terminal)}, stretch
        # and no card only the other holds stands in a hand listing
        only_theirs = {catalog.by_id[c].name for c in hands[1 - at_terminal]} - {catalog.by_id[c].name for c in hands[at_terminal]}
        assert not [name for name in only_theirs if f"  - {name} " in stretch], stretch
    # the defender is told what is aimed at them, and the attacker what came of it
    assert "Since your last turn:\n  player 0:\n    > Play Strike at " in stretches[1]
    assert "Attack on you: player 0 plays Strike" in stretches[1]
    assert "Since your last turn:\n  you:\n    > Play Strike at " in stretches[2]
    assert "\n  player 1:\n    > Let the Strike stand (no answer)\n      player 1 lets the Strike stand" in stretches[2]
    # nothing of a hand stands before the first hand-over
    assert out.index(play.CLEAR) == 0


def test_a_defending_bot_answers_by_itself() -> None:
    game = struck_game()
    give(game, "arbitration", player=1)
    out = _session_on(game, ["", "greedy"], [json.dumps(STRIKE.to_json()), "quit"])
    assert game.history[-1] == Answer(1, "arbitration")
    assert game.to_act == 0  # the window closed by itself
    assert play.CLEAR not in out and set(HAND.findall(out)) == {"0"}
    assert "player 1 (greedy bot):\n  > Answer the Strike with Arbitration" in out
