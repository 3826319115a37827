"""The sweep's own cost: games per CPU-second through ``engine.sweep`` (grid,
cache keys, the engine fingerprint, figures, differences, text) against plain
``simulate`` calls playing the very same games, and the CPU time of a re-run
that finds every cell in the cache.

CPU time (this process and its joined children, from ``getrusage``) rather
than wall time: steadier on a shared machine. Each figure is the median of
RUNS runs. The grid is Station Master's startingOffice (two values) x 1 and
2 players, random bot, one worker: four cells of GAMES games.
Usage: python bench/sweep_speed.py [GAMES] [RUNS]
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
from pathlib import Path

from engine.packs import pack_rules
from engine.sweep.grid import build_grid
from engine.sweep.render import to_text
from engine.sweep.run import sweep
from engine.sweep.runner import pool_runner
from engine.sweep.store import CellStore

ROOT = Path(__file__).resolve().parent.parent
RULES = ["startingOffice=depot,whistle-post"]
PLAYERS = [1, 2]


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(ROOT / "content" / "stationmaster")
    grid = build_grid(pack, catalog, RULES, PLAYERS, ["random"])
    total = games * len(grid.cells)
    plain, swept, cached = [], [], []
    for run in range(runs):
        start = _cpu()
        for cell in grid.cells:
            pack.simulate(catalog, games, run, 1, cell.bot, dict(cell.rules), players=cell.players)
        plain.append(_cpu() - start)
        with tempfile.TemporaryDirectory() as folder:
            store = CellStore(Path(folder), print)
            start = _cpu()
            to_text(sweep(pack, catalog, grid, games, run, store, pool_runner(pack, catalog, games, run, 1, None)))
            swept.append(_cpu() - start)
            start = _cpu()
            to_text(sweep(pack, catalog, grid, games, run, store, pool_runner(pack, catalog, games, run, 1, None)))
            cached.append(_cpu() - start)
    p, s, c = statistics.median(plain), statistics.median(swept), statistics.median(cached)
    print(f"sweep of {len(grid.cells)} cells x {games} games (startingOffice x players 1,2, random bot, 1 worker), median of {runs} runs, CPU seconds:")
    print(f"  plain simulate, cell by cell: {p:.3f} s, {total / p:,.0f} games per CPU-second")
    print(f"  through the sweep (cache written): {s:.3f} s, {total / s:,.0f} games per CPU-second ({100 * (s - p) / p:+.1f}% against plain)")
    print(f"  re-run, every cell from the cache: {c:.3f} s ({1000 * c / len(grid.cells):.1f} ms a cell)")


if __name__ == "__main__":
    main()
