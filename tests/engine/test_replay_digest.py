"""300 seeded bot games, both packs, every player count a golden playthrough
covers, folded into one digest of their actions and final scores.

A game is a pure function of its seed and its actions, and every bot draws
its picks from the game's seeded stream (``engine.rng``). The digest pins
all of that at once: a change to how the stream draws (say, the way
``SeededStream.below`` turns random bits into a number), to a bot or to a
rule moves some game's actions and so the digest. The golden playthroughs
show *what* changed in six games; this says *whether* anything did, over
three hundred. The expected digest was recorded before ``below`` stopped
calling CPython's private ``Random._randbelow``, and holds after it.

Should a change be meant to alter play, the failure prints the new digest
to put in ``EXPECTED``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence

import pytest

from engine.stationmaster import load_catalog as load_station_master
from engine.stationmaster.bots import BOT_FUNCTIONS as STATION_MASTER_BOTS
from engine.stationmaster.rules.game import Game as StationMasterGame
from engine.trickoftherails import load_catalog as load_trick_of_the_rails
from engine.trickoftherails.bots import BOT_FUNCTIONS as TRICK_OF_THE_RAILS_BOTS
from engine.trickoftherails.rules.game import Game as TrickOfTheRailsGame

# Some 14 CPU-seconds of play: more than the quick loop (`make test-fast`) can spare.
pytestmark = pytest.mark.sim

EXPECTED = "6cc683a521e5a673bc82e8a6b99790f65a2b548f6922381cec34bfb285eb0706"

GAMES_PER_COUNT = 50  # 3 player counts a pack, 2 packs: 300 games


def seatings(players: int) -> Iterator[tuple[str, ...]]:
    """A bot a seat, game after game: all random, all greedy, then greedy
    and random by turns, so both bots' draws and their mix are pinned."""
    while True:
        yield ("random",) * players
        yield ("greedy",) * players
        yield tuple("greedy" if seat % 2 == 0 else "random" for seat in range(players))


def station_master_games() -> Iterator[tuple[str, list[object], list[int]]]:
    catalog = load_station_master()
    for players in (1, 2, 3):
        for seed, bots in zip(range(GAMES_PER_COUNT), seatings(players)):
            game = StationMasterGame(catalog, players=players, seed=seed)
            choose = [STATION_MASTER_BOTS[name] for name in bots]
            while not game.is_over():
                action = choose[game.to_act](game)
                assert action is not None, f"seed {seed}, {players} players: no legal action in a game not over"
                game.apply(action)
            yield f"stationmaster {players} {seed} {' '.join(bots)}", [a.to_json() for a in game.history], game.score()


def trick_of_the_rails_games() -> Iterator[tuple[str, list[object], list[int]]]:
    catalog = load_trick_of_the_rails()
    for players in (3, 4, 5):
        for seed, bots in zip(range(GAMES_PER_COUNT), seatings(players)):
            game = TrickOfTheRailsGame(catalog, players, seed)
            choose = [TRICK_OF_THE_RAILS_BOTS[name] for name in bots]
            while not game.is_over():
                actor = game.to_act
                assert actor is not None
                game.apply(choose[actor](game))
            yield f"trickoftherails {players} {seed} {' '.join(bots)}", [a.to_json() for a in game.history], game.score()


def digest(games: Sequence[Callable[[], Iterator[tuple[str, list[object], list[int]]]]]) -> tuple[str, int]:
    """The sha256 of every game's name, actions and scores, one JSON line a
    game, in order; and how many games went in."""
    hashed = hashlib.sha256()
    count = 0
    for play in games:
        for name, actions, scores in play():
            hashed.update(json.dumps([name, actions, scores], sort_keys=True).encode() + b"\n")
            count += 1
    return hashed.hexdigest(), count


def test_three_hundred_seeded_games_play_as_they_always_have() -> None:
    found, count = digest([station_master_games, trick_of_the_rails_games])
    assert count == 300
    assert found == EXPECTED, f"the 300 seeded games played differently: their digest is now {found}"
