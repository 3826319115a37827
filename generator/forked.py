"""Spreading independent pieces of work over the machine's cores.

Rendering and linting a big site break into independent pieces, one per
generated block. With more than one core free they run in forked worker
processes: a fork inherits everything already in memory (the catalog, the
compiled templates, closures), so only a piece's index goes to a worker and
only its result, kept small by the caller, comes back. Results are returned
in the order of the pieces, so the output never depends on how many workers
ran or which finished first. Where fork does not exist, where one core is all
there is, or where the work is too small to repay starting processes, the
pieces run here, one after another, through the same function.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# The job the forked workers run: set just before the pool forks, so each
# worker inherits it, and cleared after.
_JOB: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def cores() -> int:
    """How many cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


# Below this many cards, starting worker processes costs more than it saves.
PARALLEL_ABOVE = 1_000


def workers_for(cards: int) -> int:
    """How many workers rendering or linting the site of ``cards`` cards deserves."""
    return cores() if cards > PARALLEL_ABOVE else 1


def can_fork() -> bool:
    import multiprocessing  # imported only where it is used: most runs never fork

    return "fork" in multiprocessing.get_all_start_methods()


def _worker_start() -> None:
    # The inherited heap is never freed here: keep the collector from walking
    # it (each walk would copy the pages it touches) and from re-scanning the
    # many short-lived objects the work makes.
    gc.freeze()
    gc.disable()


def _run(index: int) -> Any:
    assert _JOB is not None, "a forked worker started without its job"
    function, items = _JOB
    return function(items[index])


def map_pieces(function: Callable[[T], R], items: Sequence[T], workers: int, cost: Callable[[T], int] | None = None) -> list[R]:
    """``[function(item) for item in items]``, over up to ``workers`` processes.

    ``cost`` estimates each piece's size: the largest are handed out first,
    so one big piece started last does not leave the other workers idle.
    """
    workers = min(workers, len(items))
    if workers <= 1 or not can_fork():
        return [function(item) for item in items]
    order = list(range(len(items)))
    if cost is not None:
        order.sort(key=lambda i: -cost(items[i]))
    import multiprocessing

    global _JOB
    _JOB = (function, items)
    try:
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_worker_start)
        try:
            results = pool.map(_run, order, chunksize=1)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
    finally:
        _JOB = None
    ordered: list[Any] = [None] * len(items)
    for index, result in zip(order, results):
        ordered[index] = result
    return ordered
