"""Every ``--output`` follows one rule (``engine.targets``): a new file, or
an output stationmaster wrote there itself and nobody changed since, may be
written; content, pages, and any other existing file are refused in one
located line, exit 2, unless ``--force`` (issue 23, point 9)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT

SM = str(PROJECT_ROOT / "content" / "stationmaster")
COMMANDS = {
    "export": ["export", "--content", SM],
    "changelog": ["changelog", "HEAD"],
    "sweep": ["sweep", "--content", SM, "--games", "1", "--no-cache"],
}


def _refused(err: str, name: str) -> None:
    assert err.count("\n") == 1, err
    assert f"cannot write {name}: the file exists and is not an output stationmaster wrote there" in err, err
    assert "give --force" in err


def test_export_never_replaces_a_game_file(content_copy: Path, run_cli: RunCli) -> None:
    game = content_copy / "game.yaml"
    before = game.read_bytes()
    code, out, err = run_cli(["export", "--content", str(content_copy), "--output", "content/game.yaml"], content_copy.parent)
    assert (code, out) == (2, "")
    _refused(err, "content/game.yaml")
    assert game.read_bytes() == before


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_output_refuses_a_file_it_did_not_write(tmp_path: Path, run_cli: RunCli, command: str) -> None:
    mine = tmp_path / "notes.md"
    mine.write_text("my own notes\n", encoding="utf-8")
    code, out, err = run_cli([*COMMANDS[command], "--output", "notes.md"], tmp_path)
    assert (code, out) == (2, "")
    _refused(err, "notes.md")
    assert mine.read_text(encoding="utf-8") == "my own notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.md"], "refused before any work: no cache, no temporary file"


def test_a_page_of_the_site_is_refused(tmp_path: Path, run_cli: RunCli) -> None:
    site = tmp_path / "site"
    shutil.copytree(PROJECT_ROOT / "site" / "kit", site)
    page = next(site.glob("*.md"))
    before = page.read_bytes()
    code, _, err = run_cli(["export", "--content", SM, "--output", f"site/{page.name}"], tmp_path)
    assert code == 2
    _refused(err, f"site/{page.name}")
    assert page.read_bytes() == before


def test_an_output_written_by_the_kit_may_be_written_again_until_edited(tmp_path: Path, run_cli: RunCli) -> None:
    first = run_cli(["export", "--content", SM, "--output", "cards.json"], tmp_path)
    assert first.code == 0, first.err
    again = run_cli(["export", "--content", SM, "--output", "cards.json"], tmp_path)
    assert again.code == 0, again.err
    out = tmp_path / "cards.json"
    out.write_text(out.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # edited by hand since
    edited = run_cli(["export", "--content", SM, "--output", "cards.json"], tmp_path)
    assert edited.code == 2
    _refused(edited.err, "cards.json")
    forced = run_cli(["export", "--content", SM, "--output", "cards.json", "--force"], tmp_path)
    assert forced.code == 0 and not out.read_text(encoding="utf-8").endswith("\n\n")


def test_force_never_replaces_a_folder_or_a_fifo(tmp_path: Path, run_cli: RunCli) -> None:
    import os

    (tmp_path / "adir").mkdir()
    os.mkfifo(tmp_path / "pipe")
    for name, words in (("adir", "it is a directory"), ("pipe", "it is a FIFO (named pipe), not a file")):
        code, _, err = run_cli(["export", "--content", SM, "--output", name, "--force"], tmp_path)
        assert code == 2 and err.count("\n") == 1 and f"cannot write {name}: {words}; nothing was written" in err, err
