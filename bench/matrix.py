"""The matchup matrix of each pack's ladder, with its intervals, and what it
cost: the same figures a Simulation page shows, at any number of games.

For each pack, its bots' ``LADDER`` (weakest first) plays itself at the
player counts given (Station Master 2, Trick of the Rails 3 and 4 unless
said), GAMES games a seating, seed SEED, through the sweep machinery
(``engine.sweep.matrix``: the cells ``stationmaster sweep --matrix`` plays),
over WORKERS processes; it prints the matrix, the first player's win share
at each rung, and the CPU seconds it took (this process and its children).

Usage: python bench/matrix.py [GAMES] [WORKERS] [SEED] [PACK:N1,N2 ...]
(e.g. ``python bench/matrix.py 200 2 2026 stationmaster:2 trickoftherails:3,4``)
"""

from __future__ import annotations

import importlib
import resource
import sys
from pathlib import Path

from engine.packs import pack_rules
from engine.sweep.matrix import matrix, matrix_grid
from engine.sweep.render import matrix_lines
from engine.sweep.run import sweep
from engine.sweep.runner import pool_runner
from engine.sweep.store import CellStore

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ("stationmaster:2", "trickoftherails:3,4")


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 100
    workers = int(argv[1]) if len(argv) > 1 else 1
    seed = int(argv[2]) if len(argv) > 2 else 2026
    for spec in argv[3:] or DEFAULT:
        pack_id, _, counts = spec.partition(":")
        pack = pack_rules(pack_id)
        ladder: tuple[str, ...] = importlib.import_module(f"engine.{pack_id}.bots").LADDER
        catalog = pack.load_catalog(ROOT / "content" / pack_id)
        grid = matrix_grid(pack, catalog, ladder, tuple(int(n) for n in counts.split(",")))
        before = _cpu()
        result = sweep(pack, catalog, grid, games, seed, CellStore(None, lambda line: None), pool_runner(pack, catalog, games, seed, workers, ROOT / "content" / pack_id))
        spent = _cpu() - before
        played = games * len(grid.cells)
        print(f"{pack.title}: ladder {', '.join(ladder)}; {len(grid.cells)} cells of {games} games ({played:,} games), seed {seed}: {spent:.1f} CPU-s, {played / spent:.1f} games per CPU-s")
        print("\n".join(matrix_lines(matrix(grid, result.figures))))
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
