"""The What changed page: made from the editions a pack marks, and kept as
committed, without failing, where the git history it is made from is missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.editions import read_editions
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT


@pytest.mark.parametrize("pack", ["stationmaster", "trickoftherails"])
def test_each_pack_marks_editions_and_its_page_lists_them(pack: str) -> None:
    editions = read_editions(PROJECT_ROOT / "content" / pack)
    assert len(editions) >= 2
    page = (PROJECT_ROOT / "site" / pack / "changes.md").read_text(encoding="utf-8")
    for edition in editions:
        assert f"### Edition {edition.number} ({edition.date})" in page
        assert f"`{edition.revision[:12]}`" in page
    assert "Since edition 1:" in page


def test_check_passes_in_a_copy_without_git_history(tmp_path: Path, run_cli: RunCli) -> None:
    """A copy with no .git (a tarball, a CI cache): the pages cannot be remade
    from history, so the committed ones stand and ``check`` still passes;
    a changed content stamp only means a note, never a false failure."""
    for part in ("content", "site"):
        shutil.copytree(PROJECT_ROOT / part, tmp_path / part)
    code, out, err = run_cli(["check"], tmp_path)
    assert code == 0, out + err
    trains = tmp_path / "content" / "trickoftherails" / "editions.yaml"
    trains.write_text(trains.read_text(encoding="utf-8") + "# a comment changes the content's fingerprint\n", encoding="utf-8")
    code, out, err = run_cli(["cards"], tmp_path)
    assert code == 0, out + err
    assert "note: table 'changes' kept as committed:" in err and "not in a git repository" in err
    assert (tmp_path / "site/trickoftherails/changes.md").read_text(encoding="utf-8") == (PROJECT_ROOT / "site/trickoftherails/changes.md").read_text(encoding="utf-8")


def test_an_edition_whose_revision_is_not_here_is_a_validate_or_check_matter(tmp_path: Path, run_cli: RunCli) -> None:
    for part in ("content", "site"):
        shutil.copytree(PROJECT_ROOT / part, tmp_path / part)
    editions = tmp_path / "content" / "trickoftherails" / "editions.yaml"
    editions.write_text(editions.read_text(encoding="utf-8").replace("revision: e08539c", "revision: E08539C", 1), encoding="utf-8")
    code, out, err = run_cli(["validate"], tmp_path)
    assert code == 1 and "editions.yaml:" in out and "revision" in out
