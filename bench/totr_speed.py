"""Trick of the Rails: whole games per CPU-second at 3, 4 and 5 players.

One process, one core. Each figure is the median of RUNS runs of GAMES games
(a fresh seed per game), timed in CPU seconds of this process
(``time.process_time``), so a busy machine slows the wall clock but not the
figure. The random bot picks uniformly among the legal actions
(``Game.random_legal_action``); the greedy bot's line says what
``stationmaster simulate --game trickoftherails --bot greedy`` costs.
Prints figures only; nothing is asserted.
Usage: python bench/totr_speed.py [GAMES] [RUNS]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from engine.trickoftherails import load_catalog
from engine.trickoftherails.bots import BOT_FUNCTIONS
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.game import Game

ROOT = Path(__file__).resolve().parent.parent


def play(catalog: Catalog, players: int, seed: int, bot: str) -> int:
    """One whole game; the number of actions it took."""
    choose = BOT_FUNCTIONS[bot]
    game = Game(catalog, players, seed)
    actions = 0
    while not game.is_over():
        game.apply(choose(game))
        actions += 1
    return actions


def measure(catalog: Catalog, players: int, bot: str, games: int, runs: int) -> tuple[float, float, float]:
    """Median games and actions per CPU-second, and actions per game."""
    game_rates, action_rates, lengths = [], [], []
    for run in range(runs):
        start = time.process_time()
        actions = sum(play(catalog, players, run * games + i, bot) for i in range(games))
        seconds = time.process_time() - start
        game_rates.append(games / seconds)
        action_rates.append(actions / seconds)
        lengths.append(actions / games)
    return statistics.median(game_rates), statistics.median(action_rates), statistics.mean(lengths)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    catalog = load_catalog(ROOT / "content" / "trickoftherails")
    play(catalog, 3, 0, "greedy")  # warm up: imports, the handler registry
    print(f"Trick of the Rails, whole games on one core, median of {runs} runs:")
    for bot, count in (("random", games), ("greedy", max(1, games // 10))):
        for players in (3, 4, 5):
            per_second, actions, length = measure(catalog, players, bot, count, runs)
            print(f"  {bot:<6} bot, {players} players: {per_second:8,.1f} games per CPU-second ({actions:,.0f} actions per CPU-second, {length:.1f} actions a game; {count} games a run)")


if __name__ == "__main__":
    main()
