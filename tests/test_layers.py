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

import hang_guard
from engine.packs import known_pack_ids, pack_rules

ROOT = Path(__file__).resolve().parent.parent
SHARED = [
    *sorted((ROOT / "engine").glob("*.py")),
    *sorted((ROOT / "engine" / "content").rglob("*.py")),
    *sorted((ROOT / "engine" / "effects").rglob("*.py")),
    *sorted((ROOT / "generator").rglob("*.py")),
    *sorted((ROOT / "generator" / "templates").glob("*.j2")),
]


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "lint-imports"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)}
    return hang_guard.run([exe, "--config", root / "pyproject.toml", "--no-cache"], "lint-imports to end", cwd=root, env=env)


def test_the_import_contracts_hold() -> None:
    done = _lint_imports(ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "5 kept, 0 broken" in done.stdout, done.stdout[-2000:]


def test_a_generator_module_that_imports_a_pack_breaks_the_contract(tmp_path: Path) -> None:
    for name in ("command", "engine", "generator"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    blocks = tmp_path / "generator" / "blocks.py"
    blocks.write_text(blocks.read_text(encoding="utf-8") + "\nimport engine.stationmaster.rules  # planted\n", encoding="utf-8")
    done = _lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout[-2000:]
    assert "shared machinery names no game BROKEN" in done.stdout
    assert "generator.blocks -> engine.stationmaster.rules" in done.stdout


def test_no_card_id_or_name_in_the_shared_machinery() -> None:
    """Card ids as quoted literals, card names as words (case counts), in every
    pack's catalog: none may appear in the engine's shared core or the
    generator, comments and docstrings included."""
    found = []
    for pack_id in known_pack_ids():
        catalog = pack_rules(pack_id).load_catalog(ROOT / "content" / pack_id)
        ids = {card.id for card in catalog.cards}
        names = {card.name for card in catalog.cards}
        for path in SHARED:
            text = path.read_text(encoding="utf-8")
            for card_id in ids:
                if re.search(rf"""["']{re.escape(card_id)}["']""", text):
                    found.append(f"{path.relative_to(ROOT)}: card id {card_id!r}")
            for name in names:
                if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
                    found.append(f"{path.relative_to(ROOT)}: card name {name!r}")
    assert not found, "\n".join(found)
