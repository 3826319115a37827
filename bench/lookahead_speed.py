"""Station Master's lookahead bot: what it costs, and how it does against greedy.

One process, one core, CPU seconds of this process (``time.process_time``).

- Whole 2-player games per CPU-second with every seat played by the random
  bot, by the greedy bot, and by the lookahead bot.
- The lookahead bot against the greedy bot over a fixed set of seeds: in
  2-player games (the lookahead bot in seat 0 and then in seat 1 of the same
  seed, greedy in the other), how often it wins, ties and loses; and in
  solitaire, the same seed played by each, how often its score is higher,
  equal and lower, with both mean scores.

The 2-player games are played and counted by ``two_player.py`` (which
measures the default plan with medians and margins); this script varies the
plan. Prints figures only; nothing is asserted.
Usage: python bench/lookahead_speed.py [SEEDS] [CANDIDATES] [DEALS]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from engine.stationmaster import load_catalog
from engine.stationmaster.bots import greedy_bot, random_bot
from engine.stationmaster.bots.lookahead import Lookahead, choose
from engine.stationmaster.rules.actions import Action
from engine.stationmaster.rules.game import Game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from two_player import games_per_second, head_to_head, play  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


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
    result = head_to_head(catalog, lookahead, greedy_bot, seeds)
    print(f"  2 players, lookahead against greedy over seeds 0..{seeds - 1}, each seat once: {result.summary()}")
    ahead = level = behind = 0
    mine_scores, greedy_scores = [], []
    for seed in range(seeds):
        (mine,) = play(catalog, seed, [lookahead])
        (theirs,) = play(catalog, seed, [greedy_bot])
        mine_scores.append(mine)
        greedy_scores.append(theirs)
        ahead, level, behind = ahead + (mine > theirs), level + (mine == theirs), behind + (mine < theirs)
    print(
        f"  solitaire over seeds 0..{seeds - 1}: lookahead scored more {ahead}, the same {level}, less {behind} times; "
        f"mean {statistics.mean(mine_scores):.2f} against greedy's {statistics.mean(greedy_scores):.2f}"
    )


if __name__ == "__main__":
    main()
