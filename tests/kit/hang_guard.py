"""The one bound on how long a test waits for a child process or a condition.

A test waits for progress, never against a stopwatch: how fast the kit is
gets measured in ``bench/``, not asserted here. HANG_GUARD is only there so
that a real hang (which never ends at all) fails the test instead of
blocking the suite; it is minutes, far beyond any run on a loaded machine.
When it runs out the test fails with one message naming the command and what
the test was waiting for, instead of a bare TimeoutExpired traceback.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, NoReturn, TypeVar

import pytest

# Seconds. The same everywhere: slowness is never a failure, only a hang is.
HANG_GUARD = 600.0

T = TypeVar("T")

# What a child's stdin, stdout or stderr may be, as subprocess takes them.
Stream = int | IO[str] | None


def _text(data: str | bytes | None) -> str:
    if data is None:
        return ""
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


def _command(args: object) -> str:
    if isinstance(args, (list, tuple)):
        return " ".join(str(a) for a in args)
    return str(args)


def _hung(message: str, **sections: str) -> NoReturn:
    """Fail the test with ``message`` and the tail of each non-empty section."""
    __tracebackhide__ = True  # the traceback points at the test's line, not here
    for name, text in sections.items():
        if text.strip():
            message += f"\n--- {name} (last 2000 chars) ---\n{text[-2000:]}"
    pytest.fail(message)


def _kill(proc: subprocess.Popen[Any]) -> None:
    """Kill ``proc``, and its whole process group when it leads one (so the
    workers or hooks it started do not run on, holding the machine)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if os.getpgid(proc.pid) == proc.pid:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def finish(proc: subprocess.Popen[Any], waiting_for: str, *, input: str | None = None, guard: float = HANG_GUARD) -> tuple[str, str]:
    """``proc.communicate(input)`` under the hang guard: (stdout, stderr) as
    text ("" for a stream not piped), or the test fails naming ``proc``'s
    command and ``waiting_for``. ``input`` is for a text-mode ``proc``."""
    __tracebackhide__ = True
    try:
        out, err = proc.communicate(input, timeout=guard)
    except subprocess.TimeoutExpired as exc:
        out, err = _text(exc.stdout), _text(exc.stderr)
    except BaseException:  # Ctrl-C, say: the child must not outlive the test
        _kill(proc)
        raise
    else:
        return _text(out), _text(err)
    _kill(proc)  # outside the except block, so the failure has no chained traceback
    _hung(f"hang guard: `{_command(proc.args)}` was still running after {guard:g} s, waiting for {waiting_for}", **{"stdout so far": out, "stderr so far": err})


def run(
    args: Sequence[str | Path],
    waiting_for: str,
    *,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    input: str | None = None,
    stdout: Stream = subprocess.PIPE,
    stderr: Stream = subprocess.PIPE,
    preexec_fn: Callable[[], object] | None = None,
    guard: float = HANG_GUARD,
) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(args)`` with text output (UTF-8, undecodable bytes
    replaced) under the hang guard. The child leads its own process group,
    so a hang is ended with everything it started."""
    __tracebackhide__ = True
    proc = subprocess.Popen(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE if input is not None else None,
        stdout=stdout,
        stderr=stderr,
        text=True,
        encoding="utf-8",
        errors="replace",
        preexec_fn=preexec_fn,
        start_new_session=True,
    )
    out, err = finish(proc, waiting_for, input=input, guard=guard)
    assert proc.returncode is not None
    # None, not "", for a stream that was not captured, as subprocess.run gives it.
    return subprocess.CompletedProcess(proc.args, proc.returncode, out if proc.stdout else None, err if proc.stderr else None)


def wait_until(ready: Callable[[], T | None], waiting_for: str, *, guard: float = HANG_GUARD, every: float = 0.3, details: Callable[[], str] | None = None) -> T:
    """Call ``ready()`` every ``every`` seconds until it gives something true,
    and return that. ``ready`` may raise to fail at once (a server that
    stopped, say). When the guard runs out the test fails naming
    ``waiting_for``, with ``details()`` (a server's log, say) if given."""
    __tracebackhide__ = True
    give_up = time.monotonic() + guard
    while True:
        value = ready()
        if value:
            return value
        if time.monotonic() >= give_up:
            break
        time.sleep(every)
    _hung(f"hang guard: still waiting after {guard:g} s for {waiting_for}", details=details() if details else "")
