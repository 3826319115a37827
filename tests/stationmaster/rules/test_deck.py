"""Deck building: which cards the Home Office deck deals, under every house rule.

Each test would fail if the rule it names were dropped from ``engine.stationmaster.rules.deck``:
the content has opponent-directed cards, Depot upgrades, count-0 shapes and
Mainline cards with non-zero counts, so none of them is absent by accident.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pytest

from engine.stationmaster.content.model import Catalog, MainlineCard, OfficeTier, OpponentCard
from engine.stationmaster.rules.deck import home_deck, is_dealt
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.houserules import HouseRuleValue, configurations, defaults
from generator.stationmaster import tables
from generator.tableset import dealt_words
from tests.kit.stationmaster import CATALOG

CONFIGS = configurations(CATALOG)


def _id(config: dict[str, object]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(config.items()))


def dealt_counter(rules: Mapping[str, HouseRuleValue], players: int = 1) -> Counter[str]:
    return Counter(card.id for card in home_deck(CATALOG, {**defaults(CATALOG), **rules}, players))


def test_the_content_has_what_these_tests_need(catalog: Catalog) -> None:
    """Guard: every rule below is only meaningful while the content carries
    the cards it excludes (with non-zero counts)."""
    assert any(c.count > 0 for c in catalog.of_type(OpponentCard))
    assert catalog.by_id["depot"].count > 0
    assert any(c.count > 0 for c in catalog.of_type(MainlineCard))
    assert any(c.count == 0 and c.family == "track" for c in catalog.cards)


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_opponent_directed_cards_are_never_dealt_in_solitaire(catalog: Catalog, config: dict[str, HouseRuleValue]) -> None:
    dealt = dealt_counter(config)
    for card in catalog.of_type(OpponentCard):
        assert card.id not in dealt, f"{card.id} ({card.category}) was dealt in solitaire under {config}"
        assert not is_dealt(catalog, card, config)
    # and a real solitaire game under that configuration holds none of them anywhere
    game = Game(catalog, players=1, seed=7, house_rules=config)
    assert not set(game.census()) & {c.id for c in catalog.of_type(OpponentCard)}


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
@pytest.mark.parametrize("players", [2, 4])
def test_opponent_directed_cards_are_dealt_with_rivals(catalog: Catalog, config: dict[str, HouseRuleValue], players: int) -> None:
    dealt = dealt_counter(config, players)
    for card in catalog.of_type(OpponentCard):
        assert dealt[card.id] == card.count > 0, f"{card.id} ({card.category}) under {config}, {players} players"
        assert is_dealt(catalog, card, config, players)
    game = Game(catalog, players=players, seed=7, house_rules=config)
    census = game.census()
    assert all(census[c.id] == c.count for c in catalog.of_type(OpponentCard))


def test_depot_upgrades_absent_when_starting_on_depots(catalog: Catalog) -> None:
    dealt = dealt_counter({"startingOffice": "depot"})
    assert "depot" not in dealt
    game = Game(catalog, players=4, seed=3, house_rules={"startingOffice": "depot"})
    assert "depot" not in game.census()
    assert [game.state.office(p) for p in range(4)] == ["depot"] * 4


def test_depot_upgrades_present_when_starting_on_whistle_posts(catalog: Catalog) -> None:
    dealt = dealt_counter({"startingOffice": "whistle-post"})
    assert dealt["depot"] == catalog.by_id["depot"].count
    game = Game(catalog, players=4, seed=3, house_rules={"startingOffice": "whistle-post"})
    assert game.census()["depot"] == catalog.by_id["depot"].count
    assert [game.state.office(p) for p in range(4)] == ["whistle-post"] * 4


@pytest.mark.parametrize("start", ["depot", "whistle-post"])
def test_station_and_terminal_dealt_under_either_start(catalog: Catalog, start: str) -> None:
    dealt = dealt_counter({"startingOffice": start})
    assert dealt["station"] == catalog.by_id["station"].count > 0
    assert dealt["terminal"] == catalog.by_id["terminal"].count > 0


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_count_zero_cards_are_absent(catalog: Catalog, config: dict[str, HouseRuleValue]) -> None:
    dealt = dealt_counter(config)
    zero = [c for c in catalog.cards if c.count == 0]
    assert zero, "the content has no count-0 card to test with"
    for card in zero:
        assert card.id not in dealt
    # the Whistle Post is the supply's base tier, never the deck's
    assert "whistle-post" not in dealt
    # three-way-turnout is an ordinary track shape printed 0 times: only the count keeps it out
    assert "three-way-turnout" not in dealt


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_mainline_cards_never_in_the_home_office_deck(catalog: Catalog, config: dict[str, HouseRuleValue]) -> None:
    dealt = dealt_counter(config)
    for card in catalog.of_type(MainlineCard):
        assert card.id not in dealt
    game = Game(catalog, players=3, seed=11, house_rules=config)
    home = set(game.state.deck) | {c for pile in game.state.departments for c in pile} | {c for hand in game.state.hands for c in hand}
    assert not home & {c.id for c in catalog.of_type(MainlineCard)}


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_deck_size_equals_sum_of_dealt_counts(catalog: Catalog, config: dict[str, HouseRuleValue], players: int) -> None:
    rules = {**defaults(catalog), **config}
    expected = sum(card.count for card in catalog.cards if is_dealt(catalog, card, rules, players))
    assert len(home_deck(catalog, rules, players)) == expected
    game = Game(catalog, players=players, seed=players * 100 + 5, house_rules=config)
    s = game.state
    in_play = len(s.deck) + sum(map(len, s.departments)) + sum(map(len, s.hands)) + len(s.salvage)
    assert in_play == expected
    assert game.census() == dealt_counter(config, players)


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_every_dealt_card_is_dealt_exactly_its_count(catalog: Catalog, config: dict[str, HouseRuleValue]) -> None:
    dealt = dealt_counter(config)
    rules = {**defaults(catalog), **config}
    for card in catalog.cards:
        if is_dealt(catalog, card, rules):
            assert dealt[card.id] == card.count
        else:
            assert dealt[card.id] == 0


def test_office_tiers_at_or_below_the_start_are_not_dealt(catalog: Catalog) -> None:
    ladder = ["whistle-post", "depot", "station", "terminal"]
    for start in ("depot", "whistle-post"):
        rules = {**defaults(catalog), "startingOffice": start}
        for tier in catalog.of_type(OfficeTier):
            assert is_dealt(catalog, tier, rules) == (tier.count > 0 and ladder.index(tier.id) > ladder.index(start))


def _table_cards(ctx: dict[str, object]) -> list[tuple[str, str]]:
    rows = ctx["rows"]
    assert isinstance(rows, list)
    return [(row["id"], row["dealt"]) for row in rows]


def _dealt_tables() -> list[str]:
    """The tables with a Home Office deck Dealt cell per card (the Mainline
    terrain's says whether the inventory holds it)."""
    found = []
    for name, fn in tables.TABLES.items():
        if name in tables.REPORTS or name == "mainline-terrain":
            continue
        rows = fn(CATALOG).get("rows")
        if rows and isinstance(rows, list) and isinstance(rows[0], dict) and "dealt" in rows[0]:
            found.append(name)
    return found


# The simulation reports are measured by playing games, never dealt from a
# catalog: leaving them out keeps seconds of play out of collecting this file.
@pytest.mark.parametrize("name", _dealt_tables())
def test_site_dealt_cells_agree_with_a_real_deal(catalog: Catalog, name: str) -> None:
    """Each card's Dealt cell says in words where a game really holds it:
    the words made from what games created under each configuration hold
    are the cell's words."""
    ctx = tables.TABLES[name](catalog)
    cards = [catalog.by_id[card_id] for card_id, _ in _table_cards(ctx)]
    setups = tables.dealt_setups(catalog, cards)
    held = {key: Game(catalog, players=players, seed=1, house_rules=config).census() for key, config, players in setups.setups}
    every = "every configuration" if setups.facets else "yes"
    for card_id, words in _table_cards(ctx):
        assert words == dealt_words(setups.facets, {key: card_id in census for key, census in held.items()}, every=every), f"{name}: {card_id}"


def test_site_offices_table_names_the_starting_office(catalog: Catalog) -> None:
    rows = dict(_table_cards(tables.offices(catalog)))
    assert rows == {
        "whistle-post": "no",
        "depot": "only where the Office a district opens on is Whistle Post",
        "station": "every configuration",
        "terminal": "every configuration",
    }
