"""The simulation runner's speed: random-bot solitaire games through
``engine.stationmaster.sim.simulate.simulate`` with one worker process and with two.

Each figure is the median of several runs of GAMES games (a different seed per
run); a run's time includes starting and stopping its worker pool and merging
the per-card tallies. Target: two workers within 10% of twice one worker's
games per second (on a machine with at least two idle cores).
Usage: python bench/simulate_speed.py [GAMES] [RUNS]
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from pathlib import Path

from engine.pack import SimulationRequest
from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.sim.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def _cpu() -> float:
    """CPU seconds of this process and of its finished (joined) children."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(catalog: Catalog, games: int, runs: int, workers: int) -> tuple[float, float, float, float]:
    """Median actions per second, median games per second, mean actions per
    game, median CPU milliseconds per game (all processes: shows what the
    pool costs even on a machine too busy for the wall clock to say)."""
    action_rates, game_rates, lengths, cpu = [], [], [], []
    for run in range(runs):
        start, cpu_start = time.perf_counter(), _cpu()
        report = simulate(catalog, SimulationRequest(games, seed=run, workers=workers, bot="random"))
        seconds = time.perf_counter() - start
        cpu.append(1000 * (_cpu() - cpu_start) / games)
        actions = sum(report.actions.values)
        action_rates.append(actions / seconds)
        game_rates.append(games / seconds)
        lengths.append(actions / games)
    return statistics.median(action_rates), statistics.median(game_rates), statistics.mean(lengths), statistics.median(cpu)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    catalog = load_catalog(ROOT / "content" / "stationmaster")
    simulate(catalog, SimulationRequest(4, seed=0, workers=2))  # warm up: imports, handler registry, first fork
    print(f"simulate, random bot, {games} games a run, median of {runs} runs ({os.cpu_count()} CPUs):")
    figures = {}
    for workers in (1, 2):
        actions, per_second, length, cpu = measure(catalog, games, runs, workers)
        figures[workers] = per_second
        print(f"  --workers {workers}: {actions:,.0f} actions per second, {per_second:,.1f} games per second, {length:,.1f} actions per game on average, {cpu:.2f} CPU ms per game")
    ratio = figures[2] / figures[1]
    verdict = "met" if ratio >= 1.8 else "NOT met"
    print(f"  two workers / one worker: {ratio:.2f}x (target 1.80x or better: {verdict})")
    print(f"  load average over the last minute: {os.getloadavg()[0]:.2f} (the target assumes two idle cores)")


if __name__ == "__main__":
    main()
