"""Many seeded games of any pack, played in chunks over worker processes.

Game ``i`` (counted from 0) of a simulation seeded ``seed`` is created with
``game_seed(seed, i)``, so any one game of a report can be replayed alone.
The games are cut into chunks of consecutive games, played by ``workers``
processes and handed back in game order: whatever merges them sees the same
results in the same order for any number of workers, which is what makes a
report a function of its seed alone.

Nothing here knows a game: a pack supplies the function that plays one chunk
and the state that function needs (its catalog, bot, house rules, ...).
"""

from __future__ import annotations

import gc
import math
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

from engine.errors import ConfigurationError, UsageError

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

MAX_GAMES: Final = 100_000
MAX_WORKERS: Final = 64
MAX_SEED: Final = 2**63 - 1
SEED_STRIDE: Final = 1_000_003

S = TypeVar("S")
R = TypeVar("R")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (from 0) of a simulation seeded ``seed``."""
    return seed * SEED_STRIDE + index


def check_whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``, else
    ConfigurationError naming the argument (a bool is not a number here)."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ConfigurationError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def check_run(games: object, seed: object, workers: object) -> None:
    """ConfigurationError unless the three numbers of a simulation are in range."""
    check_whole("games", games, 1, MAX_GAMES)
    check_whole("seed", seed, 0, MAX_SEED)
    check_whole("workers", workers, 1, MAX_WORKERS)


def check_chunk(seed: object, start: int, stop: int) -> None:
    """ConfigurationError unless games ``start .. stop-1`` (a cluster's
    chunk of a simulation seeded ``seed``) are a range of games in range."""
    check_run(max(stop, 1), seed, 1)
    if not 0 <= start <= stop:
        raise ConfigurationError(f"games {start}..{stop} are not a range of games")


def chunks(games: int, workers: int, largest: int = 25) -> list[tuple[int, int]]:
    """Consecutive game ranges: small enough to balance the workers and to
    report progress, large enough that passing results back costs little;
    none longer than ``largest`` games."""
    size = max(1, min(largest, math.ceil(games / (workers * 24))))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def start_method() -> str:
    # fork inherits the catalog (which need not pickle) and starts in
    # milliseconds; where there is no fork, each worker rebuilds its state.
    import multiprocessing

    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


class WorkerDied(UsageError):
    """A worker process ended without handing back its work (killed by the
    out-of-memory killer, ``kill -9``, a crash in native code). The run cannot
    be finished honestly, so it fails; the message names the cause."""


def death_cause(exitcode: int | None) -> str:
    """``a worker process died (...)``, saying why where the exit code tells."""
    if exitcode is None or exitcode == 0:
        return "a worker process died"
    if exitcode > 0:
        return f"a worker process died (it exited with status {exitcode})"
    import signal

    try:
        name = signal.Signals(-exitcode).name
    except ValueError:
        name = "an unknown signal"
    hint = ", often the out-of-memory killer" if -exitcode == signal.SIGKILL else ""
    return f"a worker process died (killed by signal {-exitcode} \N{EM DASH} {name}{hint})"


def _first_death(exitcodes: list[int | None]) -> int | None:
    # When one worker dies the executor stops the others with SIGTERM: the
    # cause is the first worker that ended any other way.
    import signal

    ended = [code for code in exitcodes if code not in (None, 0)]
    return next((code for code in ended if code != -signal.SIGTERM), ended[0] if ended else None)


_PR_SET_PDEATHSIG: Final = 1  # prctl's option: the signal a process gets when its parent dies


def _start_worker(leader: int, initializer: Callable[..., object], initargs: tuple[Any, ...]) -> None:
    """What every worker does first, before the pool's own initializer."""
    import os
    import signal

    # Ctrl-C reaches the whole process group: leave it to the leader, which
    # stops the workers itself (each would print a traceback of its own).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the leader's SIGTERM handler (``command.cli``
    # makes it act as Ctrl-C); the leader stops its workers with SIGTERM,
    # and they must die of it, as the leader's account of deaths expects.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # A leader that dies (the out-of-memory killer picks it as readily as a
    # worker) must not leave its workers running, or waiting forever for
    # tasks: on Linux the kernel kills them with it.
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (ImportError, OSError, AttributeError):  # pragma: no cover - a Python built without ctypes
            pass  # a safeguard only: the pool works without it
    if os.getppid() != leader:  # it died before that could be asked
        os._exit(1)
    initializer(*initargs)


# How often a leader waiting for a result looks whether Ctrl-C was pressed.
_POLL_SECONDS: Final = 0.2


class Workers:
    """A pool's workers, as the leader sees them: tasks in, results out in
    the order of the tasks, whichever worker finished first."""

    def __init__(self, executor: ProcessPoolExecutor) -> None:
        self.executor = executor
        self.interrupted = False  # Ctrl-C was pressed; acted on between waits

    def map(self, function: Callable[[Any], object], items: Iterable[Any]) -> Iterator[Any]:
        from concurrent.futures import TimeoutError as Pending

        futures = [self.executor.submit(function, item) for item in items]
        for future in futures:
            while True:
                if self.interrupted:
                    raise KeyboardInterrupt
                try:
                    result = future.result(timeout=_POLL_SECONDS)
                except Pending:
                    continue
                break
            yield result


@contextmanager
def worker_pool(workers: int, method: str, initializer: Callable[..., object], initargs: tuple[Any, ...] = ()) -> Iterator[Workers]:
    """A process pool that never outlives a failure.

    ``multiprocessing.Pool`` waits forever for a worker that was killed; an
    executor notices (its workers' sentinels) and fails every pending task
    with BrokenProcessPool, which leaves here as WorkerDied naming the cause.
    On any other way out (an exception in a task or in the caller, Ctrl-C)
    the workers are stopped at once, rather than left to play every task
    already queued. Either way every worker is reaped before this returns.

    Ctrl-C is held back while the pool runs and acted on between waits:
    raised at any moment, KeyboardInterrupt can leave one of the executor's
    locks taken (a ``with`` ends by calling Python code, where it may land),
    and the executor's own thread then waits for that lock forever.
    """
    import multiprocessing
    import os
    import signal
    import threading
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method), initializer=_start_worker, initargs=(os.getpid(), initializer, initargs))
    pool = Workers(executor)
    # Only the main thread may set a handler; a handler of the caller's own is left alone.
    held = threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if held:
        signal.signal(signal.SIGINT, lambda signum, frame: setattr(pool, "interrupted", True))
    try:
        try:
            yield pool
        except BaseException as exc:
            # The executor keeps its processes only in a private mapping (a
            # public way to stop them arrives in Python 3.14); read it while
            # it is still there: shutdown() drops it.
            processes = list((getattr(pool.executor, "_processes", None) or {}).values())
            if not isinstance(exc, BrokenProcessPool):
                for process in processes:
                    if process.exitcode is None:
                        process.terminate()
            pool.executor.shutdown(wait=True, cancel_futures=True)  # joins every worker
            if isinstance(exc, BrokenProcessPool):
                raise WorkerDied(death_cause(_first_death([p.exitcode for p in processes]))) from None
            raise
        pool.executor.shutdown(wait=True)
    finally:
        if held:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    if pool.interrupted:
        raise KeyboardInterrupt  # pressed after the last result came in


# What one worker process plays with, set once by its initializer.
_WORKER: dict[str, Any] = {}


def _init_worker(play_chunk: Callable[[Any, int, int], Any], state: object, load_state: Callable[[], object] | None) -> None:
    # Everything inherited from the parent is long-lived: keep the collector
    # from walking it (which would copy every page it touches, after a fork).
    gc.freeze()
    if load_state is not None:
        state = load_state()
    _WORKER.update(play=play_chunk, state=state)


def _worker_chunk(bounds: tuple[int, int]) -> object:
    return _WORKER["play"](_WORKER["state"], bounds[0], bounds[1])


def play_chunks(
    play_chunk: Callable[[S, int, int], R],
    state: S,
    games: int,
    workers: int,
    merge: Callable[[R], None],
    *,
    load_state: Callable[[], S] | None = None,
) -> None:
    """Play games ``0 .. games-1`` as ``play_chunk(state, start, stop)`` calls
    and pass each chunk's result to ``merge``, in game order.

    With one worker every game is its own chunk, played here. With more, the
    chunks go to that many processes: forked ones inherit ``state``; where a
    platform cannot fork, each worker calls ``load_state()`` instead (it and
    ``play_chunk`` must then pickle), and UsageError if there is none.
    WorkerDied, within moments, if a worker process is killed.
    """
    workers = min(workers, games)
    if workers == 1:
        for index in range(games):
            merge(play_chunk(state, index, index + 1))
        return
    method = start_method()
    if method != "fork" and load_state is None:
        raise UsageError("this platform cannot fork: give content_dir so each worker can load the content")
    initargs = (play_chunk, state, None) if method == "fork" else (play_chunk, None, load_state)
    with worker_pool(workers, method, _init_worker, initargs) as pool:
        # Results come back in the order of the chunks, whichever worker
        # finished first: the merge is the same for any pool size.
        for result in pool.map(_worker_chunk, chunks(games, workers)):
            merge(cast(R, result))  # _worker_chunk returns what play_chunk does
