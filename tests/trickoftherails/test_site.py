"""Trick of the Rails' rules site: the lane pictures (deterministic,
well-formed, labelled, and faithful to ``setup.lane_plan``), the worked
scoring example (what the engine scores for its seed, figure for figure),
the open-points tables (every designed and every single-source value), and
the drift check on the pack's pages (a content change under a page fails
``check`` until ``cards`` rewrites it)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.trickoftherails import load_catalog
from engine.trickoftherails.bots import BOT_FUNCTIONS
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.scoring import best_run
from engine.trickoftherails.rules.setup import lane_plan
from generator.lint import lint
from generator.render import KIT_TABLES, read_pages, render_site
from generator.trickoftherails.lanes import lane_groups
from generator.trickoftherails.svg import DRAWN_DASH, MIN_FONT, OPERATING_FILL, STOCK_FILL, SlotPicture, lane_html, slot_svg
from generator.trickoftherails.tables import SINGLE_SOURCE, TABLE_SET, TABLES, designed_values, expert_trick_lanes, single_source, trick_lanes
from generator.trickoftherails.worked import WORKED_BOT, WORKED_PLAYERS, WORKED_SEED, worked_game
from tests.kit.cli import Result
from tests.kit.pages import split_cells, split_page
from tests.kit.project import PROJECT_ROOT, edit
from tests.kit.trickoftherails import CATALOG

Run = Callable[..., Result]
SVG = "{http://www.w3.org/2000/svg}"
CONTENT = PROJECT_ROOT / "content" / "trickoftherails"
SITE = PROJECT_ROOT / "site" / "trickoftherails"
CONFIGURATIONS = [(players, variant) for variant in ("basic", "expert") for players in CATALOG.player_counts]


def _lanes(catalog: Catalog = CATALOG) -> list[tuple[int, str, str]]:
    """(players, variant, picture) of every lane picture the tables draw."""
    found = []
    for variant, context in (("basic", trick_lanes(catalog)), ("expert", expert_trick_lanes(catalog))):
        found += [(lane["players"], variant, lane["picture"]) for lane in context["lanes"]]
    return found


def _picture_of(players: int, variant: str) -> str:
    return next(picture for p, v, picture in _lanes() if (p, v) == (players, variant))


def _slots(picture: str) -> list[ET.Element]:
    """The slot pictures of a lane, left to right: one SVG a line inside the group."""
    return [ET.fromstring(line) for line in picture.splitlines()[1:-1]]


def _front_cards(slots: list[ET.Element]) -> list[ET.Element]:
    return [rect for slot in slots for rect in slot.iter(SVG + "rect")]


# -- the lane pictures ---------------------------------------------------------------


def test_there_is_a_picture_per_player_count_and_lane() -> None:
    assert sorted((p, v) for p, v, _ in _lanes()) == sorted(CONFIGURATIONS)


@pytest.mark.parametrize(("players", "variant"), CONFIGURATIONS)
def test_the_picture_is_deterministic(players: int, variant: str) -> None:
    first = _picture_of(players, variant)
    again = load_catalog(CONTENT)
    assert _lanes(again) == _lanes()
    assert [picture for p, v, picture in _lanes(again) if (p, v) == (players, variant)] == [first]


@pytest.mark.parametrize(("players", "variant"), CONFIGURATIONS)
def test_the_picture_is_a_named_group_of_one_line_slot_pictures_each_with_a_title(catalog: Catalog, players: int, variant: str) -> None:
    picture = _picture_of(players, variant)
    lines = picture.splitlines()
    assert all(line.strip() for line in lines), "a blank line would end the HTML block in Markdown"
    group = re.fullmatch(r'<div class="trick-lane" role="group" aria-label="([^"]+)">', lines[0])
    assert group is not None and lines[-1] == "</div>"
    assert f"{players} players" in group[1] and ("Expert" in group[1]) == (variant == "expert")
    slots = len(catalog.layouts[players].basic if variant == "basic" else catalog.layouts[players].expert)
    by_slot = {i: g for g in lane_groups(catalog, players, variant) for i in g.slots}
    assert len(lines) == slots + 2
    for number, line in enumerate(lines[1:-1], start=1):
        assert "|" not in line and line.startswith("<svg ") and line.endswith("</svg>") and not line.startswith("<?xml")
        assert not re.search(r"\bid\s*=", line), "an id would read as an anchor to the site's lint"
        assert "max-width" not in line, "a slot keeps its drawn size"
        root = ET.fromstring(line)
        assert root.attrib["role"] == "img"
        title = root.find(SVG + "title")
        assert title is not None and title.text is not None and root.attrib["aria-label"] == title.text
        kind = "a stock trick" if by_slot[number - 1].stock else "an operating trick"
        assert title.text.startswith(f"Trick {number}: ") and title.text.endswith(kind), title.text
        for text in root.iter(SVG + "text"):
            assert float(text.attrib["font-size"]) >= MIN_FONT, (number, text.text)


@pytest.mark.parametrize(("players", "variant"), CONFIGURATIONS)
def test_each_slot_is_one_card_in_lane_order_and_drawn_slots_are_dashed(catalog: Catalog, players: int, variant: str) -> None:
    slots = _slots(_picture_of(players, variant))
    cards = _front_cards(slots)
    groups = lane_groups(catalog, players, variant)
    by_slot = {i: g for g in groups for i in g.slots}
    assert len(slots) == len(cards) == len(by_slot)  # one card per slot: a pair of cards is one slot
    # each slot's trick number, read 1, 2, 3 ... in drawing order
    numbers = [t.text for slot in slots for t in slot.iter(SVG + "text") if t.text and t.text.isdigit()]
    assert numbers == [str(i + 1) for i in range(len(by_slot))]
    for index, card in enumerate(cards):
        group = by_slot[index]
        assert card.attrib["fill"] == (STOCK_FILL if group.stock else OPERATING_FILL)
        assert (card.attrib.get("stroke-dasharray") == DRAWN_DASH) is group.drawn, index


def test_the_drawn_slots_are_where_the_lane_plan_draws_among_different_cards(catalog: Catalog) -> None:
    for players, variant in CONFIGURATIONS:
        cards = _front_cards(_slots(_picture_of(players, variant)))
        dashed = {i for i, card in enumerate(cards) if card.attrib.get("stroke-dasharray")}
        planned = {i for group in lane_plan(catalog, players, variant) if len(set(group.pool)) > len(group.slots) for i in group.slots}
        assert dashed == planned, (players, variant)
    # the content has such slots: a City drawn at some count, the Expert pool at others
    assert any(card.attrib.get("stroke-dasharray") for _, _, picture in _lanes() for card in _front_cards(_slots(picture)))


@pytest.mark.parametrize("players", CATALOG.player_counts)
def test_the_pair_of_locomotives_is_one_slot_drawn_as_two_cards(catalog: Catalog, players: int) -> None:
    slots = _slots(_picture_of(players, "basic"))
    bringers = [g for g in lane_groups(catalog, players, "basic") if g.follower is not None]
    assert len(bringers) == 1
    assert sum(len(list(slot.iter(SVG + "polygon"))) for slot in slots) == 1  # the card behind shows past the one in front
    follower = bringers[0].follower
    assert follower is not None
    texts = [t.text or "" for slot in slots for t in slot.iter(SVG + "text")]
    assert any(follower.name.endswith(text.removeprefix("+ ")) for text in texts if text.startswith("+ "))


def test_a_slot_picture_depends_only_on_its_slot_and_is_escaped() -> None:
    slots = [SlotPicture("Exchange", note="shuffled"), SlotPicture("Locomotive", mark="[3]", stock=False), SlotPicture("City", stock=False, drawn=True)]
    assert lane_html(slots, "t") == lane_html(list(slots), "t")
    assert lane_html(slots, "t").splitlines()[1:3] == lane_html(slots[:2], "t").splitlines()[1:3]
    assert slot_svg(2, slots[1]) in lane_html(slots, "t")
    assert "&lt;b&gt;" in lane_html([SlotPicture("<b>")], "<t>") and 'aria-label="&lt;t&gt;"' in lane_html([SlotPicture("b")], "<t>")
    with pytest.raises(ValueError):
        lane_html([], "t")


def test_the_committed_rules_page_holds_the_fresh_pictures() -> None:
    text = (SITE / "rules.md").read_text(encoding="utf-8")
    for _, _, picture in _lanes():
        assert text.count(picture) == 1


# -- the worked example ---------------------------------------------------------------


def _played() -> Game:
    """The example's game, played here independently of worked.py."""
    game = Game(CATALOG, players=WORKED_PLAYERS, seed=WORKED_SEED)
    while not game.is_over():
        game.apply(BOT_FUNCTIONS[WORKED_BOT](game))
    return game


def _tables(body: str) -> list[list[list[str]]]:
    """Every Markdown table of a block, as rows of cells (header first, rule dropped)."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in body.splitlines():
        if line.startswith("|"):
            cells = split_cells(line)
            if not all(set(c) <= set("-: ") for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def _plain(cell: str) -> str:
    return re.sub(r"\[([^\]]*(?:\\\][^\]]*)*)\]\([^)]*\)", r"\1", cell).replace("**", "").replace("&amp;", "&").replace("\\", "")


def test_the_worked_example_shows_what_the_engine_scores_for_its_seed(catalog: Catalog) -> None:
    game = _played()
    _, blocks = split_page((SITE / "rules.md").read_text(encoding="utf-8"))
    body = blocks["worked-example"]
    assert f"seed\n{WORKED_SEED}" in body or f"seed {WORKED_SEED}" in body
    railways, players = _tables(body)
    header, rows = railways[0], railways[1:]
    assert [_plain(r[0]) for r in rows] == [c.name for c in catalog.companies]
    values = game.share_values()
    for company, row in zip(catalog.companies, rows):
        cells = dict(zip(header, row))
        railway = game.state.railways[company.id]
        loco = catalog.by_id[game.state.locomotives[company.id]]
        stations = [catalog.by_id[c].station_value or 0 for c in railway]
        profit = best_run(stations, loco.reach)
        # every card, left to right, with its station value
        shown = [int(v) for v in re.findall(r"\((\d+)\)", _plain(cells[header[1]]))]
        assert shown == stations, company.id
        bold = re.findall(r"\*\*(.*?)\*\*", cells[header[1]])
        assert len(bold) == 1 and sum(int(v) for v in re.findall(r"\((\d+)\)", bold[0])) == profit
        assert _plain(cells["Locomotive"]) == loco.name
        assert int(cells["Best run"].split()[0]) == profit
        assert cells["Profit − cost"].startswith(f"{profit} − {loco.cost} = ")
        assert int(cells["Share value"]) == values[company.id]
    score = game.score()
    assert [int(_plain(r[-1])) for r in players[1:]] == score
    for seat, row in enumerate(players[1:]):
        priced = re.findall(r"(\S+) (\d+) × (\d+) = (\d+)", _plain(row[1]))
        assert sum(int(worth) for *_, worth in priced) == score[seat]
        for name, held, value, worth in priced:
            company = next(c for c in catalog.companies if c.name == name)
            assert int(value) == values[company.id] and int(held) * int(value) == int(worth)
            assert int(held) == sum(1 for card in game.state.shares[seat] if catalog.by_id[card].company == company.id)
    winners = game.winners()
    if len(winners) == 1:
        assert f"**Player {winners[0] + 1} wins** with {max(score)}." in body
    # worked.py agrees with the independent replay
    worked = worked_game(catalog)
    assert [p.score for p in worked.scores] == score and list(worked.winners) == winners


def test_the_worked_seed_shows_a_floored_company_a_partial_run_and_one_winner(catalog: Catalog) -> None:
    """What the seed was picked for: if an engine change loses it, pick another seed."""
    worked = worked_game(catalog)
    assert any(r.locomotive is not None and r.profit < (r.locomotive.cost or 0) and r.share_value == catalog.share_floor for r in worked.railways)
    assert any(len(r.run) < len(r.cards) for r in worked.railways)
    assert len(worked.winners) == 1


# -- the open-points tables --------------------------------------------------------------


def test_designed_values_lists_every_designed_record(catalog: Catalog) -> None:
    rows = designed_values(catalog)["rows"]
    designed = [v.key for v in catalog.values if v.source.designed] + [c.id for c in catalog.cards if c.source.designed]
    assert sorted(r["card"] or r["what"] for r in rows) == sorted(designed)
    assert all(r["reason"] for r in rows)


def test_single_source_lists_every_record_citing_that_source_alone(catalog: Catalog) -> None:
    rows = single_source(catalog)["rows"]
    assert rows and all(r["source"].edition == SINGLE_SOURCE for r in rows)
    cited = {c.id for c in catalog.cards if c.source.edition == SINGLE_SOURCE and c.family != "railway"}
    assert cited <= {r["card"] for r in rows}
    railway_rows = [r for r in rows if r["kind"] == "Railway card"]
    assert len(railway_rows) == len(catalog.companies)  # one row per company's run of numbers
    assert {v.key for v in catalog.values if v.source.edition == SINGLE_SOURCE} <= {r["what"] for r in rows}


def test_the_pack_pages_lint_clean_and_place_every_table(catalog: Catalog) -> None:
    rendered = render_site(catalog, read_pages(SITE), "site/trickoftherails/", tables=TABLE_SET)
    assert [p.render() for p in lint(catalog, rendered, TABLES, "site/trickoftherails/")] == []
    assert sorted(rendered.table_page) == sorted([*TABLES, *KIT_TABLES])
    assert rendered.new == rendered.old, "the committed pages are stale: run `stationmaster cards`"


# -- drift -----------------------------------------------------------------------------------

LOCOMOTIVES = Path("content/trickoftherails/locomotives.yaml")
CITIES = Path("content/trickoftherails/cities.yaml")
LANE = Path("content/trickoftherails/lane.yaml")
GAME = Path("content/trickoftherails/game.yaml")

# (file, old text, new text, {page: tables that must drift})
CHANGES = [
    pytest.param(
        LOCOMOTIVES,
        "reach: 6, cost: 70,",
        "reach: 6, cost: 75,",
        {
            "components.md": {"locomotives"},
            "rules.md": {"worked-example"},
            "open-points.md": {"single-source"},
            "quick-reference.md": {"quick-reference"},
            "example-game.md": {"example-game"},
        },
        id="locomotive-cost",
    ),
    pytest.param(
        CITIES,
        "stationValue: 20, effect: place-city, source: bga}",
        "stationValue: 20, effect: place-city, source: {designed: a test says so}}",
        {"components.md": {"components"}, "open-points.md": {"designed-values", "single-source"}},
        id="city-designed",
    ),
    pytest.param(
        LANE,
        "basic: [exchange, city, exchange, loco-3, exchange, loco-4, exchange, loco-5, exchange, loco-6, reservation]",
        "basic: [exchange, city, exchange, loco-4, exchange, loco-3, exchange, loco-5, exchange, loco-6, reservation]",
        {"rules.md": {"trick-lanes"}},
        id="lane-order",
    ),
    pytest.param(
        GAME,
        "shareFloor: 0\n",
        "shareFloor: 10\n",
        {"rules.md": {"share-floor", "worked-example"}, "open-points.md": {"single-source"}, "quick-reference.md": {"quick-reference"}, "example-game.md": {"example-game"}},
        id="share-floor",
    ),
]


def _unstamped(text: str) -> str:
    return re.sub(r"^<!-- inputs [0-9a-f]{64} body [0-9a-f]{64} -->\n", "", text, flags=re.MULTILINE)


@pytest.mark.parametrize(("path", "old", "new", "drifting"), CHANGES)
def test_a_content_change_under_a_page_fails_check_until_cards_rewrites_it(sm: Run, project: Path, path: Path, old: str, new: str, drifting: dict[str, set[str]]) -> None:
    site = project / "site" / "trickoftherails"
    before = {p.name: p.read_text(encoding="utf-8") for p in site.glob("*.md")}
    edit(project / path, old, new)

    result = sm("check")
    assert result.code == 1, result.output
    stale = re.findall(r"^site/trickoftherails/([^:]+): out of date", result.out, re.MULTILINE)
    assert sorted(stale) == sorted(drifting), result.out
    for page, tables in drifting.items():
        reported = set(re.findall(rf"^site/trickoftherails/{re.escape(page)}:\d+:1: table '([a-z-]+)'", result.out, re.MULTILINE))
        assert reported == tables, (page, result.out)
    assert "make cards" in result.out.splitlines()[-1]

    result = sm("cards")
    assert result.code == 0, result.output
    assert sm("check").code == 0
    after = {p.name: p.read_text(encoding="utf-8") for p in site.glob("*.md")}
    # `cards` rewrites exactly the pages whose text changes: a block's
    # checksum covers its own text only, so no other page is re-stamped
    assert {name for name in after if after[name] != before[name]} == set(drifting)
    for name in after:
        assert split_page(after[name])[0] == split_page(before[name])[0], f"prose of {name} changed"


def test_a_brought_locomotive_is_placed_as_its_effect_says_in_every_variant(catalog: Catalog) -> None:
    """The Placed cell of the [∞] comes from its effect's summary, which
    says both the basic and the Expert placing, not the basic one alone."""
    from generator.trickoftherails.tables import locomotives

    rows = {row["id"]: row for row in locomotives(catalog)["rows"]}
    brought = next(c for c in catalog.of_family("locomotives") if any(o.brings == c.id for o in catalog.cards))
    bringer = next(c for c in catalog.cards if c.brings == brought.id)
    assert brought.effect is not None
    placed = rows[brought.id]["placed"]
    assert placed == f"brought by {bringer.name}. {catalog.effects[brought.effect].summary}"
    assert "basic game" in placed and "Expert game" in placed
    page = (SITE / "components.md").read_text(encoding="utf-8")
    assert f"| {placed} |" in page


def test_the_home_page_dates_the_editions_from_the_content_with_their_sources(catalog: Catalog) -> None:
    page = (SITE / "index.md").read_text(encoding="utf-8")
    prose, block = page.split("<!-- generated: at-a-glance -->")
    assert not re.search(r"\b(19|20)\d\d\b", prose), "the prose types a year the content holds"
    first = catalog.published[0]
    assert f"{first.year} by {first.publisher}" in block and f"sources: {', '.join(first.sources)}" in block
    assert first.note is not None and first.note in block
