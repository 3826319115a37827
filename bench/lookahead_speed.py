"""Station Master's lookahead bot: what it costs, and how it does against greedy.

One process, one core, CPU seconds of this process (``time.process_time``).

- Whole 2-player games per CPU-second with every seat played by the random
  bot, by the greedy bot, and by the lookahead bot.
- The lookahead bot against the greedy bot over a fixed set of seeds: in
  2-player games (the lookahead bot in seat 0 and then in seat 1 of the same
  seed, greedy in the other), how often it wins, ties and loses; and in
  solitaire, the same seed played by each, how often its score is higher,
  equal and lower, with both mean scores.

Prints figures only; nothing is asserted.
Usage: python bench/lookahead_speed.py [SEEDS] [CANDIDATES] [DEALS]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.stationmaster import load_catalog
from engine.stationmaster.actions import Action
from engine.stationmaster.bots import greedy_bot, random_bot
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.game import Game
from engine.stationmaster.lookahead import Lookahead, choose

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


def games_per_second(catalog: Catalog, seat: Seat, games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        play(catalog, seed, [seat, seat])
    return games / (time.process_time() - start)


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    plan = Lookahead(*(int(a) for a in sys.argv[2:4])) if len(sys.argv) > 3 else Lookahead()

    def lookahead(game: Game) -> Action | None:
        return choose(game, plan)

    catalog = load_catalog(ROOT / "content" / "stationmaster")
    play(catalog, 0, [greedy_bot])  # warm up: imports, the handler registry
    print(f"Station Master, lookahead bot ({plan.candidates} candidates, {plan.deals} deals each), one core:")
    for name, bot, games in (("random", random_bot, 200), ("greedy", greedy_bot, 20), ("lookahead", lookahead, 2)):
        print(f"  {name:<9} bot, 2 players: {games_per_second(catalog, bot, games):8.3f} games per CPU-second ({games} games)")
    wins = ties = losses = 0
    for seed in range(seeds):
        for seat in (0, 1):
            seats: list[Seat] = [greedy_bot, greedy_bot]
            seats[seat] = lookahead
            scores = play(catalog, seed, seats)
            mine, theirs = scores[seat], scores[1 - seat]
            wins, ties, losses = wins + (mine > theirs), ties + (mine == theirs), losses + (mine < theirs)
    print(f"  2 players, lookahead against greedy over seeds 0..{seeds - 1}, each seat once: {wins} won, {ties} tied, {losses} lost ({wins / (2 * seeds):.0%} won)")
    ahead = level = behind = 0
    mine_scores, greedy_scores = [], []
    for seed in range(seeds):
        mine, = play(catalog, seed, [lookahead])
        theirs, = play(catalog, seed, [greedy_bot])
        mine_scores.append(mine)
        greedy_scores.append(theirs)
        ahead, level, behind = ahead + (mine > theirs), level + (mine == theirs), behind + (mine < theirs)
    print(
        f"  solitaire over seeds 0..{seeds - 1}: lookahead scored more {ahead}, the same {level}, less {behind} times; "
        f"mean {statistics.mean(mine_scores):.2f} against greedy's {statistics.mean(greedy_scores):.2f}"
    )


if __name__ == "__main__":
    main()
