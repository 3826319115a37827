"""Random legal solitaire play: actions per second and whole games per second.

One process, one core. The bot picks uniformly among the legal actions
(Game.random_legal_action: proposals drawn at random and checked until one
is legal) from the game's bot stream; the figures include that checking.
Each figure is the median of 5 runs, timed in CPU seconds of this process
(``time.process_time``), so a machine busy with other work slows the wall
clock but not the figure. Prints figures only; nothing is asserted.

Measured on the shared 2-core machine, 200 games a run (issue 13, part 4):
before the engine fast path about 28,500 actions per CPU-second, after it
about 44,800 (1.57x); counted in machine instructions (valgrind), which no
other load moves, 276,000 per action before and 154,000 after (1.79x). The
fast path: ``apply`` does not judge again an action the game has just
proposed and judged (``engine.proven``), proposals are built only when a
pick draws them (``engine.stationmaster.rules.proposals.Proposals``), a pick asks
only whether a proposal is refused, and what recurs from one position to the
next (a card's places, the deck a setup deals) is kept.

A second round (issue 13, part 4), measured the same way, alternating runs
of the code before it and after it (three of each, the median of those
medians): before about 48,700 actions per CPU-second, after about 54,400
(1.12x); in machine instructions
(valgrind, games 1 to 120 less game 0, so the start-up is left out, hash
seed fixed) 162,500 per action before and 140,500 after (1.16x). What it
changed: a bot's draw from the stream skips ``randrange``'s checks of its
arguments (``SeededStream.below``), judging and carrying out an
action look its kind up in a table, a hand within the printed limit is
within its limit at once, a verdict on a Play asks about the hand once,
making up a train asks once per kind of car whether it may take it and
takes the very car out of the yard, a refused proposal's place holds the
index of the one moved into it (nothing is built just to be moved), and
where a train can reach in a district is kept while the district's squares
are as they were.
Usage: python bench/engine_speed.py [GAMES]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from engine.stationmaster import load_catalog
from engine.stationmaster.rules.game import Game

ROOT = Path(__file__).resolve().parent.parent


def play(catalog: object, seed: int) -> int:
    game = Game(catalog, players=1, seed=seed)  # type: ignore[arg-type]
    actions = 0
    while not game.is_over():
        action = game.random_legal_action()
        assert action is not None, "no legal action in a game that is not over"
        game.apply(action)
        actions += 1
    return actions


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    catalog = load_catalog(ROOT / "content" / "stationmaster")
    rates, game_rates, lengths = [], [], []
    for run in range(5):
        start = time.process_time()
        total = 0
        for seed in range(run * games, (run + 1) * games):
            n = play(catalog, seed)
            total += n
            lengths.append(n)
        seconds = time.process_time() - start
        rates.append(total / seconds)
        game_rates.append(games / seconds)
    print(f"random legal solitaire play, {games} games a run, median of 5 runs (CPU seconds):")
    print(f"  {statistics.median(rates):,.0f} actions per CPU-second")
    print(f"  {statistics.median(game_rates):,.1f} games per CPU-second")
    print(f"  {statistics.mean(lengths):,.0f} actions per game on average")


if __name__ == "__main__":
    main()
