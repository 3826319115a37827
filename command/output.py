"""Where a command's words go: standard output (kept safe from a reader that
leaves early), or a file written whole.

A file is written to a temporary name beside it and renamed into place, so a
failure (a folder that cannot be written, a full disk) leaves no half-written
file, and the old one, if any, as it was."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO, cast

from engine.content import files
from engine.errors import UsageError


def add_output_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--output FILE`` and ``--force``, in the same words for every
    command that writes ``what`` to a file a person names."""
    parser.add_argument("--output", default=None, metavar="FILE", help=f"write {what} to FILE (whole, or not at all) instead of standard output")
    parser.add_argument(
        "--force",
        action="store_true",
        help="let --output replace an existing file that stationmaster did not write there (content, a page, a report edited since); never a FIFO, device or folder",
    )


def check_output(output: str | None, force: bool = False) -> None:
    """Before any work: UsageError, naming the file, unless ``--output``
    may be written (``engine.targets``: a new file, or an output the kit
    wrote there and nobody changed since, or with ``force`` any regular file)."""
    if output is None:
        return
    from engine.targets import check_output as check

    check(Path(output), force=force)


def emit(text: str, output: str | None, force: bool = False) -> None:
    """``text`` on standard output, or written whole to the file ``output``
    under the rule of ``engine.targets`` (checked again now: the file may
    have appeared while the command worked)."""
    if output is None:
        sys.stdout.write(text)
        return
    from engine.atomic import write_whole  # only a command that writes a file pays for it
    from engine.targets import remember

    target = Path(output)
    check_output(output, force)
    data = text.encode("utf-8")
    try:
        write_whole(target, data)
    except OSError as exc:
        raise UsageError(f"cannot write {files.shown(output)}: {exc.strerror or exc}; nothing was written") from None
    remember(target, data)


class PipeGuard:
    """A standard stream that carries on quietly once its reader has gone.

    ``stationmaster validate | head -1`` closes the pipe while the command
    may still have lines to print. That is no failure of the command: it
    should finish its work and exit with its own status (1 if it found
    problems), not crash on the next print, and not report success because
    a print failed. So a write to a closed pipe is dropped, and so is every
    write after it; everything else is the wrapped stream's own.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.reader_gone = False

    def write(self, text: str) -> int:
        if not self.reader_gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._gone()
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if not self.reader_gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._gone()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def _gone(self) -> None:
        self.reader_gone = True
        # Whatever is still buffered for the closed pipe would fail again
        # when the interpreter flushes it at exit ("Exception ignored ...
        # BrokenPipeError", and status 120). Point the descriptor at the null
        # device, so that last flush succeeds into nothing.
        try:
            fd = self._stream.fileno()
        except (AttributeError, OSError, ValueError):
            return  # not a file (a test's capture): nothing will flush it later
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, fd)
        finally:
            os.close(devnull)


@contextmanager
def pipes_guarded() -> Iterator[None]:
    """Run a command with its standard output and error in PipeGuards, and
    flush them (still guarded) before putting the streams back."""
    saved = sys.stdout, sys.stderr
    out = None if saved[0] is None else PipeGuard(saved[0])  # None: started with the stream closed
    err = None if saved[1] is None else PipeGuard(saved[1])
    sys.stdout, sys.stderr = cast(TextIO, out or saved[0]), cast(TextIO, err or saved[1])
    try:
        yield
    finally:
        for guard in (out, err):
            if guard is not None:
                guard.flush()
        sys.stdout, sys.stderr = saved


class ProgressLine:
    """A line of progress on a terminal, rewritten in place (``\r``);
    ``finish`` ends it with a newline, once anything was shown, so what is
    printed next starts on a line of its own. A line shorter than the one
    before is padded with spaces over the rest of it: otherwise the tail of
    the longer line stays on the screen ("1/100 gamess")."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.used = False
        self.width = 0

    def show(self, text: str) -> None:
        self.stream.write(f"\r{text}{' ' * (self.width - len(text))}")
        self.stream.flush()
        self.width = len(text)
        self.used = True

    def finish(self) -> None:
        if self.used:
            self.stream.write("\n")
            self.stream.flush()


def refused(command: str, message: str) -> int:
    """Say on stderr why ``stationmaster COMMAND`` could not run; its exit status (2)."""
    print(f"stationmaster {command}: error: {message}", file=sys.stderr)
    return 2
