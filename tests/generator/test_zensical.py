"""Zensical, the successor of Material for MkDocs, builds the site from the
docs folder alone, and its card tables are the MkDocs build's, byte for byte.

Zensical does not run MkDocs plugins, so this is what shows that
``stationmaster cards`` leaves in ``site/`` everything the pages need: the
tables, the pictures and each pack's ``cards.json``. It is not a dependency
of the kit: the test runs where ``zensical`` is on the PATH (or
``STATIONMASTER_ZENSICAL`` names it) and is skipped elsewhere. What Zensical
lacks today is on the kit's "Building the site" page."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.kit import hang_guard
from tests.kit.cli import subprocess_env
from tests.kit.project import PROJECT_ROOT, VENV_BIN, copy_project

ZENSICAL = os.environ.get("STATIONMASTER_ZENSICAL") or shutil.which("zensical")
MKDOCS = VENV_BIN / "mkdocs"
PACKS = ("stationmaster", "trickoftherails")

pytestmark = [
    pytest.mark.skipif(ZENSICAL is None, reason="zensical is not installed (not a dependency; `pip install zensical` elsewhere and set STATIONMASTER_ZENSICAL)"),
    pytest.mark.skipif(not MKDOCS.exists(), reason="no .venv/bin/mkdocs"),
    pytest.mark.xdist_group("zensical"),
]


def _built(proc: subprocess.CompletedProcess[str], builder: str) -> None:
    assert proc.returncode == 0, f"{builder} failed:\n{proc.stdout}{proc.stderr}"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the Zensical build, the MkDocs build) of one copy of the project."""
    root = copy_project(PROJECT_ROOT, tmp_path_factory.mktemp("zensical") / "project")
    assert ZENSICAL is not None
    _built(hang_guard.run([ZENSICAL, "build", "--strict", "--config-file", "mkdocs.yml"], "zensical build to end", cwd=root, env=subprocess_env()), "zensical build --strict")
    mkdocs_out = root.parent / "mkdocs-site"
    _built(hang_guard.run([MKDOCS, "build", "--strict", "--site-dir", mkdocs_out], "mkdocs build --strict to end", cwd=root, env=subprocess_env()), "mkdocs build --strict")
    return root / "build" / "site", mkdocs_out


def _tables(page: Path) -> list[str]:
    return re.findall(r"<table\b.*?</table>", page.read_text(encoding="utf-8"), re.DOTALL)


def _pictures(page: Path) -> list[str]:
    return re.findall(r'<svg [^>]*role="img".*?</svg>', page.read_text(encoding="utf-8"), re.DOTALL)


def test_zensical_prints_the_card_tables_mkdocs_prints(builds: tuple[Path, Path]) -> None:
    zensical, mkdocs = builds
    pages = sorted(p.relative_to(mkdocs) for pack in PACKS for p in (mkdocs / pack).glob("*.html"))
    assert pages and pages == sorted(p.relative_to(zensical) for pack in PACKS for p in (zensical / pack).glob("*.html"))
    counted = 0
    for page in pages:
        assert _tables(zensical / page) == _tables(mkdocs / page), f"{page}: the tables differ between Zensical and MkDocs"
        counted += len(_tables(mkdocs / page))
    assert counted > 40, "the card tables were not found"
    # The pictures are SVG written into the pages (the theme's icons are SVG too: not counted).
    pictures = 0
    for page in pages:
        assert _pictures(zensical / page) == _pictures(mkdocs / page), f"{page}: the pictures differ between Zensical and MkDocs"
        pictures += len(_pictures(mkdocs / page))
    assert pictures >= 16, "the pictures were not found"


def test_zensical_publishes_each_packs_cards_json_from_the_docs_folder(builds: tuple[Path, Path]) -> None:
    zensical, _ = builds
    for pack in PACKS:
        assert (zensical / pack / "cards.json").read_bytes() == (PROJECT_ROOT / "site" / pack / "cards.json").read_bytes()
    assert (zensical / "cards.schema.json").read_bytes() == (PROJECT_ROOT / "site" / "cards.schema.json").read_bytes()
