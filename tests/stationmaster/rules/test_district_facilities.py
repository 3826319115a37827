"""Freight facilities and Facility Modifiers (Home Deck v0.8.6, "Freight
facilities" and "Facility modifiers").

The district is tests/kit/stationmaster.py's branch yard: Running Track from
-3 to 3 (Limits at -4 and 4), an east stub ending at the empty square (3,-1)
and a west stub ending at (-3,-1), both reachable from the Office.
"""

from __future__ import annotations

import pytest

from engine.errors import Reason
from engine.stationmaster.content.model import Catalog, Facility, FacilityModifier
from engine.stationmaster.rules.actions import EndTurn, Play, Spot
from engine.stationmaster.rules.district import capacity
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import key
from tests.kit.stationmaster import CATALOG, branch_yard, codes, dealt, empty, enhance, give, lay, loaded, new_game, put_train, running_track

FACILITIES = CATALOG.of_type(Facility)
LOCKOUT_PAIRS = sorted({(f.id, p) for f in FACILITIES for p in f.lockouts})

EAST_STUB = (3, -1)
WEST_STUB = (-3, -1)


def yard() -> Game:
    game = new_game(CATALOG)
    branch_yard(game)
    return game


def play(game: Game, card: str, x: int, y: int) -> list[Reason]:
    """Check playing ``card`` at (x, y), handing it over first if need be."""
    if card not in game.state.hands[0]:
        give(game, card)
    return game.check(Play(0, card, x=x, y=y, rotation=0))


def build(game: Game, card: str, x: int, y: int) -> None:
    give(game, card)
    game.apply(Play(0, card, x=x, y=y, rotation=0))
    game.state.turn = type(game.state.turn)()  # as if a new turn had begun


# ===================================================================================
# Freight facilities
# ===================================================================================


def test_a_facility_on_a_connected_stub_is_accepted() -> None:
    game = yard()
    assert play(game, "grocers-warehouse", *EAST_STUB) == []
    assert play(game, "coal-mine", *WEST_STUB) == []


def test_a_facility_joined_to_nothing_is_refused() -> None:
    game = yard()
    reasons = play(game, "grocers-warehouse", 0, -3)
    assert codes(reasons) == ["not-on-a-stub"], reasons


def test_a_diagonal_leg_does_not_make_a_stub_for_a_facility(game: Game) -> None:
    """A Facility carries east-west rails only; the turnout's NE leg pointing
    into (2,-1) does not connect it."""
    running_track(game, -1, 3)
    game.state.deck.append(game.state.districts[0].squares.pop(key(1, 0)).card)
    lay(game, 1, 0, "turnout-left", 0)
    assert "not-on-a-stub" in codes(play(game, "grocers-warehouse", 2, -1))


@pytest.mark.parametrize("x", [1, 2, 4])
def test_a_facility_never_stands_on_the_running_track(x: int) -> None:
    """Over a straight of the Running Track, or on the Limit square."""
    game = yard()
    assert "industry-on-running-track" in codes(play(game, "freight-house", x, 0))


def test_a_facility_never_stands_outside_the_limits() -> None:
    """A straight at (3,-1) points its east end at (4,-1), on the Limit's
    column: joined, but outside."""
    game = yard()
    lay(game, 3, -1, "straight")
    reasons = play(game, "freight-house", 4, -1)
    assert codes(reasons) == ["outside-limits"], reasons
    assert "outside-limits" in codes(play(game, "freight-house", 9, -1))


def test_a_facility_places_its_own_track_and_starts_with_the_content_crew(catalog: Catalog) -> None:
    game = yard()
    build(game, "grocers-warehouse", *EAST_STUB)
    square = game.state.districts[0].squares[key(*EAST_STUB)]
    start = catalog.facility_start
    assert start.pipeline == ("MEN", "AT", "WORK")
    assert square.kind == "facility" and square.card == "grocers-warehouse"
    assert square.laborers == start.laborers == 1
    assert square.pipeline == [0, 0, 0]
    assert square.cars == [] and square.waiting == 0
    assert game.census() == dealt(game)


# -- over a straight already laid ----------------------------------------------------


def test_a_facility_may_be_built_over_a_plain_straight_which_goes_to_the_salvage_yard() -> None:
    game = yard()
    lay(game, 3, -1, "straight")
    assert play(game, "packing-sheds", *EAST_STUB) == []
    salvage = list(game.state.salvage)
    game.apply(Play(0, "packing-sheds", x=3, y=-1, rotation=0))
    assert game.state.districts[0].squares[key(*EAST_STUB)].card == "packing-sheds"
    assert game.state.salvage == salvage + ["straight"]
    assert game.census() == dealt(game)


def test_a_facility_over_a_straight_need_not_be_beside_other_rail() -> None:
    """The straight it replaces was judged when it was laid; building over it
    is like a turnout upgrade, so it is not refused for its neighbours."""
    game = yard()
    lay(game, 0, -3, "straight")  # laid directly: nothing beside it
    assert play(game, "freight-house", 0, -3) == []


@pytest.mark.parametrize("laid,rotation,name", [("curve-left", 180, "Curve (left)"), ("turnout-left", 180, "Turnout (left)")])
def test_a_facility_is_never_built_over_a_curve_or_a_turnout(laid: str, rotation: int, name: str) -> None:
    game = yard()
    square = game.state.districts[0].squares.pop(key(2, -1))
    game.state.deck.append(square.card)
    lay(game, 2, -1, laid, rotation)
    reasons = play(game, "freight-house", 2, -1)
    assert "not-a-plain-straight" in codes(reasons), (name, reasons)


@pytest.mark.parametrize("burden,expected", [("cars", "track-has-cars"), ("caboose", "track-has-cars"), ("enhancement", "track-has-enhancement")])
def test_a_facility_is_never_built_over_a_straight_holding_cars_or_an_enhancement(burden: str, expected: str) -> None:
    game = yard()
    square = lay(game, 3, -1, "straight")
    if burden == "cars":
        square.cars = empty("boxcar", 2)
    elif burden == "caboose":
        square.caboose_of = "a-train"
    else:
        enhance(game, 3, -1, "small-yard")
    reasons = play(game, "freight-house", *EAST_STUB)
    assert codes(reasons) == [expected], reasons


@pytest.mark.parametrize("occupant", ["facility", "modifier"])
def test_a_facility_is_never_built_over_another_facility_or_a_modifier(occupant: str) -> None:
    game = yard()
    lay(game, 3, -1, "freight-house")
    where = (3, -1)
    if occupant == "modifier":
        lay(game, 3, -2, "loading-ramp", modifies=key(3, -1))
        where = (3, -2)
    assert "not-a-plain-straight" in codes(play(game, "coal-mine", *where))


# -- one of each, and never both ends of a lockout pair -----------------------------------


@pytest.mark.parametrize("facility", [f.id for f in FACILITIES])
def test_no_office_area_holds_two_of_one_industry(facility: str) -> None:
    game = yard()
    if dealt(game)[facility] < 2:  # a single-copy card: the second one is put in hand for the check only
        lay(game, *EAST_STUB, facility)
        game.state.hands[0].append(facility)
        reasons = game.check(Play(0, facility, x=WEST_STUB[0], y=WEST_STUB[1]))
    else:
        build(game, facility, *EAST_STUB)
        reasons = play(game, facility, *WEST_STUB)
    assert codes(reasons) == ["one-per-office-area"], reasons


def test_two_different_industries_that_lock_nothing_out_may_share_a_district() -> None:
    game = yard()
    build(game, "freight-house", *EAST_STUB)
    assert play(game, "coal-mine", *WEST_STUB) == []


def test_every_lockout_pair_is_a_producer_and_consumer_of_one_commodity(catalog: Catalog) -> None:
    assert LOCKOUT_PAIRS, "the content declares no lockout pairs"
    for a, b in LOCKOUT_PAIRS:
        fa, fb = catalog.by_id[a], catalog.by_id[b]
        assert isinstance(fa, Facility) and isinstance(fb, Facility)
        assert fa.commodity == fb.commodity
        assert {fa.traffic, fb.traffic} == {"inbound", "outbound"}


@pytest.mark.parametrize("first,second", LOCKOUT_PAIRS)
def test_both_ends_of_a_lockout_pair_are_never_in_one_district(first: str, second: str) -> None:
    game = yard()
    lay(game, *EAST_STUB, first)
    reasons = play(game, second, *WEST_STUB)
    assert codes(reasons) == ["lockout-pair"], reasons


def test_a_lockout_partner_in_another_district_does_not_matter(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    branch_yard(game, player=0)
    branch_yard(game, player=1)
    lay(game, *EAST_STUB, "packing-sheds", player=1)
    assert play(game, "grocers-warehouse", *EAST_STUB) == []


# -- an industry track holds four cars -------------------------------------------------


def _spot_train(game: Game, n: int) -> None:
    put_train(game, "train-3", loaded("reefer", n), train_id="switcher")


@pytest.mark.parametrize("facility", ["grocers-warehouse", "freight-house", "packing-sheds"])
@pytest.mark.parametrize("modifier", [None, "truck-dock", "loading-ramp"])
def test_an_industry_track_holds_four_cars_whatever_its_boxes(facility: str, modifier: str | None) -> None:
    game = yard()
    square = lay(game, *EAST_STUB, facility)
    if modifier:
        lay(game, 3, -2, modifier, modifies=key(*EAST_STUB))
    square.cars = empty("boxcar", 1)
    _spot_train(game, 3)
    assert game.check(Spot(0, train="switcher", x=3, y=-1, cars=3)) == []
    game.apply(Spot(0, train="switcher", x=3, y=-1, cars=3))
    assert len(square.cars) == 4
    game.state.trains[0].cars = loaded("reefer", 1)
    assert codes(game.check(Spot(0, train="switcher", x=3, y=-1, cars=1))) == ["track-full"]


def test_five_cars_are_refused_in_one_move_too() -> None:
    game = yard()
    square = lay(game, *EAST_STUB, "grocers-warehouse")
    square.cars = empty("boxcar", 2)
    _spot_train(game, 3)
    assert "track-full" in codes(game.check(Spot(0, train="switcher", x=3, y=-1, cars=3)))
    assert game.check(Spot(0, train="switcher", x=3, y=-1, cars=2)) == []


# ===================================================================================
# Facility modifiers
# ===================================================================================

CORNER = "not-beside-host"


def host_at(game: Game, x: int, y: int, facility: str = "grocers-warehouse") -> None:
    lay(game, x, y, facility)


@pytest.mark.parametrize("where", [(1, -3), (2, -2), (1, -1), (0, -2)], ids=["N", "E", "S", "W"])
def test_a_modifier_may_stand_orthogonally_beside_its_host(where: tuple[int, int]) -> None:
    game = yard()
    host_at(game, 1, -2)
    assert play(game, "truck-dock", *where) == []


@pytest.mark.parametrize("where", [(0, -3), (2, -3), (0, -1)], ids=["NW", "NE", "SW"])
def test_a_modifier_on_a_diagonal_of_its_host_is_refused(where: tuple[int, int]) -> None:
    game = yard()
    host_at(game, 1, -2)
    reasons = play(game, "truck-dock", *where)
    assert codes(reasons) == [CORNER], reasons


def test_a_modifier_with_no_host_anywhere_near_is_refused() -> None:
    game = yard()
    assert CORNER in codes(play(game, "loading-ramp", 0, -3))


def test_a_modifier_beside_its_host_but_outside_the_limits_is_refused() -> None:
    game = yard()
    host_at(game, *EAST_STUB)  # (3,-1); east of it, (4,-1), is the Limit's column
    reasons = play(game, "truck-dock", 4, -1)
    assert codes(reasons) == ["outside-limits"], reasons


def test_a_modifier_never_stands_in_the_running_track_row() -> None:
    game = yard()
    host_at(game, *EAST_STUB)
    assert "modifier-on-running-track" in codes(play(game, "truck-dock", 4, 0))


def test_the_running_track_row_rule_alone() -> None:
    """In a legal district the only empty squares of row 0 are the Limit
    squares, which are outside anyway. To see this rule on its own the test
    clears one Running Track square beside a host: then it is the only fault."""
    game = yard()
    host_at(game, *EAST_STUB)
    game.state.deck.append(game.state.districts[0].squares.pop(key(3, 0)).card)
    assert codes(play(game, "truck-dock", 3, 0)) == ["modifier-on-running-track"]


def test_a_modifier_needs_an_empty_square() -> None:
    game = yard()
    host_at(game, *EAST_STUB)
    lay(game, 3, -2, "straight")
    assert codes(play(game, "truck-dock", 3, -2)) == ["square-taken"]


def test_one_of_each_kind_of_modifier_per_district() -> None:
    game = yard()
    host_at(game, *EAST_STUB)
    host_at(game, *WEST_STUB, "power-plant")
    build(game, "truck-dock", 3, -2)
    assert codes(play(game, "truck-dock", -3, -2)) == ["one-per-office-area"]
    assert play(game, "loading-ramp", -3, -2) == []


def test_a_modifier_naming_its_hosts_only_stands_beside_one_of_them() -> None:
    game = yard()
    host_at(game, *EAST_STUB, "packing-sheds")
    host_at(game, *WEST_STUB, "freight-house")
    assert play(game, "cold-storage", 3, -2) == []
    assert CORNER in codes(play(game, "cold-storage", -3, -2))


# -- passenger modifiers ---------------------------------------------------------------

PASSENGER = ["waiting-area", "hotel", "restaurant"]


@pytest.mark.parametrize("card", PASSENGER)
def test_a_passenger_modifier_is_refused_at_a_whistle_post_with_the_reason(catalog: Catalog, card: str) -> None:
    game = new_game(catalog, startingOffice="whistle-post")
    reasons = play(game, card, 0, -1)
    assert codes(reasons) == ["needs-passenger-facility"], reasons


@pytest.mark.parametrize("card", PASSENGER)
def test_a_passenger_modifier_is_allowed_at_a_depot(game: Game, card: str) -> None:
    assert play(game, card, 0, -1) == []
    assert play(game, card, 0, 1) == []
    game.apply(Play(0, card, x=0, y=1))
    assert game.state.districts[0].squares[key(0, 1)].modifies == key(0, 0)


def test_a_whistle_post_upgraded_to_a_depot_takes_a_passenger_modifier(catalog: Catalog) -> None:
    game = new_game(catalog, startingOffice="whistle-post")
    build(game, "depot", 0, 0)
    assert play(game, "hotel", 0, -1) == []


@pytest.mark.parametrize("card", PASSENGER)
def test_passenger_modifiers_stand_beside_the_office_only_orthogonally(game: Game, card: str) -> None:
    running_track(game, -1, 1)
    assert CORNER in codes(play(game, card, 1, -1))


def test_which_modifiers_are_passenger_modifiers(catalog: Catalog) -> None:
    found = sorted(m.id for m in catalog.of_type(FacilityModifier) if m.passenger)
    assert found == sorted(PASSENGER)


# -- a Modifier adds a box, never room for a car ---------------------------------------


def test_a_truck_dock_lets_one_more_arriving_load_be_cleared() -> None:
    results = {}
    for with_dock in (False, True):
        game = yard()
        square = lay(game, *EAST_STUB, "grocers-warehouse")
        if with_dock:
            build(game, "truck-dock", 3, -2)
        square.cars = loaded("reefer", 3)
        game.apply(EndTurn(0))
        results[with_dock] = (sum(not c.loaded for c in square.cars), square.pipeline[0])
    assert results == {False: (1, 1), True: (2, 2)}


def test_a_loading_ramp_lets_one_more_load_wait_for_a_car() -> None:
    waits = {}
    for with_ramp in (False, True):
        game = yard()
        square = lay(game, *EAST_STUB, "packing-sheds")
        if with_ramp:
            build(game, "loading-ramp", 3, -2)
        for _ in range(3):
            game.apply(EndTurn(0))
        waits[with_ramp] = square.waiting
    assert waits == {False: 1, True: 2}


def test_the_modifier_adds_no_car_room(catalog: Catalog) -> None:
    """Covered for every pairing by test_an_industry_track_holds_four_cars_whatever_its_boxes;
    here the numbers are read directly."""
    game = yard()
    lay(game, *EAST_STUB, "grocers-warehouse")
    build(game, "truck-dock", 3, -2)
    district = game.state.districts[0]
    assert capacity(game, district, key(*EAST_STUB), "inboundBox") == 1
    assert catalog.game.table.cars_per_track == 4


# -- a grant the host cannot use ---------------------------------------------------------


def test_a_truck_dock_beside_packing_sheds_does_nothing_and_the_log_says_so() -> None:
    game = yard()
    square = lay(game, *EAST_STUB, "packing-sheds")
    build(game, "truck-dock", 3, -2)
    line = game.state.log[-1]
    assert line.startswith("Truck Dock stands beside Packing Sheds")
    assert "does nothing" in line and "Packing Sheds only ships" in line
    district = game.state.districts[0]
    assert capacity(game, district, key(*EAST_STUB), "inboundBox") == 0
    assert capacity(game, district, key(*EAST_STUB), "outboundBox") == 0
    for _ in range(3):
        game.apply(EndTurn(0))
    assert square.waiting == 1  # exactly what Packing Sheds does alone
    assert game.census() == dealt(game)  # the card is on the table, doing nothing


def test_a_loading_ramp_beside_an_inbound_only_industry_does_nothing_either() -> None:
    game = yard()
    lay(game, *EAST_STUB, "grocers-warehouse")
    build(game, "loading-ramp", 3, -2)
    assert "its outbound box does nothing: Grocer's Warehouse only receives" in game.state.log[-1]
    assert capacity(game, game.state.districts[0], key(*EAST_STUB), "outboundBox") == 0


def test_a_grant_the_host_can_use_carries_no_such_note() -> None:
    game = yard()
    lay(game, *EAST_STUB, "grocers-warehouse")
    build(game, "truck-dock", 3, -2)
    assert game.state.log[-1] == "Truck Dock stands beside Grocer's Warehouse"


def test_a_modifier_played_keeps_the_census_equal_to_the_deck() -> None:
    game = yard()
    build(game, "freight-house", *EAST_STUB)
    build(game, "truck-dock", 3, -2)
    assert game.census() == dealt(game)


# -- a Modifier between two industries ---------------------------------------------------


def _between(north: str, south: str) -> Game:
    """Two industries (not a lockout pair) with one empty square between them:
    ``north`` at (1,-3), ``south`` at (1,-1), the Modifier's square (1,-2)."""
    game = yard()
    lay(game, 1, -3, north)
    lay(game, 1, -1, south)
    build(game, "truck-dock", 1, -2)
    return game


def test_a_truck_dock_between_two_industries_serves_the_inbound_one_to_its_north() -> None:
    game = _between("fuel-dealer", "coal-mine")
    assert capacity(game, game.state.districts[0], key(1, -3), "inboundBox") == 1


def test_a_truck_dock_between_two_industries_serves_the_inbound_one_to_its_south() -> None:
    game = _between("coal-mine", "fuel-dealer")
    assert capacity(game, game.state.districts[0], key(1, -1), "inboundBox") == 1
