"""Station Master with a rival: what a 2-player game costs, and how the
lookahead bot does against the greedy bot.

One process, one core, CPU seconds of this process (``time.process_time``),
so a busy machine slows the wall clock but not the figures.

- Whole 2-player games per CPU-second with the random bot in both seats:
  the median of RUNS runs of GAMES games, each run on fresh seeds.
- The same with the lookahead bot in both seats. It plays out copies of the
  game at every choice, some tens of seconds a game, so the default is a
  couple of games in one run: a rough figure, and the line says so.
- The lookahead bot against the greedy bot over seeds 0..SEEDS-1: each seed
  is played twice, lookahead in seat 0 and then in seat 1, which cancels the
  first seat's advantage. Wins, ties and losses, and the mean margin (the
  lookahead bot's score less greedy's, over every game).

Prints figures only; nothing is asserted.
Usage: python bench/two_player.py [--random-games N] [--runs R] [--lookahead-games N] [--seeds N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.stationmaster import load_catalog
from engine.stationmaster.bots import greedy_bot, lookahead_bot, random_bot
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


@dataclass(frozen=True)
class HeadToHead:
    """One bot against another over seeds, each seed played from both seats."""

    wins: int
    ties: int
    losses: int
    margins: tuple[int, ...]  # per game: the first bot's score less the other's

    @property
    def games(self) -> int:
        return len(self.margins)

    def summary(self) -> str:
        return f"{self.wins} won, {self.ties} tied, {self.losses} lost of {self.games} games ({self.wins / self.games:.0%} won); mean margin {statistics.mean(self.margins):+.2f} points"


def head_to_head(catalog: Catalog, mine: Seat, theirs: Seat, seeds: int) -> HeadToHead:
    """``mine`` against ``theirs`` over seeds 0..seeds-1, in seat 0 and then seat 1 of each."""
    margins = []
    for seed in range(seeds):
        for seat in (0, 1):
            seats = [theirs, theirs]
            seats[seat] = mine
            scores = play(catalog, seed, seats)
            margins.append(scores[seat] - scores[1 - seat])
    return HeadToHead(sum(m > 0 for m in margins), sum(m == 0 for m in margins), sum(m < 0 for m in margins), tuple(margins))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--random-games", type=int, default=200, metavar="N", help="random-bot games a run (default 200)")
    parser.add_argument("--runs", type=int, default=5, metavar="R", help="runs of the random bot, the median printed (default 5)")
    parser.add_argument("--lookahead-games", type=int, default=2, metavar="N", help="lookahead-bot games, one run (default 2; 0 skips)")
    parser.add_argument("--seeds", type=int, default=10, metavar="N", help="seeds of lookahead against greedy, each played from both seats (default 10; 0 skips)")
    args = parser.parse_args()
    catalog = load_catalog(ROOT / "content" / "stationmaster")
    play(catalog, 0, [greedy_bot, greedy_bot])  # warm up: imports, the handler registry
    print("Station Master, 2 players, one core:")
    rate = games_per_second(catalog, random_bot, args.random_games, args.runs)
    print(f"  random bot in both seats:    {rate:9.2f} games per CPU-second (median of {args.runs} runs of {args.random_games} games)")
    if args.lookahead_games:
        rate = games_per_second(catalog, lookahead_bot, args.lookahead_games)
        print(f"  lookahead bot in both seats: {rate:9.4f} games per CPU-second, {1 / rate:.0f} CPU-seconds a game ({args.lookahead_games} games, one run: rough, the bot is slow)")
    if args.seeds:
        start = time.process_time()
        result = head_to_head(catalog, lookahead_bot, greedy_bot, args.seeds)
        seconds = time.process_time() - start
        print(f"  lookahead against greedy over seeds 0..{args.seeds - 1}, each from seat 0 and seat 1: {result.summary()} ({seconds:.0f} CPU-seconds)")


if __name__ == "__main__":
    main()
