"""The lint ``check`` runs over every page: no count columns, no counts in
generated cells, no dead links or anchors, no card left out of every table."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.stationmaster import load_catalog
from generator.lint import lint
from generator.render import Rendered, read_pages, render_site
from generator.stationmaster.tables import TABLE_SET, TABLES
from tests.kit.cli import Result
from tests.kit.project import line_of

Run = Callable[..., Result]


def _append(page: Path, text: str) -> int:
    """Append ``text`` (after a blank line); return the 1-based line it starts on."""
    old = page.read_text(encoding="utf-8")
    if not old.endswith("\n"):
        old += "\n"
    page.write_text(old + "\n" + text, encoding="utf-8")
    return len(old.splitlines()) + 2


def _render(project: Path) -> tuple[object, Rendered]:
    catalog = load_catalog(project / "content" / "stationmaster")
    return catalog, render_site(catalog, read_pages(project / "site" / "stationmaster"), "site/", tables=TABLE_SET)


def test_the_real_site_lints_clean(project: Path) -> None:
    catalog, rendered = _render(project)
    assert lint(catalog, rendered, TABLES, "site/stationmaster/") == []  # type: ignore[arg-type]


@pytest.mark.parametrize("header", ["Count", "Copies", "Qty", "How many", "In deck"])
def test_hand_written_table_with_a_count_column_fails(sm: Run, project: Path, header: str) -> None:
    start = _append(project / "site/stationmaster/index.md", f"| Card | {header} |\n| --- | --- |\n| Straight | 12 |\n")
    result = sm("check")
    assert result.code == 1
    # located at the header cell itself: "| Card | " is 9 characters
    assert result.located() == [("site/stationmaster/index.md", start, 10, f"table column '{header}' prints a count; the site says only whether a card is dealt (yes/no)")], result.out
    # cards writes the tables but still fails on the lint
    result = sm("cards")
    assert result.code == 1 and "prints a count" in result.out


def test_hand_written_table_with_plain_numbers_passes(sm: Run, project: Path) -> None:
    """Bare numbers are only refused inside generated blocks: prose tables may hold rule figures."""
    _append(project / "site/stationmaster/index.md", "| Tier | Stages |\n| --- | --- |\n| Depot | 2 |\n| Station | 3 |\n")
    result = sm("check")
    assert result.code == 0, result.output


def test_counts_in_generated_cells_fail(project: Path) -> None:
    catalog, rendered = _render(project)
    text = rendered.new["home-deck.md"]
    # Track rows: Card | Dealt | Picture | Handedness | Routes | Card text.
    rows = {line.split('"')[1]: line for line in text.splitlines() if line.startswith('| <a id="card-')}
    straight, curve, turnout = (rows[f"card-{card}"] for card in ("straight", "curve-left", "turnout-left"))
    station = "| [Station](#card-station) | 3 | 2 | 2 | 2 |"  # office capacity: numeric rule columns
    for row in (straight, curve, turnout):
        assert text.count(row) == 1 and "| yes | <svg" in row, row
    assert text.count(station) == 1
    text = text.replace(straight, '| <a id="card-straight"></a>Straight | 3 | — | ×2 | W–E | — |')
    text = text.replace(curve, '| <a id="card-curve-left"></a>Curve (left) | yes | — | 7 | 4x | — |')
    text = text.replace(turnout, '| <a id="card-turnout-left"></a>Turnout (left) | x 3 | — | left | W–E, W–NE | — |')
    broken = dataclasses.replace(rendered, new={**rendered.new, "home-deck.md": text})
    problems = {(p.path, p.line, p.message) for p in lint(catalog, broken, TABLES, "site/stationmaster/")}  # type: ignore[arg-type]
    s, c, t = line_of(text, 'card-straight"></a>Straight'), line_of(text, 'card-curve-left"></a>'), line_of(text, 'card-turnout-left"></a>')
    assert problems == {
        ("site/stationmaster/home-deck.md", s, "generated cell '×2' under 'Handedness' reads as a card count"),
        ("site/stationmaster/home-deck.md", s, "column 'Dealt' must say yes, no or where the card is dealt, not '3'"),
        ("site/stationmaster/home-deck.md", c, "generated cell '7' under 'Handedness' is a bare number in a column that holds no rule figure; counts are never printed"),
        ("site/stationmaster/home-deck.md", c, "generated cell '4x' under 'Routes (ports joined)' reads as a card count"),
        ("site/stationmaster/home-deck.md", t, "generated cell 'x 3' under 'Dealt' reads as a card count"),
    }


def test_count_injected_into_a_table_context_fails_check(sm: Run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = TABLES["track"]

    def with_count(catalog: object) -> dict[str, object]:
        context = real(catalog)  # type: ignore[arg-type]
        context["rows"][0]["handedness"] = "×2"
        return context

    monkeypatch.setitem(TABLES, "track", with_count)
    result = sm("check")
    assert result.code == 1
    row = line_of((project / "site/stationmaster/home-deck.md").read_text(encoding="utf-8"), '<a id="card-straight"></a>')
    assert ("site/stationmaster/home-deck.md", row, 1, "generated cell '×2' under 'Handedness' reads as a card count") in result.located(), result.out


def test_link_to_a_missing_anchor_fails_with_its_place(sm: Run, project: Path) -> None:
    line = _append(project / "site/stationmaster/index.md", "The [x](home-deck.md#card-nope) card.\n")
    result = sm("check")
    assert result.code == 1
    assert result.located() == [("site/stationmaster/index.md", line, 9, "link 'home-deck.md#card-nope' points at anchor '#card-nope', which home-deck.md does not have")]


def test_link_to_a_missing_anchor_on_the_same_page_fails(sm: Run, project: Path) -> None:
    line = _append(project / "site/stationmaster/mainline.md", "Also see [it](#card-straight) here.\n")
    result = sm("check")
    assert result.code == 1
    assert result.located() == [("site/stationmaster/mainline.md", line, 15, "link '#card-straight' points at anchor '#card-straight', which mainline.md does not have")]


def test_link_to_a_missing_page_fails_with_its_place(sm: Run, project: Path) -> None:
    line = _append(project / "site/stationmaster/index.md", "Read [the rules](rules.md#card-depot) first.\n")
    result = sm("check")
    assert result.code == 1
    assert result.located() == [("site/stationmaster/index.md", line, 18, "link 'rules.md#card-depot' points at a page that does not exist")]


def test_links_to_headings_and_other_sites_pass(sm: Run, project: Path) -> None:
    _append(project / "site/stationmaster/index.md", "See [piles](home-deck.md#the-piles), [ext](https://example.com/x#y) and [top](#station-master).\n")
    text = (project / "site/stationmaster/index.md").read_text(encoding="utf-8")
    assert text.startswith("# Station Master\n"), text[:60]
    result = sm("check")
    assert result.code == 0, result.output


def test_table_placed_nowhere_and_its_cards_in_no_table(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/home-deck.md"
    text = page.read_text(encoding="utf-8")
    start = text.index("<!-- generated: maneuvers -->\n")
    end = text.index("<!-- /generated -->\n", start) + len("<!-- /generated -->\n")
    # keep the prose links to the maneuvers working: give them plain anchors
    page.write_text(text[:start] + '<a id="card-red-flag"></a><a id="card-flying-switch"></a>\n' + text[end:], encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    messages = [line for line in result.out.splitlines() if "no table" in line or "no page" in line]
    assert "site/stationmaster: table 'maneuvers' is placed on no page; add '<!-- generated: maneuvers -->' and '<!-- /generated -->' where it belongs" in result.out
    # poling has no anchor left anywhere; the other two keep the hand-made anchors
    assert "content/stationmaster/home-deck/maneuvers.yaml: card 'poling' appears in no table of the site; place its table on a page" in result.out
    assert len(messages) == 2, messages


def test_each_card_of_a_removed_table_is_reported(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/home-deck.md"
    text = page.read_text(encoding="utf-8")
    start = text.index("<!-- generated: maneuvers -->\n")
    end = text.index("<!-- /generated -->\n", start) + len("<!-- /generated -->\n")
    page.write_text(text[:start] + text[end:], encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    for card in ("red-flag", "flying-switch", "poling"):
        assert f"content/stationmaster/home-deck/maneuvers.yaml: card '{card}' appears in no table of the site" in result.out
    assert "table 'maneuvers' is placed on no page" in result.out
    # the prose links to those cards are dead now, and are located
    dead = {m.group(1) for m in re.finditer(r"^site/stationmaster/home-deck.md:\d+:\d+: link '#card-([a-z-]+)' points at anchor", result.out, re.MULTILINE)}
    assert dead == {"red-flag", "flying-switch", "poling"}


def test_count_column_of_a_header_only_table_is_located_at_its_header(sm: Run, project: Path) -> None:
    start = _append(project / "site/stationmaster/index.md", "Count the cars first.\n\n| Card | Count |\n| --- | --- |\n")
    result = sm("check")
    assert result.code == 1
    assert [(p, ln) for p, ln, _, m in result.located() if "prints a count" in m] == [("site/stationmaster/index.md", start + 2)], result.out


def test_links_to_the_kit_home_and_another_packs_pages_pass(sm: Run, project: Path) -> None:
    """MkDocs builds the whole site, so a page may link outside its pack."""
    _append(
        project / "site/stationmaster/editing.md", "Back to [the kit](../index.md), or [the other rules](../trickoftherails/rules.md#setup), or [these](../stationmaster/house-rules.md#house-rules).\n"
    )
    result = sm("check")
    assert result.code == 0, result.output


def test_a_missing_anchor_on_another_packs_page_is_still_dead(sm: Run, project: Path) -> None:
    line = _append(project / "site/stationmaster/editing.md", "See [nothing](../trickoftherails/rules.md#no-such-part) and [nowhere](../nowhere.md).\n")
    result = sm("check")
    assert result.code == 1
    assert result.located() == [
        ("site/stationmaster/editing.md", line, 15, "link '../trickoftherails/rules.md#no-such-part' points at anchor '#no-such-part', which ../trickoftherails/rules.md does not have"),
        ("site/stationmaster/editing.md", line, 71, "link '../nowhere.md' points at a page that does not exist"),
    ]


def test_a_page_saved_with_a_byte_order_mark_keeps_its_first_heading(sm: Run, project: Path) -> None:
    """MkDocs drops a leading BOM, so the first heading keeps its anchor;
    ``check`` and ``cards`` keep such a page byte for byte."""
    page = project / "site/stationmaster/house-rules.md"
    page.write_bytes("\ufeff".encode() + page.read_bytes())
    _append(project / "site/stationmaster/index.md", "See [the house rules](house-rules.md#house-rules).\n")
    before = page.read_bytes()
    result = sm("check")
    assert result.code == 0, result.output
    result = sm("cards")
    assert result.code == 0, result.output
    assert page.read_bytes() == before
