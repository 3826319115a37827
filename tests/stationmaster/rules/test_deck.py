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


def _table_cards(ctx: dict[str, object]) -> list[tuple[str, list[bool]]]:
    rows = ctx["rows"]
    assert isinstance(rows, list)
    return [(row["id"], row["dealt"]) for row in rows]


# The simulation reports are measured by playing games, never dealt from a
# catalog: leaving them out keeps seconds of play out of collecting this file.
@pytest.mark.parametrize("name", [n for n, fn in tables.TABLES.items() if n not in tables.REPORTS and "dealt_labels" in fn(CATALOG)])
def test_site_dealt_columns_agree_with_a_real_deal(catalog: Catalog, name: str) -> None:
    """The site's Dealt column for each configuration says yes exactly when a
    game created under that configuration really holds the card."""
    ctx = tables.TABLES[name](catalog)
    cards = [catalog.by_id[card_id] for card_id, _ in _table_cards(ctx)]
    columns = tables.dealt_columns(catalog, cards)
    assert columns.labels == ctx["dealt_labels"]
    for column, (config, players) in enumerate(zip(columns.configs, columns.seats)):
        held = Game(catalog, players=players, seed=1, house_rules=config).census()
        for card_id, dealt in _table_cards(ctx):
            assert dealt[column] == is_dealt(catalog, catalog.by_id[card_id], config, players)
            assert dealt[column] == (card_id in held), f"{name}: {card_id} under {config}"


def test_site_offices_table_has_a_column_per_starting_office(catalog: Catalog) -> None:
    ctx = tables.offices(catalog)
    rows = dict(_table_cards(ctx))
    labels = ctx["dealt_labels"]
    depot_col = next(i for i, label in enumerate(labels) if "Depot" in label)
    wp_col = next(i for i, label in enumerate(labels) if "Whistle Post" in label)
    assert rows["depot"][depot_col] is False and rows["depot"][wp_col] is True
    assert rows["station"] == [True, True] and rows["terminal"] == [True, True]
    assert rows["whistle-post"] == [False, False]
