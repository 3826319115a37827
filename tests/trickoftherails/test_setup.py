"""Setting a game up, rule by rule, without the site: the deal and the
starting railways, the Trick Lane of each player count and variant (its
fixed slots, which cards fill the rest, shuffled by the seed), whether a
card is dealt (the Dealt column's source) and which counts a variant seats.
The layouts are written out here from the research (§1.3 of
../shared/games/trick-of-the-rails.md), not read back from lane.yaml."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import ConfigurationError
from engine.rng import SeededStream
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.setup import deal, dealt, lane_plan, layout

EXCHANGES = ["b-and-o-exchange", "c-and-o-exchange", "erie-exchange", "nyc-exchange", "prr-exchange"]
CITIES = ["pittsburgh", "baltimore", "new-york"]
OPERATING = ["loco-3", "loco-4", "loco-5", "loco-6", *CITIES]
E, C, R, OP = "exchange", "city", "reservation", "operating"
LAYOUTS = {
    (3, "basic"): [E, C, E, C, E, C, E, "loco-3", E, "loco-4", R, "loco-5", R, "loco-6", R],
    (3, "expert"): [E, OP, E, OP, E, OP, E, OP, E, OP, R, OP, R, OP, R],
    (4, "basic"): [E, C, E, "loco-3", E, "loco-4", E, "loco-5", E, "loco-6", R],
    (4, "expert"): [E, OP, E, OP, E, OP, E, OP, E, OP, R],
    (5, "basic"): [E, "loco-3", E, "loco-4", E, "loco-5", E, "loco-6", E],
    (5, "expert"): [E, OP, E, OP, E, OP, E, OP, E],
}
SEEDS = range(12)


def _slots(kinds: list[str], kind: str) -> list[int]:
    return [i for i, k in enumerate(kinds) if k == kind]


@pytest.mark.parametrize(("players", "variant"), sorted(LAYOUTS))
def test_the_lane_layouts_are_the_sources(catalog: Catalog, players: int, variant: str) -> None:
    assert list(layout(catalog, players, variant)) == LAYOUTS[players, variant]


@pytest.mark.parametrize(("players", "variant"), sorted(LAYOUTS))
def test_each_game_is_dealt_the_lane_of_its_count_and_variant(catalog: Catalog, players: int, variant: str) -> None:
    kinds = LAYOUTS[players, variant]
    for seed in SEEDS:
        lane = Game(catalog, players, seed=seed, house_rules={"variant": variant}).state.lane
        assert len(lane) == len(kinds) == catalog.hands[players].cards
        for slot, kind in enumerate(kinds):
            if kind not in (E, C, R, OP):
                assert lane[slot] == kind, (seed, slot)
        assert sorted(lane[i] for i in _slots(kinds, E)) == sorted(EXCHANGES)
        assert all(lane[i] == "reservation-card" for i in _slots(kinds, R))
        cities = [lane[i] for i in _slots(kinds, C)]
        assert len(set(cities)) == len(cities) and set(cities) <= set(CITIES)
        drawn = [lane[i] for i in _slots(kinds, OP)]
        assert len(set(drawn)) == len(drawn) and set(drawn) <= set(OPERATING)


@pytest.mark.parametrize(("players", "variant", "kind"), [(3, "basic", E), (3, "basic", C), (4, "basic", C), (3, "expert", OP), (4, "expert", OP), (5, "expert", OP)])
def test_the_lane_is_shuffled_by_the_seed(catalog: Catalog, players: int, variant: str, kind: str) -> None:
    where = _slots(LAYOUTS[players, variant], kind)
    seen = {tuple(Game(catalog, players, seed=seed, house_rules={"variant": variant}).state.lane[i] for i in where) for seed in SEEDS}
    assert len(seen) > 2


def test_an_expert_game_is_not_dealt_the_basic_lane(catalog: Catalog) -> None:
    for seed in SEEDS:
        lane = Game(catalog, 4, seed=seed, house_rules={"variant": "expert"}).state.lane
        assert lane[1] in OPERATING and lane[3:10:2] != ["loco-3", "loco-4", "loco-5", "loco-6"]


def test_the_deal_gives_each_hand_its_size_and_leaves_the_rest(catalog: Catalog) -> None:
    railway = sorted(c.id for c in catalog.railway_cards)
    for players, size, left in ((3, 15, 5), (4, 11, 6), (5, 9, 5)):
        hands, rest = deal(catalog, players, SeededStream(7))
        assert [len(h) for h in hands] == [size] * players and len(rest) == left
        assert sorted([*(c for h in hands for c in h), *rest]) == railway


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_railway_starts_with_its_station_then_the_leftovers_in_deal_order(catalog: Catalog, players: int) -> None:
    several = 0
    for seed in SEEDS:
        game = Game(catalog, players, seed=seed)
        hands, rest = deal(catalog, players, SeededStream(seed))
        assert [sorted(h) for h in game.state.hands] == [sorted(h) for h in hands]
        for company in catalog.companies:
            mine = [card for card in rest if catalog.company_of[card] == company.id]
            several += len(mine) > 1
            assert game.state.railways[company.id] == [f"{company.id}-station", *mine], (seed, company.id)
    assert several, "no seed laid two leftovers on one railway: their order went unchecked"


def test_a_hand_is_held_in_the_catalogs_order(catalog: Catalog) -> None:
    hand = Game(catalog, 3, seed=3).state.hands[0]
    assert hand == sorted(hand, key=catalog.card_order.__getitem__)


EXPECTED_DEALT = {
    # card: dealt at (3 basic, 3 expert, 4 basic, 4 expert, 5 basic, 5 expert)
    "b-and-o-1": ("yes",) * 6,
    "prr-station": ("yes",) * 6,
    "nyc-exchange": ("yes",) * 6,
    # Three City slots at 3 players, one at 4, none at 5 (basic); the Expert
    # operating slots draw them with the locomotives except at 3 players,
    # where seven slots take all seven.
    "pittsburgh": ("yes", "yes", "drawn", "drawn", "no", "drawn"),
    # Three Reservation slots at 3, one at 4, none at 5.
    "reservation-card": ("yes", "yes", "drawn", "drawn", "no", "no"),
    "loco-3": ("yes", "yes", "yes", "drawn", "yes", "drawn"),
    # The [∞] comes with the [6], so wherever the [6] is.
    "loco-all": ("yes", "yes", "yes", "drawn", "yes", "drawn"),
}


@pytest.mark.parametrize("card", sorted(EXPECTED_DEALT))
def test_dealt_says_whether_a_configuration_puts_a_card_in_play(catalog: Catalog, card: str) -> None:
    found = tuple(dealt(catalog, catalog.by_id[card], players, variant) for players in (3, 4, 5) for variant in ("basic", "expert"))
    assert found == EXPECTED_DEALT[card]


@pytest.mark.parametrize(("players", "variant"), sorted(LAYOUTS))
def test_dealt_agrees_with_the_lanes_the_engine_deals(catalog: Catalog, players: int, variant: str) -> None:
    """A lane card said dealt is in every lane, one said drawn in some (the
    Reservations are copies of one card, so drawing among them always finds
    it), one not dealt in none."""
    games = 30
    seen: Counter[str] = Counter()
    for seed in range(games):
        seen.update(set(Game(catalog, players, seed=seed, house_rules={"variant": variant}).state.lane))
    for card in catalog.cards:
        if card.family in ("railway", "stations") or card.id == "loco-all":
            continue  # dealt to hands and railways, or brought by the [6]
        answer = dealt(catalog, card, players, variant)
        if answer == "yes" or card.id == "reservation-card" and answer == "drawn":
            assert seen[card.id] == games, card.id
        elif answer == "drawn":
            assert 0 < seen[card.id] < games, card.id
        else:
            assert seen[card.id] == 0, card.id


def test_a_slot_group_is_drawn_only_when_its_pool_is_larger(catalog: Catalog) -> None:
    groups = {g.pool[0] if len(set(g.pool)) == 1 else "mixed": g for g in lane_plan(catalog, 4, "basic")}
    assert not groups["loco-3"].drawn and not groups["loco-3"].shuffled
    assert groups["reservation-card"].drawn
    assert all(not g.drawn for g in lane_plan(catalog, 3, "basic"))


@pytest.mark.parametrize("players", [3, 5])
def test_teams_is_a_four_player_variant(catalog: Catalog, players: int) -> None:
    with pytest.raises(ConfigurationError, match="4 players"):
        Game(catalog, players, house_rules={"teams": True})
    assert Game(catalog, 4, house_rules={"teams": True}).rules["teams"] is True


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_expert_lane_is_played_at_every_count(catalog: Catalog, players: int) -> None:
    assert Game(catalog, players, house_rules={"variant": "expert"}).rules["variant"] == "expert"
