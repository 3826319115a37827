"""Fake cluster peers on 127.0.0.1 for ``sweep --cluster`` tests: a
listener that answers as a web server, one that accepts and says nothing,
and one that sends garbage where Dask expects its frames. Each runs in a
thread of the test process for as long as its ``with`` block, on a port of
its own, and yields its ``tcp://`` address."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

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
