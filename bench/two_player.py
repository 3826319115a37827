"""Station Master with a rival: what a 2-player game costs.

One process, one core, CPU seconds of this process (``time.process_time``),
so a busy machine slows the wall clock but not the figures: whole 2-player
games per CPU-second with the random bot and with the greedy bot in both
seats, the median of RUNS runs of GAMES games, each run on fresh seeds.
How the bots fare against each other is ``bench/ladder.py``'s.

Prints figures only; nothing is asserted.
Usage: python bench/two_player.py [--random-games N] [--runs R]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.stationmaster import load_catalog
from engine.stationmaster.bots import greedy_bot, random_bot
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Action
from engine.stationmaster.rules.game import Game

ROOT = Path(__file__).resolve().parent.parent
Seat = Callable[[Game], "Action | None"]


def play(catalog: Catalog, seed: int, seats: Sequence[Seat]) -> list[int]:
    """One whole game, seat i played by ``seats[i]``; the scores."""
    game = Game(catalog, players=len(seats), seed=seed)
    while not game.is_over():
        action = seats[game.to_act](game)
        assert action is not None, "no legal action in a game that is not over"
        game.apply(action)
    return game.score()


def games_per_second(catalog: Catalog, seat: Seat, games: int, runs: int = 1, players: int = 2) -> float:
    """Median whole games per CPU-second, ``seat`` in every seat; run r plays seeds r*games ..."""
    rates = []
    for run in range(runs):
        start = time.process_time()
        for seed in range(run * games, (run + 1) * games):
            play(catalog, seed, [seat] * players)
        rates.append(games / (time.process_time() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--random-games", type=int, default=200, metavar="N", help="random-bot games a run (default 200)")
    parser.add_argument("--runs", type=int, default=5, metavar="R", help="runs of the random bot, the median printed (default 5)")
    args = parser.parse_args()
    catalog = load_catalog(ROOT / "content" / "stationmaster")
    play(catalog, 0, [greedy_bot, greedy_bot])  # warm up: imports, the handler registry
    print("Station Master, 2 players, one core:")
    rate = games_per_second(catalog, random_bot, args.random_games, args.runs)
    print(f"  random bot in both seats:    {rate:9.2f} games per CPU-second (median of {args.runs} runs of {args.random_games} games)")
    rate = games_per_second(catalog, greedy_bot, max(1, args.random_games // 10), args.runs)
    print(f"  greedy bot in both seats:    {rate:9.2f} games per CPU-second (median of {args.runs} runs of {max(1, args.random_games // 10)} games)")


if __name__ == "__main__":
    main()
