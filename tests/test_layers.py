"""The layer contract, and the shared machinery's ignorance of every game.

Imports point one way: command -> generator -> engine -> content loading; the
generator and the engine's shared core never import a game pack; a pack's
content layer never imports its rules. import-linter holds the contracts
written in pyproject.toml; a planted violation shows they can fail.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.packs import known_pack_ids, pack_rules
from tests.kit import hang_guard
from tests.kit.project import PROJECT_ROOT

PACK_FOLDERS = [PROJECT_ROOT / layer / pack for layer in ("engine", "generator", "command") for pack in known_pack_ids()]
SHARED = [
    path
    for path in (*sorted((PROJECT_ROOT / "engine").rglob("*.py")), *sorted((PROJECT_ROOT / "generator").rglob("*.py")), *sorted((PROJECT_ROOT / "generator" / "templates").glob("*.j2")))
    if not any(path.is_relative_to(folder) for folder in PACK_FOLDERS)
]


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "lint-imports"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)}
    return hang_guard.run([exe, "--config", root / "pyproject.toml", "--no-cache"], "lint-imports to end", cwd=root, env=env)


def test_the_import_contracts_hold() -> None:
    done = _lint_imports(PROJECT_ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "5 kept, 0 broken" in done.stdout, done.stdout[-2000:]


def _copy(tmp_path: Path) -> Path:
    for name in ("command", "engine", "generator"):
        shutil.copytree(PROJECT_ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(PROJECT_ROOT / "tests" / "kit", tmp_path / "tests" / "kit", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(PROJECT_ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _plant(root: Path, module: str, imported: str) -> None:
    path = root / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = root / module.replace(".", "/") / "__init__.py"
    path.write_text(path.read_text(encoding="utf-8") + f"\nimport {imported}  # planted\n", encoding="utf-8")


# Each contract, and an import that breaks it; the line the report must hold.
PLANTED = [
    ("command above generator above engine", "engine.errors", "command.cli", "engine.errors -> command.cli"),
    (
        "in every pack, sim above bots above rules and effects above content",
        "engine.stationmaster.rules.state",
        "engine.stationmaster.sim.runner",
        "engine.stationmaster.rules.state -> engine.stationmaster.sim.runner",
    ),
    (
        "in every pack, sim above bots above rules and effects above content",
        "engine.trickoftherails.rules.state",
        "engine.stationmaster.rules.state",
        "pack trickoftherails imports pack stationmaster",
    ),
    ("shared code names no pack", "generator.blocks", "engine.stationmaster.rules.dispatch", "generator.blocks names pack folder engine.stationmaster"),
    ("shared code names no pack", "command.cli", "command.trickoftherails.textview", "command.cli names pack folder command.trickoftherails"),
    ("the shared core sits above content loading", "engine.content.files", "engine.packs", "engine.content.files -> engine.packs"),
    ("content loading reads no rules", "engine.stationmaster.content.model", "engine.stationmaster.rules.state", "engine.stationmaster.content.model -> engine.stationmaster.rules.state"),
]


@pytest.mark.parametrize(("contract", "module", "imported", "said"), PLANTED, ids=[f"{m}->{i}" for _, m, i, _ in PLANTED])
def test_a_planted_import_breaks_its_contract(tmp_path: Path, contract: str, module: str, imported: str, said: str) -> None:
    root = _copy(tmp_path)
    _plant(root, module, imported)
    done = _lint_imports(root)
    assert done.returncode == 1, done.stdout[-2000:]
    assert f"{contract} BROKEN" in done.stdout
    assert said in " ".join(done.stdout.split()), done.stdout[-2000:]


def test_a_new_pack_is_held_to_the_contracts_with_no_edit_to_pyproject(tmp_path: Path) -> None:
    """A third pack, found by its ``pack.py`` alone: its rules importing its
    simulation breaks the rooms contract, and shared code naming it breaks
    the other, though pyproject.toml never names it."""
    root = _copy(tmp_path)
    pack = root / "engine" / "thirdgame"
    for room in ("rules", "sim", "bots", "effects", "content"):
        (pack / room).mkdir(parents=True)
        (pack / room / "__init__.py").write_text("")
    (pack / "__init__.py").write_text("")
    (pack / "pack.py").write_text("import engine.thirdgame.sim\n")
    (pack / "rules" / "__init__.py").write_text("import engine.thirdgame.sim  # planted\n")
    _plant(root, "generator.render", "engine.thirdgame.rules")
    done = _lint_imports(root)
    text = " ".join(done.stdout.split())
    assert done.returncode == 1, done.stdout[-2000:]
    assert "engine.thirdgame.rules is below engine.thirdgame.sim" in text
    assert "generator.render names pack folder engine.thirdgame" in text


def test_no_card_id_or_name_in_the_shared_machinery() -> None:
    """Card ids as quoted literals, card names as words (case counts), in every
    pack's catalog: none may appear in the engine's shared core or the
    generator, comments and docstrings included."""
    found = []
    for pack_id in known_pack_ids():
        catalog = pack_rules(pack_id).load_catalog(PROJECT_ROOT / "content" / pack_id)
        ids = {card.id for card in catalog.cards}
        names = {card.name for card in catalog.cards}
        for path in SHARED:
            text = path.read_text(encoding="utf-8")
            for card_id in ids:
                if re.search(rf"""["']{re.escape(card_id)}["']""", text):
                    found.append(f"{path.relative_to(PROJECT_ROOT)}: card id {card_id!r}")
            for name in names:
                if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
                    found.append(f"{path.relative_to(PROJECT_ROOT)}: card name {name!r}")
    assert not found, "\n".join(found)
