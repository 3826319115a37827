"""``engine.atomic.write_whole``, the one writer behind pages, saves, sweep
cells and every ``--output``: whole or not at all, through a symbolic link,
keeping a file's permissions (a new file gets what the umask allows, not a
temporary file's private 0600), and never over text saved since it was read.
Also the progress line those commands draw, which must not leave the tail of
a longer line on the screen."""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from command.output import ProgressLine, emit
from engine.atomic import TEMP_SUFFIX, write_whole
from engine.saves import write_text


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
    target.write_text("old\n", encoding="utf-8")
    os.chmod(target, 0o640)
    emit("new\n", str(target))
    assert target.read_text(encoding="utf-8") == "new\n" and _mode(target) == 0o640


def test_an_output_through_a_link_is_written_to_the_file_it_names(tmp_path: Path, umask_022: None) -> None:
    real = tmp_path / "kept" / "report.json"
    real.parent.mkdir()
    real.write_text("", encoding="utf-8")
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
