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

The content travels with the work: the catalog the sweep loaded, pickled
once (a few tens of kilobytes), is a task of its own that every chunk
depends on; one worker runs it and the others fetch its result from a peer,
each unpickling it once (``_CATALOGS``). A worker on another machine needs
the kit installed but not the designer's files, and plays exactly the cards
the sweep started from, edited a second ago or not. Being a task (its bytes
kept in the scheduler's task list) rather than data scattered to workers,
it is run again if every worker holding it dies. A worker also refuses to
play on code other than the sweep's (the same engine fingerprint that keys
the cache): figures from another version of the rules would mix in without
a trace. Nothing here is imported unless ``--cluster`` is given, so a plain
sweep neither needs nor starts Dask.

What comes back is trusted far less than what goes out: a worker hands
back its chunk as plain values, which the pack checks before merging
(``chunk_to_plain`` and ``chunk_from_plain``), and while the sweep is joined
to a scheduler by address, Dask reads nothing from its peers but plain data
and a few exception classes (``engine.sweep.unpickling``). Every wait on
the cluster is bounded: the first greeting (``_probe``), each look at it
while no chunk finishes (``_look``), each result; a fault is one line.

Why Dask and not Ray: Dask distributed installs as pure-Python wheels, a
LocalCluster of processes starts in a couple of seconds with no daemon and
works on a 2-core machine, and the same client code reaches a real cluster
by its address. Ray's runtime is far heavier to install and to start. On
one machine the plain pool stays the default all the same: a LocalCluster
costs CPU to start and to keep awake (``bench/sweep_speed.py`` measures
both ways, start-up included).
"""

from __future__ import annotations

import logging
import pickle
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from engine.errors import UsageError
from engine.pack import AnyPack, SimulationRequest
from engine.sim.pool import chunks
from engine.sweep.figures import CellFigures
from engine.sweep.grid import Cell
from engine.sweep.runner import CellProgress, CellRunner

if TYPE_CHECKING:
    from distributed import Client, Future


@dataclass(frozen=True)
class Patience:
    """How long a sweep waits on a cluster before it gives up, in seconds.

    ``connect``: for a scheduler at an address to answer, and for it to have
    a worker: long enough for a scheduler across a network, short enough
    that a mistyped address is a prompt error rather than a hang.
    ``workerless``: mid-run, for a worker once none is left: a worker
    restarted by its nanny is back within a few seconds; a cluster with none
    for longer has lost them, and the chunks would wait for ever.
    ``sweep --patience`` sets both (a far cluster may need longer)."""

    connect: float = 5.0
    workerless: float = 6.0


_ADDRESS = re.compile(r"^(tcp|tls)://[^\s/:]+:[0-9]{1,5}$")

# What a LocalCluster started for a sweep turns down. Out of the box, Dask
# samples each worker's stack every 10 ms for its dashboard's profile, and
# the scheduler, the nannies and the workers each wake every 20 ms to time
# their event loops, every 500 ms to read the system's figures and every
# 100 ms to balance work between workers: measured idle (bench/dask_idle.py),
# that costs about 4% of a CPU in the sweep's own process and 4% in every
# worker, taken from the games. A sweep shows no dashboard, and its chunks
# are alike, independent and handed out by the scheduler's queue as workers
# come free, so nothing needs stealing. The nanny still checks the worker's
# memory, once a second instead of ten times. A cluster given by address
# runs on its own configuration; site/kit/cluster.md says what to set there.
QUIET_CLUSTER: Final[dict[str, object]] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "10s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing": False,
}

# A worker that dies can leave a peer dialling its old address: the
# connection is refused and retried until the connect timeout, 30 s by
# default, while the run waits. Every process of a local cluster is on this
# machine, so a connection that takes more than a few seconds never comes.
LOCAL_ONLY: Final[dict[str, object]] = {"distributed.comm.timeouts.connect": "5s"}


class ClusterFailed(UsageError):
    """The cluster could not finish the sweep (a chunk's workers kept dying,
    or the scheduler went away); the message names the cause."""


@dataclass(frozen=True)
class Chunk:
    """One task: games ``start .. stop-1`` of one cell. Everything a worker
    needs is here, and nothing else decides the result."""

    pack: str
    code: str  # the engine fingerprint the sweep runs on (engine.sweep.run)
    fingerprint: str  # the content the sweep started from (its catalog comes beside the chunk)
    request: SimulationRequest  # the cell's simulation, of which this is a part
    start: int
    stop: int


# Each worker process's catalogs, by (pack, content fingerprint): a long-
# lived worker serving sweep after sweep of edited content keeps the last few.
_CATALOGS: dict[tuple[str, str], Any] = {}
_KEEP = 4


# A chunk task is given the chunk and its content's catalog, pickled.
ChunkTask = Callable[[Chunk, bytes], Any]

# Games in a chunk at most: a chunk costs the scheduler and the worker a
# millisecond or two whatever its size, and a few hundred milliseconds of
# play keeps that under one part in a hundred while still showing progress
# several times a second.
LARGEST_CHUNK: Final = 100


def packed(catalog: Any) -> bytes:
    """``catalog`` as the bytes the chunks are given."""
    import engine.content.readonly  # noqa: F401  # teaches pickle the catalog's read-only mappings

    return pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL)


def _carried(catalog: bytes) -> bytes:
    """The task that holds the pickled catalog on the cluster."""
    return catalog


def _catalog(pack: AnyPack, chunk: Chunk, carried: bytes) -> Any:
    key = (chunk.pack, chunk.fingerprint)
    if key not in _CATALOGS:
        from engine.sweep.run import engine_fingerprint

        if engine_fingerprint(pack.id) != chunk.code:
            raise UsageError(f"a worker ({_where()}) runs other code of the kit than the sweep does: install the same version on every worker")
        catalog = pickle.loads(carried)
        if getattr(catalog, "fingerprint", None) != chunk.fingerprint:
            raise UsageError("a chunk's catalog is not the content the sweep started from")
        if len(_CATALOGS) >= _KEEP:
            _CATALOGS.pop(next(iter(_CATALOGS)))
        _CATALOGS[key] = catalog
    return _CATALOGS[key]


def _where() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return "outside a cluster"


def play_chunk(chunk: Chunk, catalog: bytes) -> Any:
    """A chunk's result as plain values, played on whichever worker runs it;
    ``catalog`` is the content's catalog, pickled (``packed``)."""
    from engine.packs import pack_rules

    pack = pack_rules(chunk.pack)
    played = pack.simulator.play_games(_catalog(pack, chunk, catalog), chunk.request, chunk.start, chunk.stop)
    # Plain values only: the sweep reads nothing back but data (engine.sim.plain).
    return pack.simulator.chunk_to_plain(played)


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
    # Dask logs every worker it loses or restarts, and every message it
    # cannot read, and asyncio and tornado each failed background task: the
    # sweep says what matters itself, in one line, and the report must not
    # be buried in log lines or tracebacks.
    # A record a child logger lets through reaches its parents' handlers
    # whatever their level, so every logger and handler of the three is set.
    import distributed  # noqa: F401  # installs its handlers, to be quietened here

    silent = logging.CRITICAL + 1
    for name, logger in [("", None), *logging.root.manager.loggerDict.items()]:
        if name.split(".")[0] in ("distributed", "asyncio", "tornado") and isinstance(logger, logging.Logger):
            logger.setLevel(silent)
            for handler in logger.handlers:
                handler.setLevel(silent)


@contextmanager
def cluster_client(cluster: str, workers: int, settings: Mapping[str, object] = QUIET_CLUSTER, patience: Patience = Patience()) -> Iterator[Client]:
    """A client of ``cluster``: ``local`` starts a LocalCluster of ``workers``
    processes (one thread each: the games are pure Python) for the run and
    stops it after, under Dask configuration ``settings``;
    ``tcp://HOST:PORT`` or ``tls://HOST:PORT`` connects to a running
    scheduler, and for as long as it is connected, reads nothing from it
    but plain data (``engine.sweep.unpickling``).
    UsageError, within ``patience.connect``, for an address where no Dask
    scheduler answers, or one with no worker."""
    _quiet()
    import dask.config
    from distributed import Client, LocalCluster

    if cluster == "local":
        with (
            dask.config.set({**settings, **LOCAL_ONLY}),
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR, preload=[__name__]) as local,
        ):
            with Client(local) as client:
                yield client
        return
    if not _ADDRESS.match(cluster):
        raise UsageError(f"--cluster {cluster!r}: give 'local' or a scheduler address such as tcp://HOST:8786")
    from engine.sweep.unpickling import restricted

    security = _security(cluster)
    with restricted():  # from the first byte read: the probe's greeting may hold a pickle too
        _probe(cluster, security, patience.connect)
        try:
            client = Client(cluster, timeout=patience.connect, security=security)
        except Exception as exc:  # whatever the peer sent, the cause fits in one line
            raise UsageError(f"cannot reach a Dask scheduler at {cluster} within {patience.connect:g} s ({type(exc).__name__})") from None
        try:
            try:
                # A scheduler with no worker would hold the chunks forever: say so instead.
                client.wait_for_workers(1, timeout=patience.connect)
            except Exception:
                raise UsageError(f"the Dask scheduler at {cluster} has no worker (start one with: dask worker {cluster})") from None
            yield client
        finally:
            try:
                client.close(timeout=patience.connect)
            except Exception:
                pass  # a scheduler already gone: there is nothing to close politely


def _security(cluster: str) -> Any:
    """Dask's security settings for ``cluster``, from Dask's configuration
    (``DASK_DISTRIBUTED__COMM__TLS__...``): a ``tls://`` address needs the
    certificate authority and this client's certificate and key."""
    from distributed.security import Security

    security: Any = Security()  # reads distributed.comm.tls.* and require-encryption
    if cluster.startswith("tls://") and not (security.tls_ca_file and security.tls_client_cert):
        raise UsageError(
            f"--cluster {cluster}: a tls:// scheduler needs certificates; set DASK_DISTRIBUTED__COMM__TLS__CA_FILE, "
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT and DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY (site/kit/cluster.md, Trust)"
        )
    return security


def _probe(cluster: str, security: Any, seconds: float) -> None:
    """UsageError unless a Dask scheduler answers at ``cluster`` within
    ``seconds``. Dask's own connect waits for the peer's greeting
    without a limit, so a listener that accepts and says nothing would hold
    the sweep for ever; a web server or a peer sending garbage makes it
    fail with an error of any kind."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm.core import connect

    async def identity() -> object:
        # Dask's own limit is set past ours, so an address where nothing
        # answers always ends at the same one, with the same words.
        comm = await connect(cluster, timeout=seconds + 2, **security.get_connection_args("client"))
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    def ask() -> object:
        return asyncio.run(asyncio.wait_for(identity(), seconds))

    from engine.sweep.unpickling import refusals

    earlier = len(refusals)  # refused before this question: not its answer
    try:
        # On a thread of its own: asyncio.run refuses a thread where an event
        # loop is already running (a notebook, or a browser driven in the
        # same process), and the question needs a loop of its own.
        with ThreadPoolExecutor(max_workers=1) as one:
            answer = one.submit(ask).result()
    except TimeoutError:
        raise UsageError(f"cannot reach a Dask scheduler at {cluster} within {seconds:g} s (nothing answered)") from None
    except OSError as exc:
        raise UsageError(f"cannot reach a Dask scheduler at {cluster} within {seconds:g} s ({type(exc).__name__})") from None
    except Exception as exc:  # a web server's answer, or garbage, read as Dask's frames
        if refusals[earlier:]:
            raise UsageError(f"refused what answers at {cluster}: a pickle naming {refusals[earlier]}, not plain data") from None
        raise UsageError(f"what answers at {cluster} does not speak Dask's protocol ({type(exc).__name__})") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise UsageError(f"what answers at {cluster} is not a Dask scheduler")


def dask_runner(pack: AnyPack, catalog: Any, games: int, seed: int, client: Client, task: ChunkTask = play_chunk, patience: Patience = Patience()) -> CellRunner:
    """Cells played on ``client``'s cluster, all at once, each merged in game
    order as soon as its chunks and those of the cells before it are in.
    ``task`` plays a chunk (a test may wrap it). ClusterFailed, in one line,
    when the scheduler goes away, the last worker leaves for longer than
    ``patience.workerless``, or a worker hands back a chunk that does not hold up."""
    from engine.sweep.run import engine_fingerprint

    code = engine_fingerprint(pack.id)

    def run(cells: Sequence[Cell], progress: CellProgress | None) -> Iterator[CellFigures]:
        if not cells:
            return  # every cell came from the cache: nothing to send, not even the catalog
        try:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
        except Exception:
            raise ClusterFailed("the Dask scheduler stopped answering before the first chunk was sent") from None
        bounds = chunks(games, workers, LARGEST_CHUNK)
        carried = client.submit(_carried, packed(catalog), pure=False)
        submitted: list[list[Future[Any]]] = [
            [client.submit(task, Chunk(pack.id, code, catalog.fingerprint, cell.request(games, seed), start, stop), carried, pure=False, retries=0) for start, stop in bounds] for cell in cells
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
            for future in _finishing(client, [future for futures in submitted for future in futures], patience):
                position, played = where[future.key]
                finished[position][future.key] = played
                while following < len(cells) and len(finished[following]) == len(bounds):
                    yield _merged(pack, catalog, games, seed, cells[following], submitted[following], bounds, progress, following, patience)
                    submitted[following] = []  # the cluster may let the results go
                    following += 1
                if progress is not None and following < len(cells):
                    progress(following, sum(finished[following].values()), games)
        finally:
            try:
                client.cancel([carried, *(future for futures in submitted for future in futures)])
            except Exception:
                pass  # a scheduler already gone holds nothing to cancel

    return run


# How often the sweep looks at the cluster while no chunk finishes.
TICK_SECONDS: Final = 1.0


def _finishing(client: Client, futures: list[Future[Any]], patience: Patience) -> Iterator[Future[Any]]:
    """``futures`` as they finish (done, failed or cancelled), watching the
    cluster between them: ClusterFailed once the scheduler is gone or no
    worker has been there for ``patience.workerless``."""
    from distributed import wait

    pending = set(futures)
    workerless_since: float | None = None
    while pending:
        try:
            done, still = wait(pending, timeout=TICK_SECONDS, return_when="FIRST_COMPLETED")
        except TimeoutError:
            done, still = set(), pending
        except Exception:
            done, still = set(), pending  # judged by the look at the cluster below
        yield from done
        pending = set(still)
        if done:
            workerless_since = None
            continue
        workerless_since = _look(client, workerless_since, patience)


def _look(client: Client, workerless_since: float | None, patience: Patience) -> float | None:
    """Since when the cluster has had no worker (None: it has one now), or
    ClusterFailed if it is gone or has had none for too long."""
    import time

    address = client.scheduler.address if client.scheduler is not None else "its address"
    if client.status not in ("running", "newly-created"):
        raise ClusterFailed(f"lost the Dask scheduler at {address}; the cells finished so far are cached")
    try:
        scheduler: Any = client.scheduler
        workers = client.sync(scheduler.ncores, callback_timeout=patience.connect)
    except Exception:
        raise ClusterFailed(f"the Dask scheduler at {address} stopped answering; the cells finished so far are cached") from None
    if workers:
        return None
    now = time.monotonic()
    if workerless_since is None:
        return now
    if now - workerless_since > patience.workerless:
        raise ClusterFailed(f"the Dask scheduler at {address} has had no worker for {patience.workerless:g} s; the cells finished so far are cached")
    return workerless_since


# How long a finished chunk's result may take to arrive while the cluster
# still has workers (a result whose worker died is played again first).
RESULT_SECONDS: Final = 60.0


def _result(future: Future[Any], patience: Patience) -> Any:
    """``future``'s result, watching the cluster while it does not come."""
    import time

    given_up = time.monotonic() + RESULT_SECONDS
    workerless_since: float | None = None
    while True:
        try:
            return future.result(timeout=TICK_SECONDS)
        except TimeoutError:
            if time.monotonic() > given_up:
                raise ClusterFailed(f"a finished chunk's result did not arrive within {RESULT_SECONDS:g} s; the cells finished so far are cached") from None
            workerless_since = _look(future.client, workerless_since, patience)


def _merged(
    pack: AnyPack, catalog: Any, games: int, seed: int, cell: Cell, futures: list[Future[Any]], bounds: list[tuple[int, int]], progress: CellProgress | None, position: int, patience: Patience
) -> CellFigures:
    from concurrent.futures import CancelledError

    from distributed.scheduler import KilledWorker

    from engine.sim.plain import BadChunk
    from engine.sweep.unpickling import refusals

    request = cell.request(games, seed)
    where = f"cell {position + 1} ({cell.label})"
    results = []
    try:
        for future, (start, stop) in zip(futures, bounds):  # in game order
            plain = _result(future, patience)
            results.append(pack.simulator.chunk_from_plain(catalog, request, start, stop, plain))
    except BadChunk as exc:
        raise ClusterFailed(f"a worker handed back a chunk of {where} that does not hold up ({exc}); the cells finished so far are cached") from None
    except KilledWorker:
        raise ClusterFailed(f"the workers playing {where} kept dying; the cells finished so far are cached") from None
    except UsageError:
        raise
    except CancelledError:
        raise ClusterFailed(f"the cluster dropped {where} (its scheduler went away?); the cells finished so far are cached") from None
    except Exception as exc:
        if refusals:
            raise ClusterFailed(f"refused what the cluster sent for {where}: a pickle naming {refusals[0]}, not plain data; the cells finished so far are cached") from None
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
        raise ClusterFailed(f"a chunk of {where} failed on the cluster ({type(exc).__name__}{': ' + first if first else ''}); the cells finished so far are cached") from None
    report = pack.simulator.report_games(catalog, request, results)
    if progress is not None:
        progress(position, games, games)
    return CellFigures.from_report(report, pack.sweep_measure, cell.players)
