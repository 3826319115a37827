"""What plays a sweep's cells: a ``CellRunner`` takes the cells to play and
yields each one's figures, in the order given.

The interface is this small on purpose: the plain process pool here plays
the cells one after another, each over ``workers`` processes
(``engine.sim.pool`` through the pack's own ``simulate``); a cluster backend
(Dask, Ray) that plays many cells at once can take its place without the
rest of the sweep knowing. Whatever plays them, a cell's figures must be a
function of the cell, the games and the seed alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from engine.pack import AnyPack
from engine.sweep.figures import CellFigures
from engine.sweep.grid import Cell

# Told (position among the cells given, games done, games in the cell) as the games go.
CellProgress = Callable[[int, int, int], None]


class CellRunner(Protocol):
    def __call__(self, cells: Sequence[Cell], progress: CellProgress | None) -> Iterator[CellFigures]: ...


def pool_runner(pack: AnyPack, catalog: Any, games: int, seed: int, workers: int, content_dir: Path | None) -> CellRunner:
    """Cells played one at a time on the process pool, each ``games``
    games seeded ``seed`` (the same games in every cell: common random
    numbers, so a difference between cells is the configuration's)."""

    def run(cells: Sequence[Cell], progress: CellProgress | None) -> Iterator[CellFigures]:
        for position, cell in enumerate(cells):
            told = None if progress is None else _told(progress, position)
            report = pack.simulator.simulate(catalog, cell.request(games, seed, workers, content_dir), told)
            yield CellFigures.from_report(report, pack.sweep_measure, cell.players)

    return run


def _told(progress: CellProgress, position: int) -> Callable[[int, int], None]:
    return lambda done, total: progress(position, done, total)
