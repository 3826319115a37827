"""Nothing the kit is pointed at can hang it, exhaust its memory, be skipped
in silence or fake a problem's location: every user-named file and folder is
read through ``engine.content.files``.

What each test guards, and how the code before that reader failed it:

- a folder under content/ that cannot be listed was passed over (validate
  said ok, ``cards`` rewrote the pages without its cards); an unlistable
  schema/ gave a dozen misleading problems; an unlistable content/ was an
  internal error (exit 3);
- a FIFO in content/ or as a schema, or named by ``play --load``/``--save``,
  hung the command; a link to /dev/zero read until memory ran out; ``save
  /dev/full`` at the play prompt read zeros without end;
- a file name holding a line break or ``:99:1: `` forged a problem line;
- a path too long for the system was an internal error (exit 3).

Anything that hung before runs in a child process under the hang guard (and a
memory limit), so a regression fails instead of blocking the suite. Where
permissions cannot bite (the tests run as root in CI), the refusal is made
by patching ``os.scandir`` / ``os.open`` for one path, as the system would.
"""

from __future__ import annotations

import errno
import io
import os
import resource
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from command import play
from command.stationmaster import session
from engine.content import files
from engine.stationmaster import load_catalog
from engine.stationmaster.rules.game import Game
from tests.kit import hang_guard
from tests.kit.cli import PROBLEM_LINE, CliResult, RunCli, subprocess_env
from tests.kit.project import PROJECT_ROOT, snapshot

MEMORY_GUARD = 2 * 1024**3  # bytes of address space a child may use
LONG_NAME = "x" * 5000


class Child(NamedTuple):
    code: int
    out: str
    err: str


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_GUARD, MEMORY_GUARD))


def child(args: list[str], cwd: Path, stdin: str = "") -> Child:
    """``stationmaster ARGS`` in a child process in ``cwd``: a hang fails the
    test at the hang guard, and runaway reading ends in MemoryError."""
    proc = hang_guard.run(
        [sys.executable, "-m", "command.cli", *args],
        f"stationmaster {' '.join(args)} to end",
        cwd=cwd,
        env=subprocess_env(STATIONMASTER_CACHE="1"),
        input=stdin,
        preexec_fn=_limits,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return Child(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def two_packs(tmp_path: Path) -> Path:
    """A private copy of both packs' content at ``tmp_path / "content"``."""
    shutil.copytree(PROJECT_ROOT / "content", tmp_path / "content")
    return tmp_path / "content"


def deny(monkeypatch: pytest.MonkeyPatch, *paths: Path) -> None:
    """Make listing or opening ``paths`` fail with EACCES, as a mode-000
    folder or file does for anyone but root."""
    denied = {os.path.abspath(p) for p in paths}
    real_scandir, real_open = os.scandir, os.open

    def refused(path: Any) -> bool:
        return isinstance(path, (str, os.PathLike)) and os.path.abspath(os.fspath(path)) in denied

    def scandir(path: Any = ".") -> Any:
        if refused(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    def open_(path: Any, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        if refused(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "open", open_)


@pytest.fixture
def mode_000(request: pytest.FixtureRequest) -> Iterator[list[Path]]:
    """Paths a test makes mode 000; their modes are put back afterwards."""
    made: list[Path] = []
    yield made
    for path in made:
        path.chmod(0o755)


def chmod_000(made: list[Path], path: Path) -> None:
    path.chmod(0)
    made.append(path)
    if os.access(path, os.R_OK):
        # root (with CAP_DAC_OVERRIDE) reads it anyway; the patched variant
        # covers this case there. ``setpriv --bounding-set
        # -dac_override,-dac_read_search`` runs these as a root that permissions stop.
        pytest.skip("running as a user whom permissions do not stop (root)")


def one_line_error(result: CliResult | Child, code: int) -> str:
    assert result.code == code, result
    assert result.err.count("\n") == 1, result.err
    return result.err


# -- folders that cannot be listed ------------------------------------------------------


def test_an_unlistable_folder_in_a_pack_is_a_usage_error_not_skipped(two_packs: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    deny(monkeypatch, two_packs / "stationmaster" / "home-deck")
    err = one_line_error(run_cli(["validate"], two_packs.parent), 2)
    assert "content/stationmaster/home-deck: cannot read it: permission denied" in err


def test_an_unlistable_folder_in_a_pack_mode_000(two_packs: Path, run_cli: RunCli, mode_000: list[Path]) -> None:
    chmod_000(mode_000, two_packs / "stationmaster" / "home-deck")
    err = one_line_error(run_cli(["validate"], two_packs.parent), 2)
    assert "content/stationmaster/home-deck: cannot read it: permission denied" in err


def test_cards_writes_nothing_from_partly_read_content(project: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshot(project / "site")
    deny(monkeypatch, project / "content" / "stationmaster" / "home-deck")
    result = run_cli(["cards"], project)
    assert result.code == 2, result
    assert "home-deck: cannot read it: permission denied" in result.err
    assert snapshot(project / "site") == before


def test_an_unlistable_schema_folder_is_one_error(two_packs: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    deny(monkeypatch, two_packs / "stationmaster" / "schema")
    result = run_cli(["validate", "content/stationmaster"], two_packs.parent)
    err = one_line_error(result, 2)
    assert result.out == ""
    assert "content/stationmaster/schema: cannot read it: permission denied" in err


def test_an_unlistable_schema_folder_mode_000(two_packs: Path, run_cli: RunCli, mode_000: list[Path]) -> None:
    chmod_000(mode_000, two_packs / "stationmaster" / "schema")
    result = run_cli(["validate", "content/stationmaster"], two_packs.parent)
    assert one_line_error(result, 2) and result.out == ""


def test_an_unlistable_content_folder_is_a_usage_error(two_packs: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    deny(monkeypatch, two_packs)
    err = one_line_error(run_cli(["validate"], two_packs.parent), 2)
    assert "content: cannot read it: permission denied" in err


def test_an_unlistable_content_folder_mode_000(two_packs: Path, run_cli: RunCli, mode_000: list[Path]) -> None:
    chmod_000(mode_000, two_packs)
    one_line_error(run_cli(["validate"], two_packs.parent), 2)


def test_an_unopenable_content_file_is_a_usage_error(two_packs: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    deny(monkeypatch, two_packs / "stationmaster" / "effects.yaml")
    err = one_line_error(run_cli(["validate"], two_packs.parent), 2)
    assert "content/stationmaster/effects.yaml: cannot read it: permission denied" in err


# -- FIFOs, devices and endless files ----------------------------------------------------


def test_a_fifo_in_the_content_is_a_located_problem(two_packs: Path) -> None:
    os.mkfifo(two_packs / "stationmaster" / "pipe.yaml")
    result = child(["validate"], two_packs.parent)
    assert result.code == 1, result
    assert "content/stationmaster/pipe.yaml: is a FIFO (named pipe), not a file" in result.out


def test_a_fifo_as_a_schema_is_a_located_problem(two_packs: Path) -> None:
    os.mkfifo(two_packs / "stationmaster" / "schema" / "pipe.schema.json")
    result = child(["validate"], two_packs.parent)
    assert result.code == 1, result
    assert "content/stationmaster/schema/pipe.schema.json: is a FIFO (named pipe), not a file" in result.out


def test_a_link_to_dev_zero_in_the_content_is_a_located_problem(two_packs: Path) -> None:
    (two_packs / "trickoftherails" / "zero.yaml").symlink_to("/dev/zero")
    result = child(["validate"], two_packs.parent)
    assert result.code == 1, result
    assert "content/trickoftherails/zero.yaml: is a device (a character device), not a file" in result.out


def test_a_link_to_nothing_or_a_loop_of_links_is_a_located_problem(two_packs: Path, run_cli: RunCli) -> None:
    (two_packs / "stationmaster" / "dangling.yaml").symlink_to("nowhere.yaml")
    (two_packs / "stationmaster" / "loop.yaml").symlink_to("loop.yaml")
    result = run_cli(["validate"], two_packs.parent)
    assert result.code == 1, result
    assert result.out.splitlines() == [
        "content/stationmaster/dangling.yaml: is a symbolic link to nothing (its target does not exist)",
        "content/stationmaster/loop.yaml: is a loop of symbolic links (or a chain too long to follow)",
    ]


def test_a_link_to_the_root_folder_in_the_content_is_a_located_problem(two_packs: Path) -> None:
    # It used to walk the whole file system (a hang).
    (two_packs / "stationmaster" / "everything").symlink_to("/")
    result = child(["validate"], two_packs.parent)
    assert result.code == 1, result
    assert "content/stationmaster/everything: is a link to a folder outside the content (/): link only to folders inside it, or copy the files in; the files in it were not read" in result.out


def test_a_fifo_as_game_yaml_is_a_located_problem(two_packs: Path) -> None:
    game = two_packs / "trickoftherails" / "game.yaml"
    game.unlink()
    os.mkfifo(game)
    result = child(["validate"], two_packs.parent)
    assert result.code == 1, result
    assert "content/trickoftherails/game.yaml: is a FIFO (named pipe), not a file" in result.out


def test_a_fifo_among_the_pages_is_a_usage_error(project: Path) -> None:
    os.mkfifo(project / "site" / "stationmaster" / "pipe.md")
    result = child(["check"], project)
    assert result.code == 2, result
    assert "pipe.md: is a FIFO (named pipe), not a file" in result.err


def test_a_fifo_as_a_kit_page_is_a_usage_error(project: Path) -> None:
    os.mkfifo(project / "site" / "pipe.md")
    result = child(["check"], project)
    assert result.code == 2, result
    assert "pipe.md: is a FIFO (named pipe), not a file" in result.err


def test_export_never_replaces_a_fifo_named_as_its_output(tmp_path: Path) -> None:
    # (Renaming over it would turn it into a plain file; as root, the same
    # rename over /dev/full would replace the device.)
    os.mkfifo(tmp_path / "out.json")
    result = child(["export", "--content", str(PROJECT_ROOT / "content" / "stationmaster"), "--output", "out.json"], tmp_path)
    assert "cannot write out.json: it is a FIFO (named pipe), not a file; nothing was written" in one_line_error(result, 2)
    assert (tmp_path / "out.json").is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


@pytest.mark.parametrize("game", ["stationmaster", "trickoftherails"])
@pytest.mark.parametrize("flag", ["--load", "--save"])
def test_play_refuses_a_fifo_as_its_save(tmp_path: Path, flag: str, game: str) -> None:
    os.mkfifo(tmp_path / "pipe")
    result = child(["play", "--game", game, "--content", str(PROJECT_ROOT / "content" / game), flag, "pipe"], tmp_path, "quit\n")
    err = one_line_error(result, 2)
    assert "pipe" in err and "is a FIFO (named pipe), not a file" in err


@pytest.mark.parametrize("target", ["/dev/full", "/dev/null", "/dev/zero"])
def test_play_refuses_a_device_as_its_save(tmp_path: Path, target: str) -> None:
    result = child(["play", "--content", str(PROJECT_ROOT / "content" / "stationmaster"), "--save", target], tmp_path, "quit\n")
    assert "is a device" in one_line_error(result, 2)


def test_play_refuses_to_load_a_link_to_dev_zero(tmp_path: Path) -> None:
    (tmp_path / "game.json").symlink_to("/dev/zero")
    result = child(["play", "--content", str(PROJECT_ROOT / "content" / "stationmaster"), "--load", "game.json"], tmp_path, "quit\n")
    assert "game.json: is a device" in one_line_error(result, 2)


def test_save_at_the_prompt_refuses_devices_fifos_and_folders(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    typed = "save /dev/full\nsave pipe\nsave .\nquit\n"
    result = child(["play", "--content", str(PROJECT_ROOT / "content" / "stationmaster")], tmp_path, typed)
    assert result.code == 0, result
    errors = [line.partition("> ")[2] for line in result.out.splitlines() if "error: " in line]
    assert errors == [
        "error: could not save to /dev/full: it is a device (a character device), not a file",
        "error: could not save to pipe: it is a FIFO (named pipe), not a file",
        "error: could not save to .: it is a directory",
    ]


def test_save_into_a_folder_that_cannot_be_written_is_refused_up_front(tmp_path: Path, mode_000: list[Path]) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    mode_000.append(folder)  # its mode is put back afterwards
    if os.access(folder, os.W_OK):
        pytest.skip("running as a user whom permissions do not stop (root)")
    result = play.run(argparse_namespace(save=str(folder / "game.json"), load=None), stdin=io.StringIO("quit\n"), stdout=io.StringIO(), stderr=(err := io.StringIO()))
    assert result == 2
    assert err.getvalue() == f"stationmaster play: --save {folder}/game.json: cannot save there: the folder {folder} cannot be written (permission denied)\n"
    assert list(folder.iterdir()) == []


# -- a failing write leaves the save whole --------------------------------------------------


def test_a_failing_write_leaves_the_existing_save_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A guard rather than a fix: the write was already atomic; it now lives
    # in engine.saves and must stay so.
    catalog = load_catalog(PROJECT_ROOT / "content" / "stationmaster")
    save = tmp_path / "game.json"
    play.write_save(Game(catalog, players=1, seed=1), save, session.SAVES)
    before = save.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    args = argparse_namespace(save=str(save), load=None)
    out = io.StringIO()
    assert play.run(args, stdin=io.StringIO("d\nquit\n"), stdout=out, stderr=io.StringIO()) == 0
    assert f"could not save to {save}: No space left on device" in out.getvalue()
    assert save.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def argparse_namespace(**given: Any) -> Any:
    import argparse

    values: dict[str, Any] = {"content": str(PROJECT_ROOT / "content" / "stationmaster"), "seed": None, "players": None, "house_rules": None, "bots": None, "bot": None}
    values.update(given)
    return argparse.Namespace(**values)


# -- names that would break a report -----------------------------------------------------------


def test_a_file_name_cannot_forge_a_location_or_a_line(content_copy: Path, run_cli: RunCli) -> None:
    (content_copy / "a.yaml:99:1: forged").write_text("x: 1\n")
    (content_copy / "b\nc.yaml:7:7: forged").write_text("x: 1\n")
    result = run_cli(["validate", "content"], content_copy.parent)
    assert result.code == 1, result
    lines = result.out.splitlines()
    assert result.err.startswith(f"{len(lines)} problem(s)")
    located = [PROBLEM_LINE.match(line) for line in lines]
    assert all(located), lines
    assert {(m["path"], m["line"]) for m in located if m} == {('"content/a.yaml\\x3a99\\x3a1\\x3a forged"', "1"), ('"content/b\\nc.yaml\\x3a7\\x3a7\\x3a forged"', "1")}


def test_shown_paths() -> None:
    assert files.shown("content/stationmaster/trains.yaml") == "content/stationmaster/trains.yaml"
    assert files.shown("with space/ok.yaml") == "with space/ok.yaml"
    assert files.shown("a\tb\x1b.yaml") == '"a\\tb\\x1b.yaml"'
    assert files.shown('q"uote\\back') == '"q\\"uote\\\\back"'
    assert files.shown(os.fsdecode(b"bad\xff.yaml")) == '"bad\\xff.yaml"'


@pytest.mark.parametrize(
    "args",
    [
        ["validate", LONG_NAME],
        ["export", "--content", LONG_NAME],
        ["play", "--content", LONG_NAME],
        ["play", "--load", LONG_NAME],
        ["play", "--save", LONG_NAME],
        ["play", "--save", f"{LONG_NAME}/game.json"],
    ],
    ids=["validate", "export", "play-content", "load", "save", "save-in-folder"],
)
def test_a_path_too_long_for_the_system_is_a_usage_error(tmp_path: Path, run_cli: RunCli, args: list[str]) -> None:
    if args[0] == "play" and "--content" not in args:
        args = [*args[:1], "--content", str(PROJECT_ROOT / "content" / "stationmaster"), *args[1:]]
    result = run_cli(args, tmp_path)
    err = one_line_error(result, 2)
    assert "too long" in err or "no such" in err or "does not exist" in err, err


# -- the reader itself ----------------------------------------------------------------------------


def test_the_reader_refuses_past_its_limit_and_reads_up_to_it(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"a" * 100)
    assert files.read_bytes(path, limit=100) == b"a" * 100
    with pytest.raises(files.Unreadable) as refused:
        files.read_bytes(path, limit=99)
    assert "is larger than" in str(refused.value)


def test_the_reader_names_what_is_not_a_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "nowhere").symlink_to(tmp_path / "missing")
    cases = {"pipe": "is a FIFO (named pipe), not a file", "zero": "is a device (a character device), not a file", ".": "is a folder, not a file", "nowhere": "is a symbolic link to nothing"}
    for name, words in cases.items():
        with pytest.raises(files.Unreadable) as refused:
            files.read_bytes(tmp_path / name)
        assert words in refused.value.reason


def test_the_walk_reports_a_link_back_to_a_folder_it_is_in(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "loop").symlink_to(tmp_path)
    (tmp_path / "a" / "f.yaml").write_text("")
    listing = files.walk(tmp_path)
    assert listing.files == [tmp_path / "a" / "f.yaml"]
    assert [Path(u.path) for u in listing.unreadable] == [tmp_path / "a" / "loop"]


def _links_at_every_level(root: Path, levels: int) -> None:
    """``root/d0 .. d{levels}``, each ``d<i>`` holding a file and two links,
    ``a`` and ``b``, to the next: followed blindly, 2**levels folders."""
    for level in range(levels + 1):
        (root / f"d{level}").mkdir()
        (root / f"d{level}" / "f.yaml").write_text("")
    for level in range(levels):
        for name in ("a", "b"):
            (root / f"d{level}" / name).symlink_to(root / f"d{level + 1}")


def test_the_walk_reads_each_real_folder_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _links_at_every_level(tmp_path, 12)
    listed: list[str] = []
    real_scandir = os.scandir

    def counting(path: Any) -> Any:
        listed.append(os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", counting)
    listing = files.walk(tmp_path)
    # The top, d0..d12 by their own names; each reached again through a link
    # is reported once, not read.
    assert len(listed) == 1 + 13
    assert len(listing.files) == 13
    assert all("read already" in u.reason for u in listing.unreadable)


def test_the_walk_refuses_a_link_to_a_folder_outside_the_content(tmp_path: Path) -> None:
    content = tmp_path / "content"
    (content / "home").mkdir(parents=True)
    (content / "home" / "f.yaml").write_text("")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "g.yaml").write_text("")
    (content / "home" / "everything").symlink_to("/")
    (content / "home" / "beside").symlink_to(tmp_path / "elsewhere")
    (content / "inner").symlink_to("home")  # inside: followed (and read once)
    listing = files.walk(content)
    assert listing.files == [content / "home" / "f.yaml"]
    refused = {Path(u.path): u.reason for u in listing.unreadable}
    assert set(refused) == {content / "home" / "everything", content / "home" / "beside", content / "inner"}
    assert "outside the content (/)" in refused[content / "home" / "everything"]
    assert "outside the content" in refused[content / "home" / "beside"]
    assert "read already" in refused[content / "inner"]
    assert not any(u.refused for u in listing.unreadable)
