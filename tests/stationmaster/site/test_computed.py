"""The computed columns are computed, by the engine's own functions: Dealt
(engine.stationmaster.rules.deck, the deck builder), the Mainline Stage columns
(engine.stationmaster.rules.mainline.crossing_stages) and Status (the handler registry)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Catalog, MainlineCard
from engine.stationmaster.rules.deck import SEATINGS, home_deck, in_mainline_inventory
from engine.stationmaster.rules.houserules import configurations
from engine.stationmaster.rules.mainline import crossing_stages
from generator.render import read_pages, render_site
from generator.stationmaster.tables import TABLE_SET
from tests.kit.cli import Result
from tests.kit.pages import Table, page_table, read_table, split_page, status_of
from tests.kit.project import edit, line_of, snapshot
from tests.kit.stationmaster import registry

Run = Callable[..., Result]

# table -> page it is on (as placed in the shipped site)
DEALT_TABLES = {
    "track": "home-deck.md",
    "offices": "home-deck.md",
    "facilities": "home-deck.md",
    "facility-modifiers": "home-deck.md",
    "timetabled-trains": "home-deck.md",
    "extras": "home-deck.md",
    "enhancements": "home-deck.md",
    "mainline-modifiers": "home-deck.md",
    "maneuvers": "home-deck.md",
    "second-section": "home-deck.md",
    "action-cards": "home-deck.md",
    "space-use-cards": "home-deck.md",
}


def _render(project: Path) -> tuple[Catalog, Callable[[str, str], Table]]:
    catalog = load_catalog(project / "content" / "stationmaster")
    rendered = render_site(catalog, read_pages(project / "site" / "stationmaster"), "site/", tables=TABLE_SET)

    def table(page: str, block: str) -> Table:
        return read_table(split_page(rendered.new[page])[1][block])

    return catalog, table


def test_offices_dealt_follows_the_starting_office(project: Path) -> None:
    _, table = _render(project)
    offices = table("home-deck.md", "offices")
    assert [h for h in offices.header if h.startswith("Dealt")] == ["Dealt"]
    got = {card: row["Dealt"] for card, row in offices.rows.items()}
    assert got == {
        "whistle-post": "no",
        "depot": "only where the Office a district opens on is Whistle Post",
        "station": "every configuration",
        "terminal": "every configuration",
    }


def test_every_dealt_cell_agrees_with_the_deck_builder(project: Path) -> None:
    """Each card's one Dealt cell says what the deck builder does over every
    seating and combination of house rules: yes or every configuration when
    every one deals it, no when none does, "only ..." or "not ..." when some
    do; and "every configuration" only in a table where some card is dealt
    in some configurations only."""
    catalog, table = _render(project)
    setups = [(rules, players) for rules in configurations(catalog) for players in SEATINGS.values()]
    decks = [{card.id for card in home_deck(catalog, rules, players)} for rules, players in setups]
    checked = 0
    for name, page in DEALT_TABLES.items():
        t = table(page, name)
        assert [h for h in t.header if h.startswith("Dealt")] == ["Dealt"], name
        cells = {row["Dealt"] for row in t.rows.values()}
        partial = any(cell.startswith(("only ", "not ")) for cell in cells)
        assert ("every configuration" in cells) <= partial and ("yes" in cells) <= (not partial), (name, cells)
        for card_id, row in t.rows.items():
            dealt = [card_id in deck for deck in decks]
            cell = row["Dealt"]
            if cell in ("yes", "every configuration"):
                assert all(dealt), (name, card_id, cell)
            elif cell == "no":
                assert not any(dealt), (name, card_id, cell)
            else:
                assert cell.startswith(("only ", "not ")) and any(dealt) and not all(dealt), (name, card_id, cell)
            checked += 1
    assert checked >= 60


def test_opponent_cards_are_dealt_with_rivals_only(project: Path) -> None:
    _, table = _render(project)
    for name in ("action-cards", "space-use-cards"):
        t = table("home-deck.md", name)
        assert t.rows and {row["Dealt"] for row in t.rows.values()} == {"only with rivals"}, name


def test_a_table_no_configuration_changes_says_yes_or_no(project: Path) -> None:
    _, table = _render(project)
    for name in ("track", "enhancements", "maneuvers", "extras"):
        assert {row["Dealt"] for row in table("home-deck.md", name).rows.values()} <= {"yes", "no"}, name


def test_a_track_card_with_count_zero_is_not_dealt(sm: Run, project: Path) -> None:
    track = project / "content/stationmaster/home-deck/track.yaml"
    assert page_table(project / "site" / "stationmaster", "home-deck.md", "track").rows["three-way-turnout"]["Dealt"] == "no"
    assert page_table(project / "site" / "stationmaster", "home-deck.md", "track").rows["straight"]["Dealt"] == "yes"
    edit(track, "    name: Three-way turnout\n    count: 0\n", "    name: Three-way turnout\n    count: 1\n")
    edit(track, "    name: Straight\n    count: 12\n", "    name: Straight\n    count: 0\n")
    assert sm("cards").code == 0
    rows = page_table(project / "site" / "stationmaster", "home-deck.md", "track").rows
    assert rows["three-way-turnout"]["Dealt"] == "yes"
    assert rows["straight"]["Dealt"] == "no"


def test_office_dealt_changes_with_the_content(sm: Run, project: Path) -> None:
    edit(project / "content/stationmaster/home-deck/offices.yaml", "    name: Depot\n    count: 4\n", "    name: Depot\n    count: 0\n")
    assert sm("cards").code == 0
    offices = page_table(project / "site" / "stationmaster", "home-deck.md", "offices")
    # with no Depot card the starting office no longer changes any office's
    # dealing, so the two columns collapse into one
    assert [h for h in offices.header if h.startswith("Dealt")] == ["Dealt"]
    assert {card: row["Dealt"] for card, row in offices.rows.items()} == {
        "whistle-post": "no",
        "depot": "no",
        "station": "yes",
        "terminal": "yes",
    }


def _rows_by_link(t: Table) -> dict[str, dict[str, str]]:
    """A links-only table's rows, keyed by the card its first cell links to."""
    found: dict[str, dict[str, str]] = {}
    for cells in t.ordered:
        linked = re.search(r"#card-([a-z0-9-]+)\)", cells[0])
        assert linked, cells
        found[linked.group(1)] = dict(zip(t.header, cells))
    return found


def test_mainline_stage_columns_come_from_crossing_stages(project: Path) -> None:
    catalog, table = _render(project)
    terrain = table("mainline.md", "mainline-terrain")
    crossings = _rows_by_link(table("mainline.md", "terrain-crossings"))
    cards = [c for c in catalog.of_type(MainlineCard) if c.role == "terrain"]
    assert sorted(terrain.rows) == sorted(c.id for c in cards) == sorted(crossings)
    differing = 0
    for card in cards:
        row = terrain.rows[card.id]
        assert card.speed_mph is not None
        assert row["Speed (mph)"] == f"{card.speed_mph.passenger} passenger, {card.speed_mph.freight} freight"
        expected = {
            "Fast with a coach": crossing_stages(card, carries_coach=True, slow=False),
            "Fast freight": crossing_stages(card, carries_coach=False, slow=False),
            "Slow with a coach": crossing_stages(card, carries_coach=True, slow=True),
            "Slow freight": crossing_stages(card, carries_coach=False, slow=True),
        }
        assert {k: crossings[card.id][k] for k in expected} == {k: str(v) for k, v in expected.items()}, card.id
        assert row["Dealt"] == ("yes" if in_mainline_inventory(card) else "no")
        differing += expected["Fast with a coach"] != expected["Fast freight"]
    assert differing >= 1, "no card tells the coach and freight columns apart"


def test_mainline_stage_columns_are_not_typed_in(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.stationmaster.tables

    def fake(terrain: MainlineCard, *, carries_coach: bool, slow: bool) -> int:
        return 10 + 2 * carries_coach + slow

    monkeypatch.setattr(generator.stationmaster.tables, "crossing_stages", fake)
    _, table = _render(project)
    for row in _rows_by_link(table("mainline.md", "terrain-crossings")).values():
        assert [row[k] for k in ("Fast with a coach", "Fast freight", "Slow with a coach", "Slow freight")] == ["12", "10", "13", "11"]


def test_inventory_column_follows_the_count(sm: Run, project: Path) -> None:
    edit(project / "content/stationmaster/mainline.yaml", "    name: Tunnel\n    count: 1\n", "    name: Tunnel\n    count: 0\n")
    assert sm("cards").code == 0
    rows = page_table(project / "site" / "stationmaster", "mainline.md", "mainline-terrain").rows
    assert rows["tunnel"]["Dealt"] == "no"
    assert rows["trestle"]["Dealt"] == "yes"


# -- Status --------------------------------------------------------------------------------


def _statuses(project: Path, handlers: tuple[str, ...]) -> dict[str, str]:
    with registry(handlers):
        _, table = _render(project)
        found: dict[str, str] = {}
        for name, page in DEALT_TABLES.items():
            t = table(page, name)
            if "Status" in t.header:
                found.update({card: status_of(row["Status"]) for card, row in t.rows.items()})
        for card, row in table("mainline.md", "mainline-terrain").rows.items():
            found[card] = status_of(row["Status"])
        found.update({f"effect:{e}": row["Engine handler"] for e, row in table("editing.md", "effects").rows.items()})
    return found


def test_status_without_handlers_is_unbuilt(project: Path) -> None:
    status = _statuses(project, ())
    assert status["small-yard"] == "unbuilt"
    assert status["strike"] == "unbuilt"
    assert status["interchange"] == "unbuilt"
    assert status["plains"] == "—"  # names no effect
    assert status["train-1"] == "—"
    effect_cells = {v for k, v in status.items() if k.startswith("effect:")}
    assert effect_cells == {"not built"}
    assert {v for k, v in status.items() if not k.startswith("effect:")} == {"unbuilt", "—"}


@pytest.mark.parametrize(
    ("effect", "card", "expected"),
    [
        ("small-yard", "small-yard", "live"),
        ("yard-office", "yard-office", "dormantSolo"),  # answers bad-order, which is dealt only with rivals
        ("strike", "strike", "dormantSolo"),  # an attack: dealt only with rivals
        ("red-flag", "red-flag", "live"),
        ("second-section", "second-section", "live"),
        ("arbitration", "arbitration", "dormantSolo"),  # an opponent-directed defence
    ],
)
def test_status_follows_the_registry(project: Path, effect: str, card: str, expected: str) -> None:
    status = _statuses(project, (effect,))
    assert status[card] == expected
    assert status[f"effect:{effect}"] == "built"
    others = {k: v for k, v in status.items() if k not in (card, f"effect:{effect}")}
    assert set(others.values()) <= {"unbuilt", "—", "not built"}, others


def test_a_handled_card_that_is_never_dealt_is_dormant(sm: Run, project: Path) -> None:
    edit(project / "content/stationmaster/home-deck/enhancements.yaml", "    name: Small Yard\n    count: 2\n", "    name: Small Yard\n    count: 0\n")
    status = _statuses(project, ("small-yard",))
    assert status["small-yard"] == "dormantSolo"


def test_a_handled_mainline_terrain_card_is_live(project: Path) -> None:
    """Regression: Status once asked only the Home Office deck whether a card is
    dealt, so the Interchange (dealt from the Mainline inventory) showed
    dormantSolo although its sort-cars handler is reached in solitaire."""
    status = _statuses(project, ("sort-cars",))
    assert status["effect:sort-cars"] == "built"
    assert status["interchange"] == "live"


def test_a_handled_terrain_card_out_of_the_inventory_is_dormant(project: Path) -> None:
    edit(project / "content/stationmaster/mainline.yaml", "    name: Interchange\n    count: 1\n", "    name: Interchange\n    count: 0\n")
    status = _statuses(project, ("sort-cars",))
    assert status["interchange"] == "dormantSolo"


def test_status_change_is_drift_that_cards_fixes(sm: Run, project: Path) -> None:
    from engine.stationmaster import load_catalog
    from engine.stationmaster.content.model import Enhancement
    from engine.stationmaster.effects import load_handlers

    built = tuple(load_handlers())
    # a live district Enhancement whose handler goes away (every one is
    # built now, so the change is made that way round)
    card = next(c for c in load_catalog(project / "content" / "stationmaster").of_type(Enhancement) if c.placement == "district" and c.effect in built and not c.answers)
    with registry(tuple(e for e in built if e != card.effect)):
        result = sm("check")
        assert result.code == 1
        assert f"table 'enhancements': {card.id}: Status: working live → not built yet unbuilt" in result.out
        assert sm("cards").code == 0
        assert status_of(page_table(project / "site" / "stationmaster", "home-deck.md", "enhancements").rows[card.id]["Status"]) == "unbuilt"
        assert sm("check").code == 0


# -- a handler the content does not declare -----------------------------------------------------


def _undeclared_handler(*args: object) -> None:  # the registered function
    return None


@pytest.mark.parametrize("command", ["validate", "check", "cards"])
def test_handler_for_an_undeclared_effect_is_a_located_error(sm: Run, project: Path, command: str) -> None:
    from engine.effects.registry import Event
    from engine.stationmaster.effects import REGISTRY

    with registry(()):
        REGISTRY.on(Event[Callable[..., None]]("stub"), "no-such-effect")(_undeclared_handler)
        before = snapshot(project)
        result = sm(command)
        assert snapshot(project) == before
    assert result.code == 1, result.output
    here = inspect.getsourcefile(_undeclared_handler)
    line = inspect.getsourcelines(_undeclared_handler)[1]
    assert result.located() == [(here, line, 1, "engine handler for effect 'no-such-effect', which content/stationmaster/effects.yaml does not declare")], result.out
    assert line == line_of(Path(__file__).read_text(encoding="utf-8"), "def _undeclared_handler(")
