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
import pickle
import traceback
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from engine.sim.pool import worker_pool

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


class WorkerError(RuntimeError):
    """A piece failed in a worker with an exception that cannot travel back
    as itself; the message carries its type, text and traceback."""


def _run(index: int) -> tuple[bool, Any]:
    """(True, result) or (False, the failure): an exception never crosses the
    process boundary raw, since one that cannot be rebuilt here (a custom
    signature) would otherwise be lost on the way back."""
    assert _JOB is not None, "a forked worker started without its job"
    function, items = _JOB
    try:
        return True, function(items[index])
    except BaseException as exc:  # noqa: BLE001 - handed back to the parent, which raises it
        text = "".join(traceback.format_exception(exc))
        try:
            pickle.loads(pickle.dumps(exc))
            return False, (exc, text)
        except Exception:  # noqa: BLE001 - cannot travel as itself
            return False, (WorkerError(f"piece {index} failed in a worker:\n{text}"), text)


def map_pieces(function: Callable[[T], R], items: Sequence[T], workers: int, cost: Callable[[T], int] | None = None) -> list[R]:
    """``[function(item) for item in items]``, over up to ``workers`` processes.

    ``cost`` estimates each piece's size: the largest are handed out first,
    so one big piece started last does not leave the other workers idle.
    When pieces fail, the exception of the first failing piece (in the order
    of ``items``) is raised, whatever order the workers finished in; a worker
    that dies outright (killed, out of memory) fails the map at once with
    ``engine.sim.pool.WorkerDied``, naming the cause, rather than hanging.
    """
    workers = min(workers, len(items))
    if workers <= 1 or not can_fork():
        return [function(item) for item in items]
    order = list(range(len(items)))
    if cost is not None:
        order.sort(key=lambda i: -cost(items[i]))
    global _JOB
    _JOB = (function, items)
    try:
        with worker_pool(workers, "fork", _worker_start) as pool:
            outcomes = list(pool.map(_run, order))
    finally:
        _JOB = None
    ordered: list[tuple[bool, Any]] = [(True, None)] * len(items)
    for index, outcome in zip(order, outcomes):
        ordered[index] = outcome
    for ok, value in ordered:
        if not ok:
            failure, text = value
            if not isinstance(failure, WorkerError):
                failure.add_note(f"raised in a worker:\n{text}")
            raise failure
    return [value for _, value in ordered]
