"""The bots' skill ladder, proved: each rung against the rung below it, on
the same deals from every seat, with a 95% interval on the difference.

For a matchup "A over B" at N players, deal ``d`` (seed
``game_seed(SEED, d)``) is played N times, A in seat ``s`` and B in every
other seat, for ``s = 0 .. N-1``. A's win share in a game is 1 for a win,
1/k for a win shared by k seats on the top score, 0 for a loss. On one deal
B in every seat shares out exactly 1 over the N seats, so had B sat where A
sat it would have got 1/N on average: the deal's *paired difference* is A's
mean win share over the N seatings less 1/N. The figure is the mean of those
over the deals with a 95% interval (the deals are independent; the
seatings of one deal are not, which is why they are averaged first): the
matchup matrix's own (``engine.sweep.matrix.paired_interval``), so this
bench and the Simulation pages judge a step alike.

Also printed, per rung: CPU seconds a rung spends deciding in one seat of a
game, times N (what a game with the rung in every seat costs), and decisions
per CPU-second. CPU seconds are this process's and its workers'
(``time.process_time`` around each decision), so a busy machine slows the
wall clock, not the figures. Games go through ``engine.sim.pool.play_chunks``
(``--workers``); run it under ``nice``.

Prints figures only; nothing is asserted.
Usage: python bench/ladder.py --game trickoftherails --players 4 --deals 50 [--workers 2] [--rungs random,greedy,...] [--seed S [--seed S2 ...]]

Given several seeds, each gives --deals deals, all of them one sample: the
figure for ``--seed 26 --seed 27 --deals 200`` is the one 400 deals give.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.search.outcome import win_shares
from engine.sim.pool import game_seed, play_chunks
from engine.sweep.matrix import paired_interval

# Each game's ladder and what plays one of its games, named here: a bench
# may name the games it measures.


def _stationmaster() -> tuple[Sequence[str], Callable[[int, int], Any], dict[str, Callable[[Any], Any]]]:
    from engine.stationmaster import load_catalog
    from engine.stationmaster.bots import BOT_FUNCTIONS, LADDER
    from engine.stationmaster.rules.game import Game

    catalog = load_catalog()
    return LADDER, lambda players, seed: Game(catalog, players=players, seed=seed), dict(BOT_FUNCTIONS)


def _trickoftherails() -> tuple[Sequence[str], Callable[[int, int], Any], dict[str, Callable[[Any], Any]]]:
    from engine.trickoftherails import load_catalog
    from engine.trickoftherails.bots import BOT_FUNCTIONS, LADDER
    from engine.trickoftherails.rules.game import Game

    catalog = load_catalog()
    return LADDER, lambda players, seed: Game(catalog, players, seed), dict(BOT_FUNCTIONS)


GAMES = {"stationmaster": _stationmaster, "trickoftherails": _trickoftherails}


@dataclass(frozen=True)
class Matchup:
    """What every game of one matchup needs (a worker inherits it)."""

    new_game: Callable[[int, int], Any]
    bots: dict[str, Callable[[Any], Any]]
    players: int
    seeds: tuple[int, ...]
    deals: int  # a seed
    upper: str
    lower: str


# One game's result: A's win share, then per rung (A, B) CPU seconds and decisions.
Result = tuple[float, float, int, float, int]


def play_one(m: Matchup, index: int) -> Result:
    deal, seat = divmod(index, m.players)
    seed, deal = divmod(deal, m.deals)
    game = m.new_game(m.players, game_seed(m.seeds[seed], deal))
    upper, lower = m.bots[m.upper], m.bots[m.lower]
    cpu = [0.0, 0.0]
    decisions = [0, 0]
    while not game.is_over():
        who = 0 if game.to_act == seat else 1
        start = time.process_time()
        action = (upper if who == 0 else lower)(game)
        cpu[who] += time.process_time() - start
        decisions[who] += 1
        game.apply(action)
    return win_shares(game.score())[seat], cpu[0], decisions[0], cpu[1], decisions[1]


def play_chunk(m: Matchup, start: int, stop: int) -> list[Result]:
    return [play_one(m, i) for i in range(start, stop)]


@dataclass(frozen=True)
class Figures:
    upper: str
    lower: str
    players: int
    deals: int
    share: float  # A's mean win share
    low: float  # the 95% interval on A's win share
    high: float
    cpu: tuple[float, float]  # CPU-s a seat-game, A and B
    rate: tuple[float, float]  # decisions per CPU-second, A and B

    def line(self) -> str:
        fair = 1 / self.players
        difference, low, high = self.share - fair, self.low - fair, self.high - fair
        verdict = "significant" if low > 0 else ("WORSE" if high < 0 else "not significant")
        return (
            f"{self.players}p  {self.upper:>12} over {self.lower:<12} {self.deals * self.players:4d} games ({self.deals} deals x {self.players} seats): "
            f"win share {self.share:.3f} vs fair {fair:.3f}, difference {difference:+.3f} "
            f"[95% {low:+.3f}, {high:+.3f}] {verdict}; "
            f"CPU-s a game with the rung in every seat: {self.upper} {self.cpu[0] * self.players:.3f}, {self.lower} {self.cpu[1] * self.players:.3f}; "
            f"decisions per CPU-s: {self.rate[0]:.0f}, {self.rate[1]:.0f}"
        )


def matchup(game: str, players: int, upper: str, lower: str, deals: int, seeds: Sequence[int], workers: int) -> Figures:
    _ladder, new_game, bots = GAMES[game]()
    m = Matchup(new_game, bots, players, tuple(seeds), deals, upper, lower)
    results: list[Result] = []
    deals *= len(seeds)  # each seed's deals are more deals of the one sample
    play_chunks(play_chunk, m, deals * players, workers, results.extend)
    interval = paired_interval([statistics.fmean(r[0] for r in results[d * players : (d + 1) * players]) for d in range(deals)])
    seat_games = deals * players
    cpu_a = sum(r[1] for r in results) / seat_games
    cpu_b = sum(r[3] for r in results) / (seat_games * (players - 1))
    rate_a = sum(r[2] for r in results) / max(sum(r[1] for r in results), 1e-9)
    rate_b = sum(r[4] for r in results) / max(sum(r[3] for r in results), 1e-9)
    return Figures(upper, lower, players, deals, interval.value, interval.low, interval.high, (cpu_a, cpu_b), (rate_a, rate_b))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--players", type=int, action="append", required=True, help="a player count (again for more)")
    parser.add_argument("--deals", type=int, default=100, help="deals a matchup (each played from every seat)")
    parser.add_argument("--seed", type=int, action="append", help="the deals' seed (again for more deals: --deals of each seed; default 26)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rungs", help="the rungs to climb, lowest first, comma-separated (default: the game's ladder)")
    parser.add_argument("--pairs", help="matchups as UPPER/LOWER, comma-separated, instead of adjacent rungs")
    args = parser.parse_args(argv)
    ladder, _new, _bots = GAMES[args.game]()
    if args.pairs:
        pairs = [tuple(p.split("/", 1)) for p in args.pairs.split(",")]
    else:
        rungs = args.rungs.split(",") if args.rungs else list(ladder)
        pairs = [(rungs[i + 1], rungs[i]) for i in range(len(rungs) - 1)]
    seeds = args.seed or [26]
    print(f"{args.game} ladder, seed {', '.join(map(str, seeds))}, {args.deals * len(seeds)} deals a matchup, workers {args.workers}", flush=True)
    for players in args.players:
        for upper, lower in pairs:
            print(matchup(args.game, players, upper, lower, args.deals, seeds, args.workers).line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
