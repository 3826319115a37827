"""Anything directly under content/ that is in no pack is a located problem:
a stray YAML file, a card file saved one folder too high, a README, a FIFO,
a link to a device or to nothing. Before, ``validate`` and ``check`` read
only the pack folders and said "ok" over all of these."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.kit.fuzz import call, scratch
from tests.kit.project import PROJECT_ROOT

pytestmark = pytest.mark.xdist_group("stray-entries")


def _yaml(root: Path) -> str:
    (root / "content" / "notes.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    return "content/notes.yaml"


def _too_high(root: Path) -> str:
    shutil.copy(root / "content" / "stationmaster" / "home-deck" / "trains.yaml", root / "content" / "trains.yaml")
    return "content/trains.yaml"


def _readme(root: Path) -> str:
    (root / "content" / "README").write_text("The packs live here.\n", encoding="utf-8")
    return "content/README"


def _fifo(root: Path) -> str:
    os.mkfifo(root / "content" / "pipe.yaml")
    return "content/pipe.yaml"


def _device(root: Path) -> str:
    (root / "content" / "zero.yaml").symlink_to("/dev/zero")
    return "content/zero.yaml"


def _dangling(root: Path) -> str:
    (root / "content" / "gone.yaml").symlink_to("nowhere.yaml")
    return "content/gone.yaml"


STRAYS: dict[str, Callable[[Path], str]] = {
    "broken-yaml": _yaml,
    "card-file-one-folder-too-high": _too_high,
    "readme": _readme,
    "fifo": _fifo,
    "link-to-a-device": _device,
    "link-to-nothing": _dangling,
}


@pytest.mark.parametrize("command", ["validate", "check"])
@pytest.mark.parametrize("stray", list(STRAYS))
def test_a_stray_entry_beside_the_packs_is_a_problem(stray: str, command: str) -> None:
    with scratch(PROJECT_ROOT, ["content", "site", "mkdocs.yml"]) as root:
        where = STRAYS[stray](root)
        fifos = [path for path in (root / "content").iterdir() if path.is_fifo()]
        outcome = call([command], root, fifos=fifos)
    assert not outcome.hung, str(outcome)
    assert outcome.code == 1, str(outcome)
    lines = [line for line in outcome.out.splitlines() if line.startswith(f"{where}: ")]
    assert lines and "not inside a pack" in lines[0], str(outcome)
    assert "Traceback" not in outcome.output


def test_a_hidden_file_beside_the_packs_is_left_alone(tmp_path: Path) -> None:
    # Editors and file managers leave these (.DS_Store); the walk inside a
    # pack passes over them too.
    with scratch(PROJECT_ROOT, ["content"]) as root:
        (root / "content" / ".DS_Store").write_bytes(b"\0\1")
        outcome = call(["validate"], root)
    assert outcome.code == 0, str(outcome)
