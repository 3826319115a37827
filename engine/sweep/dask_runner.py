"""A sweep played on Dask distributed: every cell's games cut into chunks,
all of them handed to the cluster at once, each cell merged in game order.

Why the figures cannot depend on the cluster: a chunk is a pure function of
(the pack, its content, the cell, the seed, a range of games), played by the
pack's own ``play_games``, and a cell's chunks are merged by the pack's
``report_games`` in game order, whichever worker or machine played them and
whenever they came back. That is the same report ``simulate`` gives on the
plain pool, so the sweep's output is the same bytes for one worker or fifty.

A worker that dies (killed, out of memory, its machine gone) loses only the
chunks it held: the scheduler hands them to another worker, and a chunk is
only ever merged once, from the one result its future holds, so no game is
missing or counted twice. Dask gives up on a chunk whose workers died more
than ``distributed.scheduler.allowed-failures`` times (3 by default), and
that ends the run as ``ClusterFailed``; the cells merged before it are
already in the cache.

Workers load the content themselves, from the same path, once per process
(``_CATALOGS``), and refuse content whose fingerprint is not the one the
sweep started from. Nothing here is imported unless ``--cluster`` is given,
so a plain sweep neither needs nor starts Dask.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from engine.errors import UsageError
from engine.pack import GamePack
from engine.pool import chunks
from engine.sweep.figures import CellFigures
from engine.sweep.grid import Cell, RuleValue
from engine.sweep.runner import CellProgress, CellRunner

if TYPE_CHECKING:
    from distributed import Client, Future

# How long to wait for a scheduler at an address before saying it cannot be
# reached: long enough for a scheduler across a network, short enough that a
# mistyped address is a prompt error rather than a hang.
CONNECT_SECONDS: Final = 5.0
_ADDRESS = re.compile(r"^(tcp|tls)://[^\s/:]+:[0-9]{1,5}$")


class ClusterFailed(UsageError):
    """The cluster could not finish the sweep (a chunk's workers kept dying,
    or the scheduler went away); the message names the cause."""


@dataclass(frozen=True)
class Chunk:
    """One task: games ``start .. stop-1`` of one cell. Everything a worker
    needs is here, and nothing else decides the result."""

    pack: str
    content: str  # an absolute path, the same on every worker
    fingerprint: str  # the content the sweep started from
    seed: int
    bot: str
    rules: tuple[tuple[str, RuleValue], ...]
    players: int
    start: int
    stop: int


# Each worker process's loaded catalogs, by (pack, content path, fingerprint):
# loading the content takes longer than a chunk of games, so it is done once.
_CATALOGS: dict[tuple[str, str, str], Any] = {}


def _catalog(pack: GamePack, content: str, fingerprint: str) -> Any:
    key = (pack.id, content, fingerprint)
    if key not in _CATALOGS:
        catalog = pack.load_catalog(Path(content))
        if catalog.fingerprint != fingerprint:
            raise UsageError(f"the content under {content} on a worker is not the content the sweep started from")
        _CATALOGS[key] = catalog
    return _CATALOGS[key]


def play_chunk(chunk: Chunk) -> Any:
    """A chunk's result, played on whichever worker runs it."""
    from engine.packs import pack_rules

    pack = pack_rules(chunk.pack)
    catalog = _catalog(pack, chunk.content, chunk.fingerprint)
    return pack.play_games(catalog, chunk.seed, chunk.start, chunk.stop, chunk.bot, dict(chunk.rules), players=chunk.players)


def dask_setup(worker: object) -> None:
    """Run by Dask in each worker process of a LocalCluster as it starts
    (``preload``). Ctrl-C reaches the whole process group: the sweep's own
    process stops the cluster, and a worker that took it as well would print
    a traceback of its own, burying the one line that matters."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _quiet() -> None:
    # Dask logs every worker it loses or restarts at WARNING: the sweep says
    # what matters itself, and the report must not be buried in log lines.
    logging.getLogger("distributed").setLevel(logging.ERROR)


@contextmanager
def cluster_client(cluster: str, workers: int) -> Iterator[Client]:
    """A client of ``cluster``: ``local`` starts a LocalCluster of ``workers``
    processes (one thread each: the games are pure Python) for the run and
    stops it after; ``tcp://HOST:PORT`` connects to a running scheduler.
    UsageError, within CONNECT_SECONDS, for an address that cannot be reached."""
    _quiet()
    from distributed import Client, LocalCluster

    if cluster == "local":
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR, preload=[__name__]) as local:
            with Client(local) as client:
                yield client
        return
    if not _ADDRESS.match(cluster):
        raise UsageError(f"--cluster {cluster!r}: give 'local' or a scheduler address such as tcp://HOST:8786")
    try:
        client = Client(cluster, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"cannot reach a Dask scheduler at {cluster} within {CONNECT_SECONDS:g} s ({type(exc).__name__})") from None
    try:
        try:
            # A scheduler with no worker would hold the chunks forever: say so instead.
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError):
            raise UsageError(f"the Dask scheduler at {cluster} has no worker (start one with: dask worker {cluster})") from None
        yield client
    finally:
        client.close()


def dask_runner(
    pack: GamePack, catalog: Any, games: int, seed: int, content_dir: Path, client: Client, task: Callable[[Chunk], Any] = play_chunk
) -> CellRunner:
    """Cells played on ``client``'s cluster, all at once, each merged in game
    order as soon as its chunks and those of the cells before it are in.
    ``task`` plays a chunk (a test may wrap it)."""
    content = str(content_dir.resolve())

    def run(cells: Sequence[Cell], progress: CellProgress | None) -> Iterator[CellFigures]:
        from distributed import as_completed

        workers = max(1, len(client.scheduler_info().get("workers", {})))
        bounds = chunks(games, workers)
        submitted: list[list[Future[Any]]] = [
            [
                client.submit(task, Chunk(pack.id, content, catalog.fingerprint, seed, cell.bot, cell.rules, cell.players, start, stop), pure=False, retries=0)
                for start, stop in bounds
            ]
            for cell in cells
        ]
        # The chunks seen finished, by cell, keyed by task (with its games):
        # keyed, not counted, since a result held by a worker that died is
        # played again and may be reported finished twice. Only
        # for progress and for knowing when to merge: the games merged are
        # each future's one result, fetched in game order.
        finished: list[dict[Any, int]] = [{} for _ in cells]
        where = {future.key: (position, stop - start) for position, futures in enumerate(submitted) for future, (start, stop) in zip(futures, bounds)}
        following = 0  # the next cell to merge
        try:
            for future in as_completed([future for futures in submitted for future in futures]):
                position, played = where[future.key]
                finished[position][future.key] = played
                while following < len(cells) and len(finished[following]) == len(bounds):
                    yield _merged(pack, catalog, games, seed, cells[following], submitted[following], progress, following)
                    submitted[following] = []  # the cluster may let the results go
                    following += 1
                if progress is not None and following < len(cells):
                    progress(following, sum(finished[following].values()), games)
        finally:
            client.cancel([future for futures in submitted for future in futures])

    return run


def _merged(pack: GamePack, catalog: Any, games: int, seed: int, cell: Cell, futures: list[Future[Any]], progress: CellProgress | None, position: int) -> CellFigures:
    from concurrent.futures import CancelledError

    from distributed.scheduler import KilledWorker

    try:
        results = [future.result() for future in futures]  # in game order
    except KilledWorker:
        raise ClusterFailed(f"the workers playing cell {position + 1} ({cell.label}) kept dying; the cells finished so far are cached") from None
    except CancelledError:
        raise ClusterFailed(f"the cluster dropped cell {position + 1} ({cell.label}) (its scheduler went away?); the cells finished so far are cached") from None
    report = pack.report_games(catalog, games, seed, cell.bot, dict(cell.rules), results, players=cell.players)
    if progress is not None:
        progress(position, games, games)
    return CellFigures.from_report(report)
