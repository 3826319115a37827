"""Fake cluster peers on 127.0.0.1 for ``sweep --cluster`` tests: a
listener that answers as a web server, one that accepts and says nothing,
and one that sends garbage where Dask expects its frames. Each runs in a
thread of the test process for as long as its ``with`` block, on a port of
its own, and yields its ``tcp://`` address. And real Dask schedulers and
workers in processes of their own (``dask_processes``), for a test to kill."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# What a peer does with each connection it accepts.
Handler = Callable[[socket.socket], None]


def free_port() -> int:
    """A port nothing listens on now (a later listener may take it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def fake_peer(handler: Handler) -> Iterator[str]:
    """A listener on 127.0.0.1 handing every connection to ``handler``."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            held.append(connection)
            threading.Thread(target=_quietly, args=(handler, connection), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        listener.close()
        for connection in held:
            connection.close()


def _quietly(handler: Handler, connection: socket.socket) -> None:
    try:
        handler(connection)
    except OSError:
        pass  # the client hung up: nothing to do


def web_server(connection: socket.socket) -> None:
    """Answer as a web server does, whatever is asked, then hang up."""
    connection.settimeout(5)
    try:
        connection.recv(4096)
    except TimeoutError:
        pass
    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 20\r\n\r\n<html>a page</html>\n")


def silent(connection: socket.socket) -> None:
    """Accept and say nothing, ever (the connection stays open)."""
    connection.settimeout(30)
    try:
        while connection.recv(4096):
            pass
    except TimeoutError:
        pass


def garbage(connection: socket.socket) -> None:
    """Send bytes that read as frames of absurd lengths, then stay open."""
    connection.sendall(b"\xff" * 64 + b"\x7f\xff\xff\xff\xff\xff\xff\xff" * 8)
    silent(connection)


class DaskProcesses:
    """A Dask scheduler and workers started as ``dask`` commands, each in a
    process group of its own (a worker is a nanny and its child), so a test
    can kill any of them outright as a crash or ``kill -9`` would."""

    def __init__(self, address: str, scheduler: subprocess.Popen[bytes], workers: list[subprocess.Popen[bytes]]) -> None:
        self.address = address
        self.scheduler = scheduler
        self.workers = workers

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextmanager
def dask_processes(workers: int = 1, *, scheme: str = "tcp", tls: Sequence[str] = (), env: Mapping[str, str] | None = None, preload: str | None = None) -> Iterator[DaskProcesses]:
    """A scheduler on 127.0.0.1 and ``workers`` workers of one thread each,
    every one with ``tls`` (``--tls-ca-file ...`` options) and ``env``; the
    workers with ``--preload`` module ``preload`` if given. Yields once
    every worker has joined; kills them all on the way out."""
    dask = Path(sys.executable).parent / "dask"
    address = f"{scheme}://127.0.0.1:{free_port()}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": dict(env or os.environ), "start_new_session": True}
    scheduler = subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--no-dashboard", "--protocol", scheme, *tls], **quiet)  # type: ignore[call-overload]
    started = DaskProcesses(address, scheduler, [])
    try:
        extra = [] if preload is None else ["--preload", preload]
        for _ in range(workers):
            started.workers.append(subprocess.Popen([str(dask), "worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1", *tls, *extra], **quiet))  # type: ignore[call-overload]
        _wait_for_workers(address, workers, tls, env or os.environ)
        yield started
    finally:
        for process in [*started.workers, scheduler]:
            started.kill(process)


def _wait_for_workers(address: str, workers: int, tls: Sequence[str], env: Mapping[str, str]) -> None:
    # Asked of a child Python, so that this process never holds a Dask client.
    probe = "import sys; from distributed import Client; c = Client(sys.argv[1], timeout=30); c.wait_for_workers(int(sys.argv[2]), timeout=60); c.close()"
    subprocess.run([sys.executable, "-c", probe, address, str(workers)], env=dict(env), check=True, timeout=90, capture_output=True)


class Marking:
    """An object whose unpickling would create ``marker``: what a hostile
    peer sends in place of data."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, ...]:
        return (os.system, (f"touch {self.marker}",))


@contextmanager
def pickling_scheduler(marker: Path) -> Iterator[str]:
    """A peer that greets as Dask does and answers every request with a
    pickle that would create ``marker``: a scheduler turned hostile."""
    import asyncio

    from distributed.comm import core
    from distributed.protocol.serialize import ToPickle

    listen: Any = core.listen  # untyped in distributed

    ready: list[str] = []
    started = threading.Event()
    stop: list[Callable[[], object]] = []

    async def answer(comm: Any) -> None:
        try:
            await comm.read()
            await comm.write({"status": "OK", "type": "Scheduler", "evil": ToPickle(Marking(marker))})
            await comm.read()
        except Exception:
            pass  # the sweep hung up, as it should

    async def serve() -> None:
        listener = await listen("tcp://127.0.0.1:0", answer)
        await listener.start()
        ready.append(listener.contact_address)
        finished = asyncio.Event()
        loop = asyncio.get_running_loop()
        stop.append(lambda: loop.call_soon_threadsafe(finished.set))
        started.set()
        await finished.wait()
        listener.stop()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    started.wait(30)
    try:
        yield ready[0]
    finally:
        stop[0]()
        thread.join(10)
