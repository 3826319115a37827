"""A whole sweep: each cell's figures from the cache or from the runner,
then the differences from the baseline (none for a matchup matrix, whose
cells are compared with each other instead: ``engine.sweep.matrix``).

Every cell plays the same ``games`` games seeded ``seed`` (game ``i`` seeded
as ``engine.sim.pool.game_seed`` says), so the cells are compared on common
random numbers and the result is a function of the arguments, the content
and the engine code alone: cached or played, in one run or resumed, with any
number of workers, it is the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import UsageError
from engine.pack import AnyPack
from engine.sweep.differences import Difference, comparisons, judge
from engine.sweep.figures import CellFigures
from engine.sweep.grid import Grid
from engine.sweep.matrix import is_matrix
from engine.sweep.runner import CellProgress, CellRunner
from engine.sweep.store import CellStore, cell_key

# Told (cells finished, cells in all, games done in the cell being played,
# games a cell) as the sweep goes; cells from the cache count as finished.
SweepProgress = Callable[[int, int, int, int], None]


@dataclass(frozen=True)
class SweepResult:
    game: str
    title: str
    games: int
    seed: int
    grid: Grid
    figures: tuple[CellFigures, ...]  # in grid order
    differences: tuple[Difference, ...]
    cached: int  # cells read from the cache (not part of the output: it must not change it)
    measure: tuple[str, str] | None = None  # the pack's own measure (SweepMeasure): its title and what it is
    comparisons: int = 0  # comparisons with the baseline made, what the Bonferroni correction divides by


def engine_fingerprint(pack_id: str) -> str:
    """A digest of the code that plays a pack's games: the shared engine and
    that pack's rules (``engine.sources``)."""
    from engine.sources import pack_code_digest

    return pack_code_digest(pack_id).hex()


def sweep(
    pack: AnyPack,
    catalog: Any,
    grid: Grid,
    games: int,
    seed: int,
    store: CellStore,
    runner: CellRunner,
    progress: SweepProgress | None = None,
    *,
    engine_code: str | None = None,
) -> SweepResult:
    """Every cell of ``grid``: from ``store`` where it holds the cell, else
    played by ``runner`` (only the missing cells, in grid order) and stored
    the moment it is done, so a sweep stopped part-way loses one cell at most."""
    code = engine_fingerprint(pack.id) if engine_code is None else engine_code
    keys = [cell_key(pack.id, cell, games, seed, catalog.fingerprint, code) for cell in grid.cells]
    found: dict[int, CellFigures] = {}
    for index, key in enumerate(keys):
        cached = store.load(key, games, grid.cells[index].players)
        if cached is not None:
            found[index] = cached
    missing = [index for index in range(len(keys)) if index not in found]
    outdated = store.outdated([keys[index] for index in missing])
    if outdated:
        store.note(
            f"{outdated} of the {len(missing)} cell(s) to play {'was' if outdated == 1 else 'were'} cached from other content or engine code; "
            "playing afresh (the old entries stay until the cache folder is deleted)"
        )
    cached_count = len(found)
    total = len(keys)
    told: CellProgress | None = None
    if progress is not None:
        report = progress
        report(cached_count, total, 0, games)

        def told(position: int, done: int, of: int) -> None:
            report(cached_count + position + (done == of), total, done, of)

    for index, figures in zip(missing, runner([grid.cells[i] for i in missing], told)):
        # Checked as a cached cell is: figures that do not add up (a worker
        # elsewhere on a cluster, say) are never kept nor reported.
        wrong = figures.inconsistency(games, grid.cells[index].players)
        if wrong is not None:
            raise UsageError(f"the cell {grid.cells[index].label} came back with figures that do not add up ({wrong}); it was not kept, and no report was written")
        store.save(keys[index], figures)
        found[index] = figures
    if len(found) != len(keys):
        raise RuntimeError("the cell runner handed back fewer cells than it was given")
    ordered = tuple(found[index] for index in range(len(keys)))
    base_cell, base = grid.cells[grid.baseline], ordered[grid.baseline]
    measure = pack.sweep_measure
    differences: tuple[Difference, ...] = ()
    count = 0
    if not is_matrix(grid):
        # Every comparison of the sweep is counted before any is judged: the
        # Bonferroni correction divides by all of them.
        pending = [
            comparisons(index, cell, figures, base_cell, base, "mean" if measure is None else measure.short) for index, (cell, figures) in enumerate(zip(grid.cells, ordered)) if index != grid.baseline
        ]
        count = sum(map(len, pending))
        differences = tuple(d for found in pending for d in judge(found, count))
    return SweepResult(pack.id, pack.title, games, seed, grid, ordered, differences, cached_count, None if measure is None else (measure.title, measure.what), count)
