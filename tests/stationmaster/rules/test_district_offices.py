"""Office cards and the Office a district starts on (Home Deck v0.8.6,
"Office cards" and "The Office you start on"), and what each tier's A/D
tracks mean in the Mainline Phase: a train arriving at a full Office is a
collision unless the district's Interlocking holds it at the Limits."""

from __future__ import annotations

import pytest

from command.stationmaster.textview import render_state
from engine.errors import Reason
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import EndTurn, Hold, Play
from engine.stationmaster.rules.deck import home_deck, office_ladder
from engine.stationmaster.rules.district import capacity
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.state import Car, Train
from tests.kit.stationmaster import CATALOG, ONE_PLAYER_OFFICE, codes, dealt, enhance, give, lay, loaded, new_game, put_train

LADDER = office_ladder(CATALOG)
TIERS = {t.id: t for t in LADDER}
TIER_ORDER = [t.id for t in LADDER]


def test_the_ladder_is_whistle_post_depot_station_terminal() -> None:
    assert TIER_ORDER == ["whistle-post", "depot", "station", "terminal"]


# -- strict sequence -----------------------------------------------------------------------


def _try(game: Game, card: str) -> list[Reason]:
    """Check playing an Office card. A card the deck does not deal at this
    table (a Depot when starting on Depots) is put in hand directly: only the
    refusal is asked for, nothing is applied."""
    if dealt(game)[card]:
        give(game, card)
    else:
        game.state.hands[0].append(card)
    return game.check(Play(0, card))


def test_on_a_depot_start_the_next_tier_is_a_station(game: Game) -> None:
    assert game.state.office(0) == "depot"
    assert _try(game, "station") == []


@pytest.mark.parametrize("card", ["terminal", "depot", "whistle-post"])
def test_on_a_depot_start_no_other_tier_may_be_played(game: Game, card: str) -> None:
    reasons = _try(game, card)
    assert codes(reasons) == ["office-tier-order"], reasons


def test_on_a_whistle_post_start_the_depot_comes_first(catalog: Catalog) -> None:
    game = new_game(catalog, startingOffice="whistle-post")
    assert _try(game, "depot") == []
    for card in ("station", "terminal"):
        assert "office-tier-order" in codes(_try(game, card)), card


def test_the_ladder_is_climbed_one_card_a_turn_to_the_top(catalog: Catalog) -> None:
    game = new_game(catalog, startingOffice="whistle-post")
    for tier in ("depot", "station", "terminal"):
        give(game, tier)
        game.apply(Play(0, tier))
        assert game.state.office(0) == tier
        assert game.state.districts[0].squares[key(0, 0)].card == tier
        slot = game.state.mainline[ONE_PLAYER_OFFICE]
        assert game.state.slot_card(slot) == tier
        assert tier.replace("-", " ") in render_state(game).lower()
        game.state.turn = type(game.state.turn)()
    assert game.state.office_cards[0] == ["depot", "station", "terminal"]
    assert game.census() == dealt(game)
    assert "office-tier-order" in codes(_try(game, "terminal"))


def test_an_upgrade_needs_no_square(game: Game) -> None:
    give(game, "station")
    game.apply(Play(0, "station"))
    assert set(game.state.districts[0].squares) == {key(0, 0)}


# -- an upgrade keeps what is beside it ----------------------------------------------------


def test_an_upgrade_keeps_the_modifiers_beside_the_office(game: Game) -> None:
    lay(game, 0, -1, "waiting-area", modifies=key(0, 0))
    lay(game, 0, 1, "hotel", modifies=key(0, 0))
    enhance(game, 0, 0, "small-yard")
    district = game.state.districts[0]
    give(game, "station")
    game.apply(Play(0, "station"))
    assert district.squares[key(0, -1)].card == "waiting-area" and district.squares[key(0, -1)].modifies == key(0, 0)
    assert district.squares[key(0, 1)].card == "hotel"
    assert district.squares[key(0, 0)].card == "station"
    assert district.squares[key(0, 0)].enhancement == "small-yard"
    assert capacity(game, district, key(0, 0), "outboundSlot") == 1
    assert capacity(game, district, key(0, 0), "inboundSlot") == 1
    assert game.census() == dealt(game)


def test_the_preserved_modifier_still_counts_after_the_upgrade(game: Game) -> None:
    """A Hotel (an inbound slot) and a Restaurant (a Porter) laid beside a
    Depot still count once it is a Station: two slots and two Porters of its
    own plus one of each from the kept Modifiers set down three coaches."""
    lay(game, 0, 1, "hotel", modifies=key(0, 0))
    lay(game, 0, -1, "restaurant", modifies=key(0, 0))
    give(game, "station")
    game.apply(Play(0, "station"))
    put_train(game, "train-1", loaded("coach", 3))
    game.apply(EndTurn(0))
    assert game.state.scores == [3]


# -- what each tier adds ---------------------------------------------------------------------


def test_each_tier_adds_one_ad_track_one_porter_and_a_slot_pair() -> None:
    base = LADDER[0]
    assert (base.ad_tracks, base.porters, base.outbound_slots, base.inbound_slots) == (1, 0, 0, 0)
    assert not base.passenger_facility and not base.control_point
    for lower, upper in zip(LADDER, LADDER[1:]):
        assert upper.upgrades_from == lower.id
        assert upper.ad_tracks == lower.ad_tracks + 1
        assert upper.porters == lower.porters + 1
        assert upper.outbound_slots == lower.outbound_slots + 1
        assert upper.inbound_slots == lower.inbound_slots + 1
        assert upper.passenger_facility and upper.control_point


def _with_tier(tier: str) -> Game:
    game = new_game(CATALOG, startingOffice="whistle-post")
    for step in TIER_ORDER[1 : TIER_ORDER.index(tier) + 1]:
        give(game, step)
        game.apply(Play(0, step))
        game.state.turn = type(game.state.turn)()
    assert game.state.office(0) == tier
    return game


@pytest.mark.parametrize("tier", TIER_ORDER)
def test_a_tier_sets_down_as_many_coaches_as_its_inbound_slots_and_porters(tier: str) -> None:
    game = _with_tier(tier)
    put_train(game, "train-1", loaded("coach", 3))
    game.apply(EndTurn(0))
    office = TIERS[tier]
    expected = min(office.inbound_slots, office.porters) if office.passenger_facility else 0
    assert game.state.scores == [expected]


@pytest.mark.parametrize("tier", TIER_ORDER)
def test_a_tier_boards_as_many_coaches_as_its_outbound_slots(tier: str) -> None:
    game = _with_tier(tier)
    train = put_train(game, "train-1", [Car("coach", False) for _ in range(3)], held=1)
    game.apply(EndTurn(0))
    office = TIERS[tier]
    boarded = sum(c.loaded for c in train.cars)
    assert boarded == (min(office.outbound_slots, office.porters) if office.passenger_facility else 0)
    assert all(c.shipper == 0 for c in train.cars if c.loaded)


def _standing_trains(game: Game, n: int) -> None:
    for i in range(n):
        put_train(game, "train-3", [], train_id=f"standing-{i}", held=2)


def _arriving(game: Game) -> Train:
    return put_train(game, "train-5", [], train_id="arriving", position=ONE_PLAYER_OFFICE - 1, remaining=1)


@pytest.mark.parametrize("tier", TIER_ORDER)
def test_a_tier_holds_as_many_standing_trains_as_it_has_ad_tracks(tier: str) -> None:
    game = _with_tier(tier)
    _standing_trains(game, TIERS[tier].ad_tracks - 1)
    arriving = _arriving(game)
    game.apply(EndTurn(0))
    assert arriving in game.state.trains
    assert (arriving.position, arriving.remaining) == (ONE_PLAYER_OFFICE, 0)
    assert len(game.state.trains) == TIERS[tier].ad_tracks


@pytest.mark.parametrize("tier", TIER_ORDER)
def test_one_train_more_than_its_ad_tracks_is_a_collision(tier: str) -> None:
    game = _with_tier(tier)
    _standing_trains(game, TIERS[tier].ad_tracks)
    arriving = _arriving(game)
    game.apply(EndTurn(0))
    assert arriving not in game.state.trains
    assert len(game.state.trains) == TIERS[tier].ad_tracks - 1
    assert any("wrecked" in line and TIERS[tier].name in line for line in game.state.log)


# -- the Office a district starts on ------------------------------------------------------


def test_districts_open_on_a_depot_by_default(catalog: Catalog) -> None:
    game = Game(catalog, players=2, seed=5)
    assert game.rules["startingOffice"] == "depot"
    assert [game.state.office(p) for p in range(2)] == ["depot", "depot"]
    for _player, district in enumerate(game.state.districts):
        assert district.squares[key(0, 0)].card == "depot"
        assert district.squares[key(0, 0)].kind == "office"
    assert [game.state.slot_card(slot) for slot in game.state.mainline if slot.kind == "office"] == ["depot", "depot"]


def test_the_harder_game_opens_on_whistle_posts(catalog: Catalog) -> None:
    game = Game(catalog, players=2, seed=5, house_rules={"startingOffice": "whistle-post"})
    assert [game.state.office(p) for p in range(2)] == ["whistle-post", "whistle-post"]
    assert [game.state.slot_card(slot) for slot in game.state.mainline if slot.kind == "office"] == ["whistle-post", "whistle-post"]


@pytest.mark.parametrize("start,depots_dealt", [("depot", False), ("whistle-post", True)])
def test_depot_cards_are_dealt_only_when_districts_open_on_whistle_posts(catalog: Catalog, start: str, depots_dealt: bool) -> None:
    deck = [c.id for c in home_deck(catalog, {**Game(catalog, seed=1).rules, "startingOffice": start})]
    assert ("depot" in deck) == depots_dealt
    assert "station" in deck and "terminal" in deck
    assert "whistle-post" not in deck


# -- a Whistle Post, a second train, and the Interlocking ---------------------------------


def _whistle_post_with_a_standing_train() -> tuple[Game, Train, Train]:
    game = new_game(CATALOG, startingOffice="whistle-post")
    standing = put_train(game, "extra-18", loaded("flatcar", 3), train_id="standing")
    game.apply(Hold(0, train="standing"))  # it keeps the one A/D track through the phase
    arriving = _arriving(game)
    return game, standing, arriving


def test_a_second_train_arriving_at_a_whistle_post_is_a_collision() -> None:
    game, standing, arriving = _whistle_post_with_a_standing_train()
    trays = game.state.crew_trays_free
    game.apply(EndTurn(0))
    assert standing not in game.state.trains and arriving not in game.state.trains
    assert any("wrecked" in line and "Whistle Post" in line for line in game.state.log)
    assert game.state.crew_trays_free == trays + 2
    assert game.census() == dealt(game)  # the wrecked Extra's card went to the Salvage Yard
    assert "extra-18" in game.state.salvage


def test_an_interlocking_holds_the_second_train_at_the_limits_instead() -> None:
    game, standing, arriving = _whistle_post_with_a_standing_train()
    give(game, "interlocking")
    game.apply(Play(0, "interlocking", x=0, y=0))
    game.apply(EndTurn(0))
    assert standing in game.state.trains and arriving in game.state.trains
    assert (arriving.position, arriving.remaining) == (ONE_PLAYER_OFFICE - 1, 1)  # at the Limits, not on the A/D track
    assert any("Interlocking holds" in line for line in game.state.log)
    assert not any("wrecked" in line for line in game.state.log)
    assert standing.cars == loaded("flatcar", 3)


def test_the_held_train_comes_in_once_the_track_frees() -> None:
    game, standing, arriving = _whistle_post_with_a_standing_train()
    give(game, "interlocking")
    game.apply(Play(0, "interlocking", x=0, y=0))
    game.apply(EndTurn(0))  # standing is held this phase; arriving waits at the Limits
    for _ in range(3):
        if (arriving.position, arriving.remaining) == (ONE_PLAYER_OFFICE, 0):
            break
        game.apply(EndTurn(0))
    assert (arriving.position, arriving.remaining) == (ONE_PLAYER_OFFICE, 0)
    assert arriving in game.state.trains
    assert not any("wrecked" in line for line in game.state.log)


def test_a_depot_takes_the_same_second_train_without_an_interlocking(game: Game) -> None:
    standing = put_train(game, "extra-18", loaded("flatcar", 3), train_id="standing")
    game.apply(Hold(0, train="standing"))
    arriving = _arriving(game)
    game.apply(EndTurn(0))
    assert standing in game.state.trains and arriving in game.state.trains
    assert (arriving.position, arriving.remaining) == (ONE_PLAYER_OFFICE, 0)
