"""Golden tests: every table rendered from a frozen copy of the content
(``tests/fixtures/content``) against ``tests/golden/<table>.md``.

Each table is placed alone on a page named after it, so cross-table links
are real relative links (``track.md#card-straight``). The handler registry is
pinned to a fixed set so the goldens do not move while the engine grows.

Regenerate after an intended change with::

    UPDATE_GOLDENS=1 .venv/bin/python -m pytest tests/stationmaster/site/test_golden.py
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

import pytest

from engine.stationmaster import load_catalog
from generator.lint import lint
from generator.render import render_site
from generator.stationmaster.tables import TABLE_SET, TABLES
from tests.kit.cli import call_cli
from tests.kit.pages import read_table, split_page, status_of
from tests.kit.project import FIXTURE_CONTENT, GOLDEN_DIR, PROJECT_ROOT
from tests.kit.stationmaster import registry

# one live card (small-yard), one defence whose attack is dealt only with rivals
# (yard-office), one attack (strike), one maneuver (red-flag); the rest unbuilt
GOLDEN_HANDLERS = ("small-yard", "yard-office", "strike", "red-flag")
UPDATE = os.environ.get("UPDATE_GOLDENS") == "1"


def _page(name: str) -> str:
    # Like every real page with a card table, it holds the legend a designed
    # card's mark links to.
    return f'# {name}\n\n<span id="designed-legend"></span>† marks a designed card.\n\n<!-- generated: {name} -->\n<!-- /generated -->\n'


@lru_cache(maxsize=1)
def _render() -> tuple[dict[str, str], tuple[str, ...]]:
    with registry(GOLDEN_HANDLERS):
        catalog = load_catalog(FIXTURE_CONTENT)
        rendered = render_site(catalog, {f"{name}.md": _page(name) for name in TABLES}, "golden/", tables=TABLE_SET)
        problems = tuple(p.render() for p in lint(catalog, rendered, TABLES, "golden/"))
    return {name: rendered.new[f"{name}.md"] for name in TABLES}, problems


def test_fixture_content_validates() -> None:
    with registry(GOLDEN_HANDLERS):
        result = call_cli(["validate", str(FIXTURE_CONTENT)], PROJECT_ROOT)
    assert result.code == 0, result.output
    assert result.out.strip().endswith("79 card records in 11 families, 28 effects, 4 house rules"), result.out


def test_fixture_site_lints_clean() -> None:
    _, problems = _render()
    assert problems == ()


_STAMP = re.compile(r"<!-- checksum [0-9a-f]{64} -->\n")
# The simulation tables are played by the engine: any engine change moves
# them, so a golden of them would only restate the engine.
# tests/stationmaster/sim/test_simulate.py and tests/stationmaster/sim/test_simulate_rivals.py cover their
# determinism, rendering and lint instead (tests/sweep/test_charts.py the sweep's).
GOLDEN_TABLES = sorted(set(TABLES) - {"simulation", "simulation-rivals", "simulation-sweep", "simulation-matrix"})


@pytest.mark.parametrize("table", GOLDEN_TABLES)
def test_table_matches_its_golden(table: str) -> None:
    pages, _ = _render()
    # The simulation block ends with a stamp of its inputs, engine source
    # included; the golden is about the table, so the stamp is left out.
    text = _STAMP.sub("", pages[table])
    golden = GOLDEN_DIR / f"{table}.md"
    if UPDATE:
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(text.encode("utf-8"))
    assert golden.exists(), f"{golden} is missing; run with UPDATE_GOLDENS=1 to create it"
    expected = golden.read_bytes().decode("utf-8")
    assert text == expected, f"{table} no longer matches {golden.relative_to(PROJECT_ROOT)}; if intended, rerun with UPDATE_GOLDENS=1"
    # a golden is a well-formed page: one block holding the table
    prose, blocks = split_page(text)
    assert list(blocks) == [table]
    assert prose == _page(table)
    assert blocks[table].startswith("\n") and blocks[table].endswith("\n\n")
    if table != "edition":
        assert read_table(blocks[table]).ordered, f"{table} has no rows"


def test_no_stale_goldens() -> None:
    assert sorted(p.stem for p in GOLDEN_DIR.glob("*.md")) == GOLDEN_TABLES


def test_goldens_hold_the_pinned_statuses() -> None:
    """The goldens are not vacuous: the pinned registry shows in them."""
    pages, _ = _render()
    enh = read_table(split_page(pages["enhancements"])[1]["enhancements"])
    assert status_of(enh.rows["small-yard"]["Status"]) == "live"
    assert status_of(enh.rows["yard-office"]["Status"]) == "dormantSolo"
    assert status_of(enh.rows["interlocking"]["Status"]) == "unbuilt"
    effects = read_table(split_page(pages["effects"])[1]["effects"])
    built = {key for key, row in effects.rows.items() if row["Engine handler"] == "built"}
    assert built == set(GOLDEN_HANDLERS)
    assert "[Small Yard](enhancements.md#card-small-yard)" in pages["effects"]


def test_golden_paths() -> None:
    assert Path(GOLDEN_DIR).parent == PROJECT_ROOT / "tests"
    assert (FIXTURE_CONTENT / "schema").is_dir()
