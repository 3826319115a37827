"""What a district's industries and Office do at the end of its player's
turn, and the points they earn; and the trains that pay for stopping
(Home Deck v0.8.6, "Freight facilities", "Trains that pay for stopping").

Scoring as the engine reads it (engine/industry.py): a load worked through an
industry's MEN | AT | WORK pipeline earns its district a point; a car an
industry loaded earns its shipper a point when it reaches a Division Point;
a passenger set down at a Passenger Facility earns that district a point.
"""

from __future__ import annotations

import pytest

from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Draw, EndTurn, Hold, Play, Pull, RedFlag, Spot
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.state import Car, Train
from tests.kit.stationmaster import CATALOG, ONE_PLAYER_OFFICE, branch_yard, codes, dealt, empty, give, lay, loaded, new_game, office_slot, put_train

PIPELINE = len(CATALOG.facility_start.pipeline)
STUB = (3, -1)


def yard() -> Game:
    game = new_game(CATALOG)
    branch_yard(game)
    return game


def industry(game: Game, card: str, cars: list[Car] | None = None):  # type: ignore[no-untyped-def]
    square = lay(game, *STUB, card)
    square.cars = list(cars or [])
    return square


# -- inbound industries --------------------------------------------------------------------


def test_a_spotted_load_is_unloaded_and_scores_after_the_pipeline() -> None:
    game = yard()
    square = industry(game, "grocers-warehouse")
    put_train(game, "train-3", loaded("reefer", 1), train_id="t")
    game.apply(Spot(0, train="t", x=3, y=-1, cars=1))
    game.apply(EndTurn(0))  # the end of the turn: the car is unloaded into MEN
    assert square.cars == [Car("reefer", False)]
    assert square.pipeline == [1, 0, 0] and game.state.scores == [0]
    game.apply(EndTurn(0))
    assert square.pipeline == [0, 1, 0] and game.state.scores == [0]  # AT
    game.apply(EndTurn(0))
    assert square.pipeline == [0, 0, 1] and game.state.scores == [0]  # WORK
    game.apply(EndTurn(0))
    assert square.pipeline == [0, 0, 0] and game.state.scores == [1]
    assert any("Grocer's Warehouse: 1 load worked through; player 0 scores 1" in line for line in game.state.log)


def test_the_pipeline_has_the_contents_three_boxes(catalog: Catalog) -> None:
    assert catalog.facility_start.pipeline == ("MEN", "AT", "WORK")


def test_an_inbound_industry_ignores_loads_of_a_type_it_does_not_work() -> None:
    game = yard()
    square = industry(game, "grocers-warehouse", loaded("boxcar", 1) + loaded("hopper", 1))
    for _ in range(PIPELINE + 2):
        game.apply(EndTurn(0))
    assert all(c.loaded for c in square.cars)
    assert square.pipeline == [0, 0, 0] and game.state.scores == [0]


@pytest.mark.parametrize(
    ("commodity", "taken"),
    [("merchandise", False), ("lumber", True), (None, True)],
    ids=["another-commodity", "its-own-commodity", "a-load-from-off-the-map"],
)
def test_an_industry_takes_in_only_its_own_commodity(catalog: Catalog, commodity: str | None, taken: bool) -> None:
    """A Lumber Yard works boxcars, and so does the Freight House that loads
    them with merchandise: a boxcar of merchandise from another district is
    left loaded at the Lumber Yard; a boxcar of lumber, or a load from off the
    map (no commodity), is taken in."""
    game = new_game(catalog, players=2)
    branch_yard(game)
    car = Car("boxcar", True, shipper=None if commodity is None else 1, commodity=commodity)
    square = industry(game, "lumber-yard", [car])
    game.apply(EndTurn(0))
    assert car.loaded is not taken
    assert square.pipeline == ([1, 0, 0] if taken else [0, 0, 0])


def test_an_inbound_industry_leaves_empties_alone() -> None:
    game = yard()
    square = industry(game, "power-plant", empty("hopper", 2))
    for _ in range(PIPELINE + 2):
        game.apply(EndTurn(0))
    assert game.state.scores == [0] and square.pipeline == [0, 0, 0]


def test_an_industry_without_a_laborer_does_no_work() -> None:
    game = yard()
    square = industry(game, "grocers-warehouse", loaded("reefer", 1))
    square.laborers = 0
    game.apply(EndTurn(0))
    assert square.cars[0].loaded and square.pipeline == [0, 0, 0]


def test_only_the_player_whose_turn_ends_has_their_district_worked(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    branch_yard(game, player=1)
    square = lay(game, *STUB, "grocers-warehouse", player=1)
    square.cars = loaded("reefer", 1)
    game.apply(EndTurn(0))
    assert square.cars[0].loaded
    game.apply(EndTurn(1))
    assert not square.cars[0].loaded and square.pipeline == [1, 0, 0]


# -- outbound industries -------------------------------------------------------------------


def test_an_outbound_industry_loads_an_empty_car_of_its_type() -> None:
    game = yard()
    square = industry(game, "packing-sheds", empty("boxcar", 1) + empty("reefer", 1))
    game.apply(EndTurn(0))
    assert square.cars == [Car("boxcar", False), Car("reefer", True, shipper=0, commodity="produce")]
    assert game.state.scores == [0]  # loading earns nothing yet: delivery does


def test_an_outbound_industry_with_no_car_keeps_its_load_waiting(catalog: Catalog) -> None:
    game = yard()
    square = industry(game, "coal-mine")
    for _ in range(3):
        game.apply(EndTurn(0))
    assert square.waiting == catalog.by_id["coal-mine"].outbound_boxes  # type: ignore[attr-defined]
    square.cars = empty("hopper", 2)
    game.apply(EndTurn(0))
    assert [c.loaded for c in square.cars] == [True, False]  # one box, one load waiting
    assert square.waiting == 0
    game.apply(EndTurn(0))
    assert [c.loaded for c in square.cars] == [True, True]


def test_a_freight_house_works_both_ways() -> None:
    """Traffic "both": a loaded boxcar arriving is unloaded into MEN, and an
    empty one is loaded for shipping."""
    game = yard()
    square = industry(game, "freight-house", [Car("boxcar", True)])
    game.apply(EndTurn(0))
    assert square.pipeline[0] == 1
    game = yard()
    square = industry(game, "freight-house", [Car("boxcar", False)])
    game.apply(EndTurn(0))
    assert square.cars == [Car("boxcar", True, shipper=0, commodity="merchandise")]


def test_a_car_standing_at_a_freight_house_does_not_earn_a_point_every_turn() -> None:
    game = yard()
    industry(game, "freight-house", [Car("boxcar", False)])
    for _ in range(10):
        game.apply(EndTurn(0))
    assert game.state.scores == [0]


# -- a loaded car reaching a Division Point pays its shipper ------------------------------


@pytest.mark.parametrize("heading,position,end", [("east", ONE_PLAYER_OFFICE + 1, "East Division Point"), ("west", ONE_PLAYER_OFFICE - 1, "West Division Point")])
def test_a_shipped_car_reaching_a_division_point_pays_its_shipper(heading: str, position: int, end: str) -> None:
    game = yard()
    put_train(game, "train-3", [Car("reefer", True, shipper=0), Car("boxcar", True), Car("hopper", False, shipper=0)], heading=heading, position=position, remaining=1)
    game.apply(EndTurn(0))
    assert game.state.scores == [1]
    assert any(f"a reefer loaded by player 0 reaches {end}; player 0 scores 1" in line for line in game.state.log)


def test_a_shipped_car_pays_its_shipper_not_the_district_it_passes(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    east_dp = len(game.state.mainline) - 1
    put_train(game, "train-3", [Car("reefer", True, shipper=0)], position=east_dp - 1, remaining=1)
    game.apply(EndTurn(0))
    game.apply(EndTurn(1))
    assert game.state.scores == [1, 0]


def test_a_shipped_car_stopping_at_an_office_pays_nothing() -> None:
    game = yard()
    put_train(game, "train-3", [Car("reefer", True, shipper=0)], position=ONE_PLAYER_OFFICE - 1, remaining=1)
    game.apply(EndTurn(0))
    assert game.state.trains[0].position == ONE_PLAYER_OFFICE
    assert game.state.scores == [0]


def test_from_industry_to_division_point_end_to_end() -> None:
    """Packing Sheds loads the empty reefer standing on its track; a train at
    the Office pulls it and carries it to the East Division Point."""
    game = yard()
    industry(game, "packing-sheds", empty("reefer", 1))
    game.apply(EndTurn(0))
    put_train(game, "train-3", [], train_id="t")
    game.apply(Pull(0, train="t", x=3, y=-1))
    assert game.state.trains[0].cars == [Car("reefer", True, shipper=0, commodity="produce")]
    for _ in range(3):
        game.apply(EndTurn(0))
        if not game.state.trains:
            break
    assert game.state.scores == [1]


# -- passengers -------------------------------------------------------------------------


def test_coaches_set_down_at_a_depot_score_for_that_district(game: Game) -> None:
    train = put_train(game, "train-1", loaded("coach", 1), held=1)
    game.apply(EndTurn(0))
    assert game.state.scores == [1]
    assert train.cars == [Car("coach", False)]
    assert any("a coach of passengers is set down at player 0's Depot; player 0 scores 1" in line for line in game.state.log)


def test_no_passenger_is_set_down_at_a_whistle_post(catalog: Catalog) -> None:
    game = new_game(catalog, startingOffice="whistle-post")
    train = put_train(game, "train-1", loaded("coach", 3), held=1)
    game.apply(EndTurn(0))
    assert game.state.scores == [0]
    assert all(c.loaded and c.shipper is None for c in train.cars)


def test_passengers_boarded_here_are_set_down_elsewhere_not_here(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    train = put_train(game, "train-1", [Car("coach", False)], held=1)
    game.apply(EndTurn(0))  # boards at player 0's Depot
    assert train.cars == [Car("coach", True, shipper=0)]
    game.apply(EndTurn(1))  # (player 1's turn: the train is not at their Office)
    assert game.state.scores == [0, 0]
    train.position, train.remaining, train.held = office_slot(game, 1), 0, 1
    game.apply(EndTurn(0))
    assert game.state.scores == [0, 0]  # player 0's turn: the train is at player 1's Office
    game.apply(EndTurn(1))
    assert game.state.scores == [0, 1]


def test_a_coach_is_never_set_down_in_the_district_that_filled_it(game: Game) -> None:
    """A train standing at the Depot through two turns' ends: the first fills
    its empty coach, the second sets nothing down there (no traffic in
    circles), and the district earns nothing for its own passengers."""
    train = put_train(game, "train-1", [Car("coach", False)], held=2)
    game.apply(EndTurn(0))
    assert train.cars == [Car("coach", True, shipper=0)]
    game.apply(EndTurn(0))
    assert train.cars == [Car("coach", True, shipper=0)]
    assert game.state.scores == [0]
    assert not any("set down" in line for line in game.state.log)


def test_a_coach_is_not_freight_for_a_division_point() -> None:
    game = yard()
    put_train(game, "train-1", [Car("coach", True, shipper=0)], position=ONE_PLAYER_OFFICE + 1, remaining=1)
    game.apply(EndTurn(0))
    assert game.state.scores == [0]


# ===================================================================================
# Trains that pay for stopping (X17 Campaign Train, X18 Circus Train)
# ===================================================================================


def circus(game: Game, cars: list[Car] | None = None, **kw: object) -> Train:
    return put_train(game, "extra-18", loaded("flatcar", 3) if cars is None else cars, **kw)  # type: ignore[arg-type]


def test_a_fully_loaded_circus_held_through_a_mainline_phase_earns_a_point(game: Game) -> None:
    circus(game)
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    assert game.state.scores == [1]
    assert game.state.districts[0].paid_stops == ["extra-18"]
    assert any("X18 Circus Train stood a whole Mainline Phase in player 0's Office Area, fully loaded" in line for line in game.state.log)


def test_a_circus_carrying_an_empty_earns_nothing(game: Game) -> None:
    circus(game, loaded("flatcar", 2) + empty("boxcar", 1))
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    assert game.state.scores == [0]
    assert any("not fully loaded: it earns nothing" in line for line in game.state.log)


def test_a_circus_with_no_cars_earns_nothing(game: Game) -> None:
    circus(game, [])
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    assert game.state.scores == [0]


def test_a_circus_made_up_short_earns_nothing(game: Game) -> None:
    circus(game, loaded("flatcar", 2))  # the X18 card calls for 3 freight cars
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    assert game.state.scores == [0]


def test_a_circus_that_moves_on_earns_nothing(game: Game) -> None:
    train = circus(game)
    game.apply(EndTurn(0))  # not held: it leaves the Office in this Mainline Phase
    assert train.position == ONE_PLAYER_OFFICE + 1
    assert game.state.scores == [0]


def test_a_circus_arriving_this_phase_has_not_stood_a_whole_phase(game: Game) -> None:
    train = circus(game, position=ONE_PLAYER_OFFICE - 1, remaining=1)
    game.apply(EndTurn(0))
    assert (train.position, train.remaining) == (ONE_PLAYER_OFFICE, 0)
    assert game.state.scores == [0]


def test_a_circus_stopped_on_the_mainline_earns_nothing(game: Game) -> None:
    give(game, "red-flag")
    train = circus(game, position=ONE_PLAYER_OFFICE + 1, remaining=1)
    assert "not-at-an-office" in codes(game.check(Hold(0, train="extra-18")))
    game.apply(RedFlag(0, train="extra-18"))  # it stands still on the terrain card instead
    game.apply(EndTurn(0))
    assert (train.position, train.remaining) == (ONE_PLAYER_OFFICE + 1, 1)
    assert game.state.scores == [0]


def test_a_circus_stopped_at_a_division_point_earns_nothing(game: Game) -> None:
    circus(game, position=0, held=1)
    game.apply(EndTurn(0))
    assert game.state.scores == [0]


def test_a_circus_is_paid_once_per_district(game: Game) -> None:
    circus(game)
    for _ in range(3):
        game.apply(Hold(0, train="extra-18"))
        game.apply(EndTurn(0))
    assert game.state.scores == [1]
    assert game.state.trains[0].position == ONE_PLAYER_OFFICE


def test_the_point_goes_to_the_district_it_stopped_in(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    circus(game, position=office_slot(game, 1), player=0)  # player 0's Circus at player 1's Office
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    game.apply(EndTurn(1))
    assert game.state.scores == [0, 1]
    assert game.state.districts[1].paid_stops == ["extra-18"] and game.state.districts[0].paid_stops == []


def test_a_circus_touring_two_districts_is_paid_in_each(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    train = circus(game, position=office_slot(game, 0))
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    game.apply(EndTurn(1))
    assert game.state.scores == [1, 0]
    train.position, train.remaining = office_slot(game, 1), 0  # on to the next district
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    game.apply(EndTurn(1))
    assert game.state.scores == [1, 1]


def test_a_circus_that_comes_back_after_the_rebuild_is_a_new_train_and_is_paid_again(game: Game) -> None:
    """An Extra runs once and its card goes to the Salvage Yard, which the
    rebuilt deck gathers: played again, it is a new run, and once per
    district means once per district for each run."""
    s = game.state
    circus(game)
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    assert s.scores == [1] and s.districts[0].paid_stops == ["extra-18"]
    while s.trains:  # on east to the Division Point, where the run ends
        game.apply(EndTurn(0))
    assert "extra-18" in s.salvage
    s.salvage.remove("extra-18")  # the rebuilt deck turns it up on top
    s.deck.append("extra-18")
    game.apply(Draw(0, "deck"))
    game.apply(Play(0, "extra-18", slot=0, heading="east", load=("loaded boxcar", "loaded boxcar", "loaded reefer")))
    assert s.districts[0].paid_stops == []
    while not (s.trains and s.trains[0].position == ONE_PLAYER_OFFICE and s.trains[0].remaining == 0):
        game.apply(EndTurn(0))  # made up at the West Division Point, it runs to the Office
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    assert s.scores == [2]
    assert s.districts[0].paid_stops == ["extra-18"]
    assert game.census() == dealt(game)


@pytest.mark.parametrize("card,cars", [("extra-18", loaded("flatcar", 3)), ("extra-17", loaded("coach", 2))])
def test_a_whistle_post_district_counts(catalog: Catalog, card: str, cars: list[Car]) -> None:
    game = new_game(catalog, startingOffice="whistle-post")
    put_train(game, card, [Car(c.type, c.loaded) for c in cars])
    game.apply(Hold(0, train=card))
    game.apply(EndTurn(0))
    assert game.state.scores == [1]


def test_only_its_own_player_may_hold_an_extra(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    circus(game, position=office_slot(game, 1), player=0)
    game.apply(EndTurn(0))
    assert "not-your-extra" in codes(game.check(Hold(1, train="extra-18")))


def test_an_ordinary_train_held_fully_loaded_earns_nothing_for_stopping(game: Game) -> None:
    put_train(game, "extra-9", loaded("stockcar", 3))
    game.apply(Hold(0, train="extra-9"))
    game.apply(EndTurn(0))
    assert game.state.scores == [0]


def test_switching_cars_around_does_not_break_the_stop() -> None:
    """A train that may not switch has nothing to switch, but another train
    switching in the district during the stop changes nothing."""
    game = yard()
    circus(game)
    put_train(game, "train-3", loaded("boxcar", 1), train_id="switcher", held=1)
    game.apply(Hold(0, train="extra-18"))
    game.apply(Spot(0, train="switcher", x=2, y=-1, cars=1))
    game.apply(EndTurn(0))
    assert game.state.scores == [1]
    assert game.census() == dealt(game)


def test_a_circus_kept_at_the_office_by_an_opposing_train_has_still_stood_still(game: Game) -> None:
    train = circus(game)  # not held: it means to leave eastward
    put_train(game, "train-3", [], train_id="opposing", heading="west", position=ONE_PLAYER_OFFICE + 1, remaining=2)
    game.apply(EndTurn(0))
    assert (train.position, train.remaining) == (ONE_PLAYER_OFFICE, 0)  # it never left
    assert game.state.scores == [1]


def test_a_fully_loaded_campaign_train_held_at_a_depot_earns_its_point(game: Game) -> None:
    put_train(game, "extra-17", loaded("coach", 2))
    game.apply(Hold(0, train="extra-17"))
    game.apply(EndTurn(0))
    assert game.state.districts[0].paid_stops == ["extra-17"]


def test_census_holds_through_a_paid_stop(game: Game) -> None:
    circus(game)
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    assert game.census() == dealt(game)
    assert key(0, 0) in game.state.districts[0].squares
