"""The hang guard itself (tests/kit/hang_guard.py): a command that ends gives its
output, and one that outlives the guard (a tiny one, passed in here) fails
the test with a message naming the command and what it was waiting for,
and leaves nothing it started running."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.kit.hang_guard import HANG_GUARD, finish, run, wait_until

TINY = 0.5  # seconds: far shorter than the sleeps below, so they must outlive it


def _stopped(pid: int) -> bool:
    """Whether ``pid`` no longer runs (gone, or a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def test_the_guard_is_minutes() -> None:
    # A bound of seconds would turn a busy machine into failures again.
    assert HANG_GUARD >= 300


def test_run_gives_the_status_and_the_output() -> None:
    done = run([sys.executable, "-c", "import sys; print(sys.stdin.read().upper()); print('é', file=sys.stderr); sys.exit(3)"], "an echo", input="hello")
    assert (done.returncode, done.stdout, done.stderr) == (3, "HELLO\n", "é\n")


def test_an_uncaptured_stream_is_none_as_with_subprocess_run(tmp_path: Path) -> None:
    with (tmp_path / "out").open("w") as out:
        done = run(["sh", "-c", "echo to-file; echo to-pipe >&2"], "an echo", stdout=out)
    assert done.stdout is None and done.stderr == "to-pipe\n"
    assert (tmp_path / "out").read_text() == "to-file\n"


def test_a_command_that_outlives_the_guard_fails_naming_it_and_ends_all_it_started(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    script = f"echo started; sleep 3600 & echo $$ $! > {pids}; wait"
    with pytest.raises(pytest.fail.Exception) as failed:
        run(["sh", "-c", script], "the sleeper to wake", guard=TINY)
    message = str(failed.value)
    assert message.startswith(f"hang guard: `sh -c {script}` was still running after {TINY:g} s, waiting for the sleeper to wake"), message
    assert "started" in message, "the output so far is shown"
    assert "TimeoutExpired" not in message
    shell, sleeper = (int(word) for word in pids.read_text().split())
    wait_until(lambda: _stopped(shell) and _stopped(sleeper), "the killed shell and its sleep to stop")


def test_finish_fails_the_same_way_for_a_process_the_test_started() -> None:
    proc = subprocess.Popen(["sleep", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with pytest.raises(pytest.fail.Exception, match=r"^hang guard: `sleep 60` was still running after 0.5 s, waiting for a nap$"):
        finish(proc, "a nap", guard=TINY)
    assert proc.returncode is not None, "the process was killed and reaped"


def test_finish_gives_what_the_process_printed() -> None:
    proc = subprocess.Popen(["sh", "-c", "cat; echo err >&2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert finish(proc, "cat", input="fed\n") == ("fed\n", "err\n")
    assert proc.returncode == 0


def test_wait_until_returns_the_first_true_answer() -> None:
    answers = iter([None, "", "page"])
    assert wait_until(lambda: next(answers), "the page", every=0.01) == "page"


def test_wait_until_fails_naming_what_it_waited_for_with_the_details() -> None:
    with pytest.raises(pytest.fail.Exception) as failed:
        wait_until(lambda: False, "the page to show Punting", guard=TINY, every=0.05, details=lambda: "server log line")
    assert str(failed.value).startswith(f"hang guard: still waiting after {TINY:g} s for the page to show Punting"), failed.value
    assert "server log line" in str(failed.value)
