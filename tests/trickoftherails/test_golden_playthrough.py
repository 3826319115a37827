"""Trick of the Rails' golden playthroughs: one seeded game for each number
of players it is played by (3, 4 and 5), greedy and random bots by turns,
recorded action by action in ``golden/`` (``tests/kit/playthrough.py`` says
how). Any change to a rule, a bot, the deal or the seeded stream moves one
of them; ``make goldens`` records them again when the change is meant."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.trickoftherails import load_catalog
from engine.trickoftherails.bots import BOT_FUNCTIONS
from engine.trickoftherails.rules.game import Game
from tests.kit.playthrough import Step, hold_to_golden, transcript

GOLDEN = Path(__file__).parent / "golden"
SEED = 2


def seats(players: int) -> tuple[str, ...]:
    return tuple("greedy" if seat % 2 == 0 else "random" for seat in range(players))


def steps(game: Game, bots: tuple[str, ...]) -> Iterator[Step]:
    choose = [BOT_FUNCTIONS[name] for name in bots]
    while not game.is_over():
        actor = game.to_act
        assert actor is not None, f"nobody is to act after {len(game.history)} actions, and the game is not over"
        action = choose[actor](game)
        game.apply(action)
        yield action.to_json(), json.loads(game.state_json())


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_seeded_game_plays_as_recorded(players: int) -> None:
    bots = seats(players)
    game = Game(load_catalog(), players, SEED)
    title = f"Trick of the Rails, {players} players, seed {SEED}, bots by seat: {', '.join(bots)}"
    text = transcript(title, json.loads(game.state_json()), steps(game, bots), game.score)
    hold_to_golden(GOLDEN / f"{players}-players.txt", text)
