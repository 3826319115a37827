"""Designed cards and values on the site: a † after the name in every card
table, linked to a legend on the same page, and a page listing each one with
its reason. The mark is a flag per row; nothing counts them."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Catalog
from tests.kit.cli import Result
from tests.kit.pages import split_page
from tests.kit.project import PROJECT_ROOT, edit

Run = Callable[..., Result]
SITE = PROJECT_ROOT / "site" / "stationmaster"
MARK = '[†](#designed-legend "designed: see the legend")'
LEGEND = '<span id="designed-legend"></span>'


def _catalog() -> Catalog:
    return load_catalog(PROJECT_ROOT / "content" / "stationmaster")


def _home_rows() -> dict[str, str]:
    """Each card's row, on the page where the card lives: card id -> the row's text."""
    rows: dict[str, str] = {}
    for page in sorted(SITE.glob("*.md")):
        _, blocks = split_page(page.read_text(encoding="utf-8"))
        for name, body in blocks.items():
            if name in ("designed-cards", "designed-values", "effects", "simulation", "realignment"):
                continue  # rows there mention cards without being their home
            for line in body.splitlines():
                found = re.match(r'^\| <a id="card-([a-z0-9-]+)"></a>', line)
                if found:
                    rows[found.group(1)] = line
    return rows


def test_every_designed_card_carries_the_mark_and_no_cited_card_does() -> None:
    catalog, rows = _catalog(), _home_rows()
    assert set(rows) == {c.id for c in catalog.cards}
    for card in catalog.cards:
        name_cell = rows[card.id].split(" | ")[0]
        assert (MARK in name_cell) is card.source.designed, f"{card.id}: {name_cell}"
    assert any(c.source.designed for c in catalog.cards) and not all(c.source.designed for c in catalog.cards)


def test_every_page_with_a_mark_holds_the_legend() -> None:
    marked = [p for p in sorted(SITE.glob("*.md")) if MARK in p.read_text(encoding="utf-8")]
    assert marked, "no page marks a designed card"
    for page in marked:
        assert page.read_text(encoding="utf-8").count(LEGEND) == 1, page.name


def test_the_open_points_page_lists_every_designed_card_and_value_with_its_reason() -> None:
    catalog = _catalog()
    text = (SITE / "open-points.md").read_text(encoding="utf-8")
    _, blocks = split_page(text)
    for card in catalog.cards:
        listed = f"](home-deck.md#card-{card.id})" in blocks["designed-cards"] or f"](mainline.md#card-{card.id})" in blocks["designed-cards"]
        assert listed is card.source.designed, card.id
        if card.source.reason:
            assert card.source.reason in blocks["designed-cards"]
    designed_values = [v for v in catalog.value_sources if v.source.designed]
    assert designed_values
    for value in catalog.value_sources:
        row = f"| `{value.key}` | {value.kind} |"
        assert (row in blocks["designed-values"]) is value.source.designed, row
    assert "](engine-decisions.md)" in text
    # Flags, never a tally: no sentence says how many cards are designed.
    designed = sum(c.source.designed for c in catalog.cards)
    assert not re.search(rf"\b{designed}\b", text)


def test_a_designed_default_is_marked_in_the_house_rules_table() -> None:
    catalog = _catalog()
    _, blocks = split_page((SITE / "house-rules.md").read_text(encoding="utf-8"))
    marked = [line for line in blocks["house-rules"].splitlines() if f"(default) {MARK}" in line]
    expected = [r for r in catalog.house_rules if r.default_source is not None and r.default_source.designed]
    assert expected and len(marked) == len(expected)


def test_a_page_whose_legend_is_gone_fails_check(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/home-deck.md"
    edit(page, LEGEND, "")
    result = sm("check")
    assert result.code == 1, result.output
    problems = [line for line in result.out.splitlines() if "legend" in line]
    # One problem for the page, at its first mark, however many cards are marked.
    first = next(i for i, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if MARK in line)
    assert len(problems) == 1, result.out
    assert re.match(
        rf"^site/stationmaster/home-deck\.md:{first}:[0-9]+: the page marks designed cards \(†\) but has no legend for the mark; add a paragraph starting with <span id=\"designed-legend\"></span>",
        problems[0],
    ), problems


def test_marking_a_card_designed_marks_its_row_and_lists_it(sm: Run, project: Path) -> None:
    path = project / "content/stationmaster/home-deck/maneuvers.yaml"
    text = path.read_text(encoding="utf-8")
    block = re.search(r"^  - id: red-flag\n(?:    .*\n)*?(    source: \S+\n)", text, re.M)
    assert block, "red-flag cites no edition (the content changed shape?)"
    edit(path, block.group(0), block.group(0).replace(block.group(1), "    source:\n      designed: A reason written for this test.\n"))
    assert sm("check").code == 1
    assert sm("cards").code == 0
    home = (project / "site/stationmaster/home-deck.md").read_text(encoding="utf-8")
    assert f'<a id="card-red-flag"></a>Red Flag {MARK} |' in home
    assert "A reason written for this test." in (project / "site/stationmaster/open-points.md").read_text(encoding="utf-8")
