"""The machinery of the fuzz suite (tests/fuzz/): running the
command on damaged input without ever waiting forever, the one invariant
every run must keep, fingerprints of a tree to prove nothing was changed,
scratch projects, and the hypothesis settings every fuzz test shares.

The invariant, whatever the input: the exit status is 0, 1 or 2 (never 3,
the kit's own bug), no traceback is printed, no run hangs (each case has a
time limit), and no input file changes.

Runs are reproducible: hypothesis is derandomized (a fixed sequence of
examples per test) and keeps no example database. Shrinking is off, so a
failure costs the suite no more time than a pass (a failing case names its
input well enough to find it again); set ``STATIONMASTER_FUZZ_SHRINK=1``
to get a minimal example while hunting a new failure, and
``STATIONMASTER_FUZZ_EXAMPLES=N`` to multiply every example budget (a longer,
deeper run by hand).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import NamedTuple
from unittest import mock

from hypothesis import HealthCheck, Phase, settings

from command import cli
from tests.kit.hang_guard import HANG_GUARD
from tests.kit.project import PROJECT_ROOT

CONTENT = PROJECT_ROOT / "content"
PACKS = ("stationmaster", "trickoftherails")

# What no run may ever print: Python's own report of an uncaught exception,
# and the kit's last-guard line (which comes with exit 3).
TRACEBACK = "Traceback (most recent call last)"
INTERNAL = "internal error"

# Seconds one case may take before it counts as a hang: the shared hang
# guard, since a loaded machine is only slow and a real hang never ends.
CASE_LIMIT = HANG_GUARD


# -- hypothesis ------------------------------------------------------------------


def multiplier() -> int:
    """How many times its usual budget a fuzz test spends (STATIONMASTER_FUZZ_EXAMPLES)."""
    try:
        return max(1, int(os.environ.get("STATIONMASTER_FUZZ_EXAMPLES", "1")))
    except ValueError:
        return 1


def fuzz_settings(examples: int) -> settings:
    """The settings of every fuzz test: ``examples`` cases (times the
    STATIONMASTER_FUZZ_EXAMPLES multiplier), always the same ones, no
    database, no deadline (timing is the bench scripts' job; a hang is
    caught by the case limit instead)."""
    phases = [Phase.explicit, Phase.generate]
    if os.environ.get("STATIONMASTER_FUZZ_SHRINK") == "1":
        phases.append(Phase.shrink)
    return settings(
        max_examples=examples * multiplier(),
        derandomize=True,
        database=None,
        deadline=None,
        phases=phases,
        report_multiple_bugs=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
    )


# -- one run of the command ------------------------------------------------------


class Outcome(NamedTuple):
    """What one run gave; ``hung`` when it was stopped at the case limit."""

    code: int | None
    out: str
    err: str
    hung: bool = False

    @property
    def output(self) -> str:
        return self.out + self.err

    def __str__(self) -> str:
        status = f"hung (blocked for good, or still running at the hang guard of {CASE_LIMIT:g} s)" if self.hung else f"exit {self.code}"
        return f"{status}\n--- stdout (last 2000 chars) ---\n{self.out[-2000:]}\n--- stderr (last 2000 chars) ---\n{self.err[-2000:]}"


class Hang(BaseException):
    """Raised into an in-process run at the case limit. A BaseException, so
    the command's last guard (``except Exception``) cannot swallow it."""


@contextlib.contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    """Raise Hang in this (the main) thread after ``seconds``: an in-process
    run that loops or blocks (on a FIFO, say) is stopped, not waited for."""

    def fire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _FifoGuard:
    """Watches this process's main thread while it runs a case holding FIFOs.
    When the kernel shows the thread waiting to open a FIFO that has no
    writer (``wait_for_partner`` in /proc: a wait that never ends), it notes
    the block and opens the FIFOs' write ends for a moment, so the reader
    sees an empty file and the run goes on. The case then fails at once as
    a hang, instead of at the end of a long watchdog delay. Where /proc does
    not show it, the watchdog still catches the hang."""

    def __init__(self, fifos: Sequence[Path]) -> None:
        self.fifos = list(fifos)
        self.blocked = False
        self._stop = threading.Event()
        self._wchan = Path(f"/proc/self/task/{threading.main_thread().native_id}/wchan")
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> _FifoGuard:
        if self.fifos:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self.fifos:
            self._thread.join()

    def _watch(self) -> None:
        while not self._stop.wait(0.02):
            try:
                waiting = self._wchan.read_text().strip()
            except OSError:
                return
            if waiting != "wait_for_partner":
                continue
            self.blocked = True
            for fifo in self.fifos:
                try:
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    pass  # no reader on this one


def call(args: Sequence[str], cwd: Path, *, stdin: bytes = b"", limit: float = CASE_LIMIT, fifos: Sequence[Path] = ()) -> Outcome:
    """``command.cli.main(args)`` in this process with ``cwd`` as the current
    folder, and as HOME (so a ``save ~/x`` typed by the fuzzer lands there),
    and ``stdin`` as its standard input (UTF-8, strict, as a terminal gives
    it); stopped at ``limit`` seconds. In-process runs are ten times cheaper
    than a child process, so most fuzz cases use them. A run that blocks
    opening one of ``fifos`` counts as hung (see _FifoGuard)."""
    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    fake_stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", newline=None)
    code: int | None = None
    hung = False
    os.chdir(cwd)
    try:
        with mock.patch.object(sys, "stdin", fake_stdin), mock.patch.dict(os.environ, {"HOME": str(cwd)}), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                with watchdog(limit), _FifoGuard(fifos) as guard:
                    code = cli.main(list(args))
                if guard.blocked:
                    hung = True
                    print("[fuzz] the run blocked opening a FIFO with no writer: it would have waited forever", file=err)
            except SystemExit as exc:  # argparse refuses bad arguments this way
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except Hang:
                hung = True
    finally:
        os.chdir(before)
    return Outcome(code, out.getvalue(), err.getvalue(), hung)


def child_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a child run: this checkout first on the path, no git
    variables from a hook, HOME in the scratch folder (so a ``save ~/x``
    typed by the fuzzer lands there, not in a real home)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PROJECT_ROOT), env.get("PYTHONPATH", "")) if p)
    env.pop("PYTHONWARNINGS", None)
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["HOME"] = str(home)
    env.update(extra)
    return env


def _memory_cap(size: int) -> Callable[[], None]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return cap


def spawn(args: Sequence[str], cwd: Path, *, stdin: bytes = b"", limit: float = CASE_LIMIT, memory: int | None = None) -> Outcome:
    """``python -m command.cli ARGS`` in a child process, fed ``stdin``; a
    child still running at ``limit`` seconds is killed (its whole process
    group, which this call started) and reported as hung. ``memory`` caps
    the child's address space: a case that reads an endless device or a
    huge file blindly then fails fast (MemoryError, exit 3) instead of
    eating the shared machine's memory."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "command.cli", *args],
        cwd=cwd,
        env=child_env(cwd),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=None if memory is None else _memory_cap(memory),
    )
    try:
        raw_out, raw_err = proc.communicate(stdin, timeout=limit)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        raw_out, raw_err = proc.communicate()
        return Outcome(None, raw_out.decode("utf-8", "replace"), raw_err.decode("utf-8", "replace"), hung=True)
    return Outcome(proc.returncode, raw_out.decode("utf-8", "replace"), raw_err.decode("utf-8", "replace"))


def assert_sound(outcome: Outcome, case: str) -> None:
    """The invariant of every run: exit 0, 1 or 2, no traceback, no hang."""
    assert not outcome.hung, f"{case}: {outcome}"
    assert outcome.code in (0, 1, 2), f"{case}: {outcome}"
    assert TRACEBACK not in outcome.output, f"{case}: {outcome}"
    assert INTERNAL not in outcome.err, f"{case}: {outcome}"


# -- proving nothing changed -------------------------------------------------------


# Files larger than this are fingerprinted by size and time, not read.
_HASHED_UP_TO = 64 * 1024 * 1024


def fingerprint(root: Path) -> dict[str, str]:
    """Every entry under ``root`` (``root`` itself included): a file's mode and
    the digest of its bytes, a link's target, a folder, or a special file by
    its kind (never opened: a FIFO would block). New, lost and changed
    entries all show when two fingerprints are compared."""
    found: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        for name in sorted(dirnames + filenames):
            path = here / name
            key = path.relative_to(root).as_posix()
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                found[key] = "link -> " + os.readlink(path)
            elif stat.S_ISDIR(info.st_mode):
                found[key] = f"folder {stat.S_IMODE(info.st_mode):o}"
            elif stat.S_ISREG(info.st_mode) and info.st_size > _HASHED_UP_TO:
                # a huge (sparse) file a case made: its size and time tell a change
                found[key] = f"file {stat.S_IMODE(info.st_mode):o} {info.st_size} bytes, modified {info.st_mtime_ns}"
            elif stat.S_ISREG(info.st_mode):
                found[key] = f"file {stat.S_IMODE(info.st_mode):o} " + hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                found[key] = f"special {stat.S_IFMT(info.st_mode):o}"
    return found


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """What differs between two fingerprints, one line per entry."""
    lines = []
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            lines.append(f"{key}: {before.get(key, 'absent')} -> {after.get(key, 'absent')}")
    return lines


# -- scratch projects ----------------------------------------------------------------


# The bytes of every file under a part of the project, read once: writing a
# scratch copy from memory costs a fraction of copying the tree each case.
_SOURCES: dict[tuple[Path, str], list[tuple[str, bytes | None]]] = {}


def _source(source: Path, part: str) -> list[tuple[str, bytes | None]]:
    """(relative path, bytes) of every file under ``source/part``, None for a
    folder, parents first; caches of the kit's own (``__pycache__``) left out."""
    key = (source, part)
    if key not in _SOURCES:
        origin = source / part
        entries: list[tuple[str, bytes | None]] = []
        if origin.is_file():
            entries.append((part, origin.read_bytes()))
        for dirpath, dirnames, filenames in os.walk(origin):
            dirnames[:] = sorted(name for name in dirnames if name != "__pycache__")
            here = Path(dirpath)
            entries.append((here.relative_to(source).as_posix(), None))
            entries += [((here / name).relative_to(source).as_posix(), (here / name).read_bytes()) for name in sorted(filenames)]
        _SOURCES[key] = entries
    return _SOURCES[key]


# Scratch copies go to memory where the system has a tmpfs for it: a case
# writes a hundred small files, and a shared disk makes that the slowest step.
_SCRATCH_DIR = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK) else None


@contextlib.contextmanager
def scratch(source: Path, parts: Sequence[str]) -> Iterator[Path]:
    """A temporary folder holding a copy of ``source``'s ``parts`` (say
    content and site), removed afterwards even if a case made a folder in it
    unreadable or put a FIFO there."""
    folder = Path(tempfile.mkdtemp(prefix="fuzz-", dir=_SCRATCH_DIR))
    try:
        for part in parts:
            for rel, data in _source(source, part):
                if data is None:
                    (folder / rel).mkdir(exist_ok=True)
                else:
                    (folder / rel).write_bytes(data)
        yield folder
    finally:
        for dirpath, dirnames, _ in os.walk(folder):
            for name in dirnames:
                path = Path(dirpath) / name
                if not path.is_symlink():
                    with contextlib.suppress(OSError):
                        os.chmod(path, 0o755)
        shutil.rmtree(folder, ignore_errors=True)
