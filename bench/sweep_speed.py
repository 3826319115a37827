"""The sweep's own cost: games per CPU-second through ``engine.sweep`` (grid,
cache keys, the engine fingerprint, figures, differences, text) against plain
``simulate`` calls playing the very same games, and the CPU time of a re-run
that finds every cell in the cache.

CPU time (this process and its joined children, from ``getrusage``) rather
than wall time: steadier on a shared machine. Each figure is the median of
RUNS runs. The grid is Station Master's startingOffice (two values) x 1 and
2 players, random bot, one worker: four cells of GAMES games.

Then the same grid through Dask distributed (``--cluster local``, engine/
sweep/dask_runner.py) against the plain pool, each with 1 and 2 worker
processes, at DASK_GAMES games a cell (10,000 games in all): games per
CPU-second of every process (this one, which also runs the LocalCluster's
scheduler, plus the pool's or the cluster's worker and nanny processes,
read with psutil before the cluster stops: they are grandchildren, which
``RUSAGE_CHILDREN`` may not see) and games per wall-second, cluster start-up
included, since a sweep pays for it. Every run's output is checked to be the
same bytes as the first.
Usage: python bench/sweep_speed.py [GAMES] [RUNS] [DASK_GAMES] [DASK_RUNS]
(DASK_GAMES 0 skips the Dask part)
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
            pack.simulator.simulate(catalog, cell.request(games, run))
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
    dask_games = int(sys.argv[3]) if len(sys.argv) > 3 else 2500
    dask_runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    if dask_games > 0:
        _dask_against_pool(pack, catalog, grid, dask_games, dask_runs)


def _descendants_cpu() -> float:
    import psutil  # type: ignore[import-untyped]  # comes with Dask distributed, without stubs

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:  # ended meanwhile: counted by RUSAGE_CHILDREN once reaped
            continue
        total += times.user + times.system
    return total


def _own_cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def _measure(play: Callable[[], str]) -> tuple[float, float, str]:
    """(CPU seconds of every process, wall seconds, the output) of one sweep."""
    cpu, wall = _cpu(), time.perf_counter()
    out = play()
    return _cpu() - cpu, time.perf_counter() - wall, out


def _dask_against_pool(pack: Any, catalog: Any, grid: Any, games: int, runs: int) -> None:
    from engine.sweep.dask_runner import cluster_client, dask_runner

    content = ROOT / "content" / "stationmaster"
    total = games * len(grid.cells)
    seed = 1

    def pool(workers: int) -> str:
        return to_text(sweep(pack, catalog, grid, games, seed, CellStore(None, print), pool_runner(pack, catalog, games, seed, workers, content)))

    def dask(workers: int) -> tuple[float, float, str]:
        # The cluster's processes are measured while they still exist; this
        # process's own time (the scheduler runs here) from getrusage.
        own, wall = _own_cpu(), time.perf_counter()
        with cluster_client("local", workers) as client:
            out = to_text(sweep(pack, catalog, grid, games, seed, CellStore(None, print), dask_runner(pack, catalog, games, seed, client)))
            cpu = _own_cpu() - own + _descendants_cpu()
        return cpu, time.perf_counter() - wall, out

    print(f"\nDask distributed against the plain pool: {len(grid.cells)} cells x {games} games = {total:,} games, random bot, median of {runs} runs")
    print("(CPU seconds of every process, cluster start-up included)")
    reference: str | None = None
    ways: list[tuple[str, Callable[[], tuple[float, float, str]]]] = [
        ("plain pool, 1 worker", lambda: _measure(lambda: pool(1))),
        ("plain pool, 2 workers", lambda: _measure(lambda: pool(2))),
        ("Dask LocalCluster, 1 worker", lambda: dask(1)),
        ("Dask LocalCluster, 2 workers", lambda: dask(2)),
    ]
    for name, measure in ways:
        cpus, walls = [], []
        for _ in range(runs):
            cpu, wall, out = measure()
            reference = out if reference is None else reference
            if out != reference:
                raise SystemExit(f"{name}: the output differs from the first run's")
            cpus.append(cpu)
            walls.append(wall)
        cpu, wall = statistics.median(cpus), statistics.median(walls)
        print(f"  {name:<30} {cpu:7.2f} CPU-s {total / cpu:8,.0f} games/CPU-s   {wall:7.2f} wall-s {total / wall:8,.0f} games/wall-s")


if __name__ == "__main__":
    main()
