"""``engine.atomic.write_whole``, the one writer behind pages, saves, sweep
cells and every ``--output``: whole or not at all, through a symbolic link,
keeping a file's permissions (a new file gets what the umask allows, not a
temporary file's private 0600), and never over text saved since it was read.
Also the progress line those commands draw, which must not leave the tail of
a longer line on the screen."""

from __future__ import annotations

import io
import os
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from command.output import ProgressLine, emit
from engine.atomic import TEMP_SUFFIX, write_whole
from engine.saves import write_text
from tests.kit.project import PROJECT_ROOT


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _no_temp_files(folder: Path) -> bool:
    return not list(folder.glob("*" + TEMP_SUFFIX)) and not list(folder.glob(".*" + TEMP_SUFFIX))


def test_a_new_output_gets_the_usual_permissions(tmp_path: Path, umask_022: None) -> None:
    emit("report\n", str(tmp_path / "report.txt"))
    assert (tmp_path / "report.txt").read_text(encoding="utf-8") == "report\n"
    assert _mode(tmp_path / "report.txt") == 0o644, "not the temporary file's 0600"
    assert _no_temp_files(tmp_path)


def test_an_output_keeps_its_own_permissions(tmp_path: Path, umask_022: None) -> None:
    target = tmp_path / "report.txt"
    emit("old\n", str(target))  # an output of the kit's: it may be written again
    os.chmod(target, 0o640)
    emit("new\n", str(target))
    assert target.read_text(encoding="utf-8") == "new\n" and _mode(target) == 0o640


def test_an_output_through_a_link_is_written_to_the_file_it_names(tmp_path: Path, umask_022: None) -> None:
    real = tmp_path / "kept" / "report.json"
    real.parent.mkdir()
    emit("", str(real))  # an output of the kit's: it may be written again
    os.chmod(real, 0o644)
    link = tmp_path / "report.json"
    link.symlink_to(real)
    emit("{}\n", str(link))
    assert link.is_symlink(), "the link stays a link"
    assert real.read_text(encoding="utf-8") == "{}\n" and _mode(real) == 0o644
    assert _no_temp_files(tmp_path) and _no_temp_files(real.parent)


def test_a_save_through_a_link_keeps_the_link(tmp_path: Path, umask_022: None) -> None:
    real = tmp_path / "saves" / "game.json"
    real.parent.mkdir()
    link = tmp_path / "game.json"
    link.symlink_to(real)
    write_text(link, '{"a": 1}\n')
    assert link.is_symlink() and real.read_text(encoding="utf-8") == '{"a": 1}\n'
    assert _mode(real) == 0o644


def test_text_saved_since_it_was_read_is_not_written_over(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(b"as read\n")
    page.write_bytes(b"saved meanwhile\n")
    assert write_whole(page, b"generated\n", expected=b"as read\n") is False
    assert page.read_bytes() == b"saved meanwhile\n"
    assert write_whole(tmp_path / "gone.md", b"generated\n", expected=b"as read\n") is False
    assert not (tmp_path / "gone.md").exists()
    assert write_whole(page, b"generated\n", expected=b"saved meanwhile\n") is True
    assert page.read_bytes() == b"generated\n"
    assert _no_temp_files(tmp_path)


def test_a_failed_write_leaves_the_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.txt"
    target.write_text("old\n", encoding="utf-8")

    def full_disk(fd: int, data: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("engine.atomic.os.write", full_disk)
    with pytest.raises(OSError):
        write_whole(target, b"new\n")
    assert target.read_text(encoding="utf-8") == "old\n" and _no_temp_files(tmp_path)


def test_a_shorter_progress_line_covers_the_longer_one() -> None:
    screen = io.StringIO()
    line = ProgressLine(screen)
    line.show("this cell 100/100 games")
    line.show("this cell 1/100 games")
    line.finish()
    # What a terminal shows: the last \r-separated line, padded over the tail.
    last = screen.getvalue().rstrip("\n").split("\r")[-1]
    assert last == "this cell 1/100 games  "
    assert last.rstrip() == "this cell 1/100 games"


# -- stopped mid-write: SIGTERM as Ctrl-C, SIGKILL cleaned up by the next run -------------
# (issue 23, point 10) Each child stops itself at a chosen write, right after
# the new bytes are flushed to the temporary file and before the rename: the
# worst moment there is.


def _stopped_at_write(args: list[str], number: int, signum: int, cwd: Path, what: str) -> subprocess.CompletedProcess[str]:
    """``stationmaster ARGS`` in a child that sends itself ``signum`` at its
    ``number``-th write of a temporary file."""
    from tests.kit import hang_guard
    from tests.kit.cli import subprocess_env

    stopper = (
        "import os, sys\n"
        "from command import cli\n"
        "real = os.fsync\n"
        "seen = []\n"
        "def fsync(fd):\n"
        "    real(fd)\n"
        f"    if os.readlink(f'/proc/self/fd/{{fd}}').endswith('{TEMP_SUFFIX}'):\n"
        "        seen.append(fd)\n"
        f"        if len(seen) == {number}:\n"
        f"            os.kill(os.getpid(), {int(signum)})\n"
        "os.fsync = fsync\n"
        f"sys.exit(cli.main({args!r}))\n"
    )
    return hang_guard.run([sys.executable, "-c", stopper], what, cwd=cwd, env=subprocess_env(), input="")


def _temporaries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*" + TEMP_SUFFIX))


SELF_PLAY = {
    "stationmaster": ["play", "--content", str(PROJECT_ROOT / "content" / "stationmaster"), "--players", "1", "--bots", "1"],
    "trickoftherails": ["play", "--game", "trickoftherails", "--content", str(PROJECT_ROOT / "content" / "trickoftherails"), "--players", "3", "--bots", "3"],
}


@pytest.mark.parametrize("game", sorted(SELF_PLAY))
def test_sigterm_during_play_save_ends_in_one_line_and_leaves_the_last_save(tmp_path: Path, game: str) -> None:
    done = _stopped_at_write([*SELF_PLAY[game], "--save", "game.json"], 5, signal.SIGTERM, tmp_path, "play stopped by SIGTERM to end")
    assert done.returncode == 143, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("stationmaster: stopped by SIGTERM"), done.stderr
    assert "Traceback" not in done.stderr
    assert _temporaries(tmp_path) == [], "the temporary file of the write that was stopped is removed"
    # the stopped write left the save whole; then the session, told of the
    # stop, saved the game as of its last action and said so
    assert "interrupted: the game is saved in game.json; resume it with: " in done.stdout, done.stdout[-400:]
    # (--bots 0: a person takes the saved bots' seats, so the resumed game waits for input)
    resumed = _play([*SELF_PLAY[game][:-4], "--load", "game.json", "--bots", "0"], tmp_path)
    assert resumed.returncode == 0 and "5 actions replayed" in resumed.stdout, resumed.stdout + resumed.stderr


@pytest.mark.parametrize("game", sorted(SELF_PLAY))
def test_sigkill_during_play_save_leaves_a_temporary_the_next_run_removes(tmp_path: Path, game: str) -> None:
    done = _stopped_at_write([*SELF_PLAY[game], "--save", "game.json"], 5, signal.SIGKILL, tmp_path, "play killed to end")
    assert done.returncode == -signal.SIGKILL
    left = _temporaries(tmp_path)
    assert len(left) == 1, left
    again = _play([*SELF_PLAY[game][:-4], "--load", "game.json", "--bots", "0", "--save", "game.json"], tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "4 actions replayed" in again.stdout
    assert _temporaries(tmp_path) == [], "the dead run's temporary file is removed by the next write in its folder"


def _play(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    from tests.kit import hang_guard
    from tests.kit.cli import subprocess_env

    return hang_guard.run([sys.executable, "-m", "command.cli", *args], "play to end", cwd=cwd, env=subprocess_env(), input="quit\n")


SWEEP = ["sweep", "--content", str(PROJECT_ROOT / "content" / "stationmaster"), "--players", "1,2", "--games", "2", "--cache", "cache", "--quiet"]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_a_sweep_stopped_mid_write_keeps_its_cache_clean(tmp_path: Path, signum: int) -> None:
    done = _stopped_at_write(SWEEP, 2, signum, tmp_path, "sweep stopped mid-write to end")
    if signum == signal.SIGTERM:
        assert done.returncode == 143 and done.stderr.count("\n") == 1 and "stopped by SIGTERM" in done.stderr, done.stderr
        assert _temporaries(tmp_path) == []
    else:
        assert done.returncode == -signal.SIGKILL and len(_temporaries(tmp_path)) == 1
    assert len(list((tmp_path / "cache").glob("*.json"))) == 1, "the first cell is kept"
    from tests.kit import hang_guard
    from tests.kit.cli import subprocess_env

    again = hang_guard.run([sys.executable, "-m", "command.cli", *SWEEP, "--output", "report.txt"], "sweep to end", cwd=tmp_path, env=subprocess_env())
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert _temporaries(tmp_path) == [] and len(list((tmp_path / "cache").glob("*.json"))) == 2


def test_sigterm_during_an_output_write_leaves_the_old_file(tmp_path: Path) -> None:
    args = ["export", "--content", str(PROJECT_ROOT / "content" / "stationmaster"), "--output", "cards.json"]
    from tests.kit import hang_guard
    from tests.kit.cli import subprocess_env

    first = hang_guard.run([sys.executable, "-m", "command.cli", *args], "export to end", cwd=tmp_path, env=subprocess_env())
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "cards.json").read_bytes()
    done = _stopped_at_write(args, 1, signal.SIGTERM, tmp_path, "export stopped by SIGTERM to end")
    assert done.returncode == 143 and done.stderr.count("\n") == 1, done.stderr
    assert (tmp_path / "cards.json").read_bytes() == before and _temporaries(tmp_path) == []


def test_a_real_sigterm_at_the_prompt_is_handled_as_ctrl_c(tmp_path: Path) -> None:
    """No help from inside: a SIGTERM from outside while ``play`` waits
    for a line ends it as Ctrl-C would, 143 and one line."""
    import time

    from tests.kit.cli import subprocess_env

    child = subprocess.Popen(
        [sys.executable, "-m", "command.cli", *SELF_PLAY["stationmaster"][:-4], "--save", "game.json"],
        cwd=tmp_path, env=subprocess_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        assert os.read(child.stdout.fileno(), 1), "the game started (and with it the handler)"
        time.sleep(0.3)
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 143, err
    assert err.decode().count("\n") == 1 and b"stopped by SIGTERM" in err, err
    assert _temporaries(tmp_path) == []


@pytest.mark.parametrize("link_to", ["loop", "nowhere", "outside"])
def test_a_cache_entry_replaces_a_link_in_its_place(tmp_path: Path, link_to: str) -> None:
    """``through_links=False`` (the sweep cache): a planted link, even a
    loop of links, is replaced by the file, and what it named is untouched."""
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n", encoding="utf-8")
    entry = tmp_path / "cell.json"
    entry.symlink_to({"loop": entry, "nowhere": tmp_path / "missing", "outside": outside}[link_to])
    assert write_whole(entry, b"{}", through_links=False)
    assert not entry.is_symlink() and entry.read_bytes() == b"{}"
    assert outside.read_text(encoding="utf-8") == "keep me\n" and not (tmp_path / "missing").exists()
