"""Planted cache entries run nothing and decide nothing (issue 23, point 1).

The kit once kept catalogs, schema verdicts, lint facts and compiled
templates as pickles inside the checkout (``__pycache__`` folders beside the
code), and a passing ``check``'s verdict in the user's cache folder: a
planted pickle ran code during ``validate``, and a planted entry made broken
content report "ok". Here the kit runs from a scratch copy of its code, on a
scratch copy of the project, with a cache folder of its own:

- after a first run of each command (which, in the old code, fills every
  cache at the very names the next run reads), every entry in every old
  cache location, and a new one in each, is replaced by a pickle whose
  loading creates a marker file; the commands then run again and no marker
  may appear;
- with the content or a page broken, every name the kit looked up in its
  cache folder, and every entry it wrote there, is replaced by a forged,
  well-formed entry saying "all is well"; ``check`` and ``validate`` must
  still find the fault.
"""

from __future__ import annotations

import json
import pickle
import shutil
import sys
from pathlib import Path

import pytest
from jinja2.bccache import bc_magic

from tests.kit import hang_guard
from tests.kit.cli import subprocess_env
from tests.kit.project import PROJECT_ROOT, copy_project, edit

COMMANDS = (["validate"], ["check"], ["cards"])
# Where the old kit kept pickles, relative to its code folder.
OLD_PICKLE_FOLDERS = ("engine/content/__pycache__/catalogs", "engine/content/__pycache__/schema-verdicts", "generator/__pycache__/lint")
# Jinja's compiled templates, one folder per set of options.
OLD_TEMPLATE_CACHE = "generator/templates/__pycache__"

# Runs the kit with an audit hook that notes every file it opens in its
# cache folder: the names it looks up, found or not.
DRIVER = """
import os, sys
root = os.path.join(os.environ["XDG_CACHE_HOME"], "stationmaster")
log = open(sys.argv[1], "a", encoding="utf-8")
def noted(event, args):
    if event == "open" and isinstance(args[0], str) and args[0].startswith(root):
        log.write(args[0] + "\\n")
        log.flush()
sys.addaudithook(noted)
from command.cli import main
sys.exit(main(sys.argv[2:]))
"""


class _Plant:
    """Unpickled, it creates ``marker``: a stand-in for any code at all."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return open, (str(self.marker), "w")


class Kit:
    """The kit's code copied to ``root / "code"``, a project at
    ``root / "project"`` and a cache folder at ``root / "xdg"``."""

    def __init__(self, root: Path) -> None:
        self.code = root / "code"
        for folder in ("engine", "generator", "command"):
            shutil.copytree(PROJECT_ROOT / folder, self.code / folder, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(PROJECT_ROOT / "pyproject.toml", self.code / "pyproject.toml")
        self.project = copy_project(PROJECT_ROOT, root / "project")
        self.cache = root / "xdg"
        self.log = root / "opened.txt"
        self.marker = root / "MARKER-code-ran"

    def run(self, args: list[str]) -> tuple[int, str]:
        env = subprocess_env(PYTHONPATH=str(self.code), XDG_CACHE_HOME=str(self.cache))
        env.pop("STATIONMASTER_CACHE", None)
        done = hang_guard.run([sys.executable, "-c", DRIVER, str(self.log), *args], f"stationmaster {' '.join(args)} to end", cwd=self.project, env=env)
        assert "Traceback" not in done.stderr, done.stderr[-3000:]
        return done.returncode, done.stdout + done.stderr

    def looked_up(self) -> set[Path]:
        """Every file the runs so far opened in the cache folder, and every one there now."""
        named = {Path(line) for line in self.log.read_text(encoding="utf-8").splitlines() if line.endswith(".json")} if self.log.exists() else set()
        return named | {p for p in (self.cache / "stationmaster").rglob("*.json")}


@pytest.fixture
def kit(tmp_path: Path) -> Kit:
    return Kit(tmp_path)


def _plant_pickles(kit: Kit) -> int:
    """Replace every entry in every old cache location, and add one to
    each, with a pickle that creates the marker; how many were planted."""
    payload = pickle.dumps(_Plant(kit.marker), protocol=2)
    planted = 0
    for folder in (kit.code / name for name in OLD_PICKLE_FOLDERS):
        folder.mkdir(parents=True, exist_ok=True)
        for entry in [*folder.glob("*.pickle"), folder / ("0" * 64 + ".pickle")]:
            entry.write_bytes(payload)
            planted += 1
    templates = kit.code / OLD_TEMPLATE_CACHE
    folders = [p for p in templates.glob("jinja-*") if p.is_dir()] or [templates / "jinja-0000000000000000"]
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        # Jinja checks this header, then unpickles the template's checksum.
        for entry in [*folder.glob("*.cache"), folder / "__jinja2_planted.cache"]:
            entry.write_bytes(bc_magic + payload)
            planted += 1
    # And where the kit keeps its speed-ups now: a pickle is not JSON.
    for entry in kit.looked_up():
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_bytes(payload)
        planted += 1
    return planted


def test_a_planted_pickle_at_any_old_cache_location_runs_nothing(kit: Kit) -> None:
    for args in COMMANDS:
        code, said = kit.run(args)
        assert code in (0, 1), said
    assert _plant_pickles(kit) >= 7
    for args in COMMANDS:
        code, said = kit.run(args)
        assert not kit.marker.exists(), f"stationmaster {' '.join(args)} ran code from a planted cache entry"
        assert code in (0, 1), said


def _forged(entry: Path) -> bytes:
    """A well-formed entry for ``entry``'s kind and key that says all is well."""
    kind, key = entry.parent.name, entry.stem
    if kind == "checked":  # the old verdict of a passing check
        value: object = {"lines": ["site/stationmaster/: 9 pages and 31 tables agree with content/stationmaster/"], "stale": []}
        return json.dumps(value).encode()
    value = "0" * 64 if kind == "behaviour" else {"ok": True, "problems": [], "lines": [], "stale": []}
    return json.dumps({"format": "stationmaster-cache-1", "kind": kind, "key": key, "value": value}).encode()


def _break_content(project: Path) -> str:
    edit(project / "content/stationmaster/game.yaml", "  handLimit: 3", "  handLimit: many")
    return "handLimit"


def _break_page(project: Path) -> str:
    page = project / "site/stationmaster/home-deck.md"
    page.write_text(page.read_text(encoding="utf-8").replace("| yes |", "| no |", 1), encoding="utf-8")
    return "home-deck.md"


@pytest.mark.parametrize("damage", [_break_content, _break_page], ids=["broken-content", "hand-edited-page"])
def test_forged_entries_in_the_cache_folder_cannot_make_a_fault_pass(kit: Kit, damage: object) -> None:
    assert callable(damage)
    for args in (["cards"], ["check"]):
        assert kit.run(args)[0] == 0  # clean: every cache the kit keeps is filled
    said = damage(kit.project)
    commands = [["check"], ["validate"]] if said == "handLimit" else [["check"]]
    for args in commands:
        code, _ = kit.run(args)
        assert code == 1
    forged = kit.looked_up()
    assert forged, "the kit keeps nothing in its cache folder at all"
    for entry in forged:
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        entry.write_bytes(_forged(entry))
        entry.chmod(0o600)
    for args in commands:
        code, output = kit.run(args)
        assert code == 1 and said in output, f"stationmaster {' '.join(args)} took a forged cache entry's word:\n{output}"
