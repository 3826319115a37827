"""The shape of the card tables, in both packs: the card's name, then its
Dealt columns, then Status lead every table that has them; each Status is in
plain words with the engine's word beneath, and each pack's pages hold the
legend of those words; a card's own ``text`` is shown in its row; and the
drift report tells a stale simulation stamp from a hand edit."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.stationmaster import load_catalog
from generator.render import read_pages
from generator.tableset import STATUS_WORDS

# The ``project`` fixture keeps the simulation block as committed; the tests
# of its drift message put the real computation back.
from tests.kit.cli import Result
from tests.kit.pages import Table, read_table, split_page, status_of
from tests.kit.project import PROJECT_ROOT

Run = Callable[..., Result]
PACKS = ("stationmaster", "trickoftherails")


def _first_table(body: str) -> str:
    """The lines of the first Markdown table in a block (a block may hold two)."""
    lines = body.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return "\n".join(lines[start:end])


def _tables(pack: str) -> dict[str, Table]:
    """The first table of every generated block of the pack's committed pages."""
    found: dict[str, Table] = {}
    for text in read_pages(PROJECT_ROOT / "site" / pack).values():
        for name, body in split_page(text)[1].items():
            if any(line.startswith("| ---") for line in body.splitlines()):
                found[name] = read_table(_first_table(body))
    return found


def _leading(header: list[str]) -> list[str]:
    """The columns a card table must lead with: its Dealt columns, then Status."""
    return [h for h in header if h.startswith("Dealt")] + [h for h in header if h == "Status"]


@pytest.mark.parametrize("pack", PACKS)
def test_name_dealt_and_status_lead_every_card_table(pack: str) -> None:
    checked = 0
    for name, table in _tables(pack).items():
        leading = _leading(table.header)
        if not leading or name == "status-legend":
            continue
        assert table.header[1 : 1 + len(leading)] == leading, (name, table.header)
        checked += 1
    assert checked >= (10 if pack == "stationmaster" else 3), checked


def test_no_table_says_in_the_inventory() -> None:
    for pack in PACKS:
        for page, text in read_pages(PROJECT_ROOT / "site" / pack).items():
            assert "In the inventory" not in text, page
        for name, table in _tables(pack).items():
            assert "In the inventory" not in table.header, name


@pytest.mark.parametrize("pack", PACKS)
def test_every_status_cell_has_its_plain_words_and_engine_word(pack: str) -> None:
    seen: set[str] = set()
    for name, table in _tables(pack).items():
        if "Status" not in table.header or name == "status-legend":
            continue
        for cells in table.ordered:
            cell = cells[table.header.index("Status")]
            word = status_of(cell)
            if word == "—":
                continue
            assert word in STATUS_WORDS, (name, cell)
            assert cell.startswith(STATUS_WORDS[word] + " "), (name, cell)
            seen.add(word)
    assert "live" in seen


@pytest.mark.parametrize("pack", PACKS)
def test_each_pack_has_one_legend_of_its_statuses(pack: str) -> None:
    legend = _tables(pack)["status-legend"]
    assert legend.header[:2] == ["Status", "In plain words"]
    shown = {cells[0].split("`")[1]: cells[1] for cells in legend.ordered}
    assert shown == {status: STATUS_WORDS[status] for status in shown}
    assert {"live", "unbuilt"} <= set(shown)
    assert ("dormantSolo" in shown) == (pack == "stationmaster")


def _words(text: str) -> set[str]:
    return {word[:5] for word in re.findall(r"[a-z]{4,}", text.lower())}


def test_every_card_text_is_shown_in_its_row_unless_its_effect_says_it() -> None:
    """A card's ``text`` is in its row's Card text column, except where every
    word of it that carries meaning is already in the row's Effect: then the
    column shows a dash, and a table where that leaves nothing has no Card
    text column at all."""
    catalog = load_catalog(PROJECT_ROOT / "content" / "stationmaster")
    rows: dict[str, dict[str, str]] = {}
    for _name, table in _tables("stationmaster").items():
        rows.update(table.rows)
    with_text = [card for card in catalog.cards if card.text]
    assert len(with_text) >= 10
    shown_count = repeated = 0
    for card in with_text:
        row = rows[card.id]
        text = " ".join((card.text or "").split())
        if "Effect" in row and _words(text) <= _words(row["Effect"]):
            assert row.get("Card text", "—") == "—", (card.id, row.get("Card text"))
            repeated += 1
            continue
        assert "Card text" in row, (card.id, list(row))
        assert row["Card text"].replace("\\", "") == text, (card.id, row["Card text"])
        shown_count += 1
    assert shown_count >= 10 and repeated >= 3, (shown_count, repeated)
    for name, table in _tables("stationmaster").items():
        if "Card text" in table.header:
            assert any(row["Card text"] != "—" for row in table.rows.values()), name


def test_pages_say_what_the_card_text_column_is() -> None:
    home = (PROJECT_ROOT / "site" / "stationmaster" / "home-deck.md").read_text(encoding="utf-8")
    prose = split_page(home)[0]
    assert "**Card text** column" in prose and "`text`" in prose


def test_every_page_of_the_nav_is_on_the_home_list() -> None:
    index = (PROJECT_ROOT / "site" / "stationmaster" / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^- \[[^]]+\]\(([a-z-]+\.md)\)", index, re.MULTILINE))
    pages = {p.name for p in (PROJECT_ROOT / "site" / "stationmaster").glob("*.md")} - {"index.md"}
    assert listed == pages


def test_every_kit_page_is_on_the_kit_index() -> None:
    kit = PROJECT_ROOT / "site" / "kit"
    index = (kit / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^- \[[^]]+\]\(([a-z-]+\.md)\)", index, re.MULTILINE))
    assert listed == {p.name for p in kit.glob("*.md")} - {"index.md"}


def test_a_content_edit_calls_the_simulation_stale_not_hand_edited(sm: Run, project: Path) -> None:
    """A count the pages never print still changes what the games deal: the
    reports are stale (listed, not drift) and nothing is called a hand edit.
    The count is in the pack's cards.json, which is the one file to write again."""
    path = project / "content/stationmaster/home-deck/facilities.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    count: 2\n", "    count: 3\n", 1), encoding="utf-8")
    result = sm("check")
    assert result.code == 1 and [p.path for p in result.problems if not p.message.startswith("report ")] == ["site/stationmaster/cards.json"], result.output
    lines = [line for line in result.out.splitlines() if "report 'simulation'" in line]
    assert len(lines) == 1 and "measured before the last change to the cards" in lines[0], result.out
    assert "by hand" not in result.out


def test_a_hand_edit_inside_the_simulation_table_is_called_one(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/simulation.md"
    text = page.read_text(encoding="utf-8")
    body = split_page(text)[1]["simulation"]
    assert text.count(body) == 1
    page.write_text(text.replace(body, "\nA note typed into the table's block.\n" + body), encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    lines = [line for line in result.out.splitlines() if "report 'simulation'" in line]
    assert len(lines) == 1 and "was edited by hand" in lines[0], result.out
