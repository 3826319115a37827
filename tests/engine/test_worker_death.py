"""A worker process that dies (the out-of-memory killer, ``kill -9``) fails
the run at once, with one line naming the cause and exit status 2: no hang,
no traceback, nothing half-written, and no worker left running.

The workers here are killed for real, by a signal: a chunk or a piece that
sends SIGKILL to its own process, and, for ``simulate``, a ``kill -9`` from
outside while the real command plays. The waits on the child processes end
only at the hang guard, to stop a hang blocking the suite; nothing here
measures speed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.sim import pool
from generator import forked
from tests.kit import hang_guard
from tests.kit.cli import stationmaster_exe, subprocess_env
from tests.kit.project import PROJECT_ROOT, copy_project

needs_fork = pytest.mark.skipif(pool.start_method() != "fork", reason="this platform cannot fork")

SIGKILL_LINE = "a worker process died (killed by signal 9 \N{EM DASH} SIGKILL, often the out-of-memory killer)"


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # ended while being read
            # pid (name) state ppid ...: the name may hold spaces and brackets
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _gone(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists()


def _wait_for_workers(leader: subprocess.Popen[str] | subprocess.Popen[bytes], ready: Callable[[int], bool] = lambda pid: True) -> list[int]:
    """The leader's worker processes once two of them are ``ready``, or
    what is there if the leader has ended; a pool that never gets there
    fails the test at the hang guard."""

    def seen() -> tuple[list[int]] | None:
        workers = _children(leader.pid)
        done = leader.poll() is not None or (len(workers) >= 2 and all(map(ready, workers)))
        return (workers,) if done else None  # a tuple is true even with no worker left

    (workers,) = hang_guard.wait_until(seen, "two workers of simulate to be running", every=0.05)
    return workers


@pytest.fixture(autouse=True)
def _no_workers_left_behind() -> Iterator[None]:
    before = set(_children(os.getpid()))
    yield
    assert set(_children(os.getpid())) <= before, "a worker process outlived its pool"


# -- the pools themselves ---------------------------------------------------------


def _killed_on_chunk_20(offset: int, start: int, stop: int) -> list[int]:
    if start <= 20 < stop:
        os.kill(os.getpid(), signal.SIGKILL)
    return [offset + i for i in range(start, stop)]


def _exits_on_chunk_20(offset: int, start: int, stop: int) -> list[int]:
    if start <= 20 < stop:
        os._exit(5)
    return [offset + i for i in range(start, stop)]


@needs_fork
def test_a_killed_worker_fails_play_chunks_naming_the_signal() -> None:
    merged: list[int] = []
    with pytest.raises(pool.WorkerDied) as caught:
        pool.play_chunks(_killed_on_chunk_20, 0, 200, 2, merged.extend)
    assert str(caught.value) == SIGKILL_LINE
    assert merged == list(range(len(merged))), "what was merged before the death came in game order"
    assert len(merged) <= 20


@needs_fork
def test_a_worker_that_exits_fails_play_chunks_naming_its_status() -> None:
    with pytest.raises(pool.WorkerDied, match=r"^a worker process died \(it exited with status 5\)$"):
        pool.play_chunks(_exits_on_chunk_20, 0, 200, 3, lambda result: None)


@needs_fork
def test_the_pool_still_works_after_a_death() -> None:
    with pytest.raises(pool.WorkerDied):
        pool.play_chunks(_killed_on_chunk_20, 0, 200, 2, lambda result: None)
    merged: list[int] = []
    pool.play_chunks(_killed_on_chunk_20, 0, 20, 2, merged.extend)  # chunk 20 is never played
    assert merged == list(range(20))


def _killed_on_piece_3(n: int) -> int:
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n


@needs_fork
def test_a_killed_worker_fails_map_pieces_naming_the_signal() -> None:
    with pytest.raises(pool.WorkerDied) as caught:
        forked.map_pieces(_killed_on_piece_3, list(range(40)), 2)
    assert str(caught.value) == SIGKILL_LINE
    assert forked._JOB is None


def test_the_cause_of_a_death_in_words() -> None:
    assert pool.death_cause(-9) == SIGKILL_LINE
    assert pool.death_cause(-11) == "a worker process died (killed by signal 11 \N{EM DASH} SIGSEGV)"
    assert pool.death_cause(3) == "a worker process died (it exited with status 3)"
    assert pool.death_cause(None) == "a worker process died"
    # the executor stops the survivors with SIGTERM: the first other ending is the cause
    assert pool._first_death([-15, -9, -15]) == -9
    assert pool._first_death([-15, -15]) == -15
    assert pool._first_death([None, 0]) is None


# -- the commands -----------------------------------------------------------------


@needs_fork
def test_simulate_fails_cleanly_when_a_worker_is_killed() -> None:
    """A real ``kill -9`` of one worker of a long ``simulate`` run: the leader
    says so in one line and exits 2, and takes the other worker with it."""
    leader = subprocess.Popen(
        [*stationmaster_exe(), "simulate", "--games", "100000", "--workers", "2"],
        cwd=PROJECT_ROOT,
        env=subprocess_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        workers = _wait_for_workers(leader)
        assert len(workers) >= 2, f"the run ended before its workers could be seen: {workers} {leader.poll()}"
        os.kill(workers[0], signal.SIGKILL)
        out, err = hang_guard.finish(leader, "simulate to end after a worker was killed")
    finally:
        if leader.poll() is None:
            os.killpg(leader.pid, signal.SIGKILL)
            leader.wait()
    assert leader.returncode == 2, err
    assert out == ""
    assert err == f"stationmaster simulate: error: {SIGKILL_LINE}; nothing was written; run again, or with --workers 1\n"
    assert all(_gone(pid) for pid in workers), "a worker outlived the run"


CARDS_WITH_A_DYING_WORKER = """\
import os, signal, sys
from command import cli
from generator import forked

forked.workers_for = lambda cards: 2  # the shipped site is small: fork anyway
real = forked._run

def dying(index):
    if index == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(index)

forked._run = dying
sys.exit(cli.main(["cards"]))
"""


@needs_fork
def test_cards_fails_cleanly_and_writes_nothing_when_a_worker_is_killed(tmp_path: Path) -> None:
    root = copy_project(PROJECT_ROOT, tmp_path / "project")
    page = root / "site" / "stationmaster" / "home-deck.md"
    stale = page.read_text(encoding="utf-8").replace('<a id="card-straight"></a>Straight', '<a id="card-straight"></a>Straight (edited)', 1)
    page.write_text(stale, encoding="utf-8")  # a page that cards would rewrite
    before = {p: p.read_bytes() for p in (root / "site").rglob("*") if p.is_file()}
    done = hang_guard.run([sys.executable, "-c", CARDS_WITH_A_DYING_WORKER], "cards to end after a worker was killed", cwd=root, env=subprocess_env())
    assert done.returncode == 2, done.stderr
    # (a note about the changes table may come first, if its piece ran before the death)
    assert done.stderr.endswith(f"\nstationmaster: {SIGKILL_LINE}; nothing was written; run again\n") or done.stderr == f"stationmaster: {SIGKILL_LINE}; nothing was written; run again\n"
    assert "Traceback" not in done.stderr
    assert {p: p.read_bytes() for p in (root / "site").rglob("*") if p.is_file()} == before


def _ignores_interrupts(pid: int) -> bool:
    """Whether process ``pid`` has set Ctrl-C's signal aside (/proc's SigIgn mask)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = int(next(line for line in status.splitlines() if line.startswith("SigIgn:")).split()[1], 16)
    return bool(mask & (1 << (signal.SIGINT - 1)))


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child, before the kit starts: Ctrl-C's signal at its default,
    as it is for a command typed at a terminal. A suite run in the
    background by a non-interactive shell (``make test &``) inherits it
    ignored, and a program started with Ctrl-C ignored rightly goes on
    ignoring it: the run would then play all its games and exit 0."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@needs_fork
@pytest.mark.parametrize(("signum", "code", "words"), [(signal.SIGINT, 130, "Ctrl-C (SIGINT)"), (signal.SIGTERM, 143, "SIGTERM")])
def test_ctrl_c_stops_simulate_and_its_workers_quietly(signum: int, code: int, words: str) -> None:
    """Ctrl-C at a terminal reaches the whole process group: the leader stops
    the workers itself and exits 130, with one line, and no worker prints a
    traceback. ``kill PID`` (SIGTERM, to the leader alone) does the same, 143."""
    leader = subprocess.Popen(
        [*stationmaster_exe(), "simulate", "--games", "100000", "--workers", "2"],
        cwd=PROJECT_ROOT,
        env=subprocess_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_ctrl_c_as_at_a_terminal,
    )
    try:
        # Wait for both workers to be running their tasks (past the point
        # where they set Ctrl-C aside), as they are whenever a person presses it.
        workers = _wait_for_workers(leader, ready=_ignores_interrupts)
        assert leader.poll() is None, "the run ended before its workers could be seen"
        assert not _ignores_interrupts(leader.pid), "the leader was started with Ctrl-C ignored: the test proves nothing"
        if signum == signal.SIGINT:
            os.killpg(leader.pid, signal.SIGINT)
        else:
            os.kill(leader.pid, signal.SIGTERM)
        out, err = hang_guard.finish(leader, "simulate to stop on Ctrl-C")
    finally:
        if leader.poll() is None:
            os.killpg(leader.pid, signal.SIGKILL)
            leader.wait()
    assert leader.returncode == code
    assert (out, err) == ("", f"stationmaster: stopped by {words}; files are written whole or not at all, so none was left half-written\n")
    assert all(_gone(pid) for pid in workers), "a worker outlived the run"


@needs_fork
def test_workers_do_not_outlive_a_killed_leader() -> None:
    """The out-of-memory killer may pick the leader instead: its workers must
    not run on, or wait forever for tasks, as orphans. (multiprocessing.Pool's
    workers ended on their own; an executor's wait for their next task forever
    unless the kernel is asked to end them with their parent.)"""
    leader = subprocess.Popen(
        [*stationmaster_exe(), "simulate", "--games", "100000", "--workers", "2"],
        cwd=PROJECT_ROOT,
        env=subprocess_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    workers: list[int] = []
    try:
        workers = _wait_for_workers(leader)
        assert len(workers) >= 2, "the run ended before its workers could be seen"
        os.kill(leader.pid, signal.SIGKILL)
        hang_guard.finish(leader, "the killed leader to be reaped")
        # Orphans that run on fail the test at the hang guard rather than hang it.
        hang_guard.wait_until(lambda: all(map(_gone_or_dead, workers)), f"the workers {workers} to end with their killed leader", every=0.05)
    finally:
        for pid in workers:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)


def _gone_or_dead(pid: int) -> bool:
    # An orphan that has ended may wait a moment as a zombie for whoever
    # reaps orphans here: it no longer runs, which is what counts.
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True
