"""The Mainline's yards (engine/stationmaster/rules/yards.py) and the engine
decisions that keep cars moving (site: Engine decisions, "Keeping cars
moving"): every yard draws on the one car supply beyond the Division, cars
are turned round at the Division Points, and a yard makes a train up with
cars for the industries on its run."""

from __future__ import annotations

from engine.stationmaster.rules.actions import EndTurn, Play
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car
from tests.kit.stationmaster import branch_yard, codes, dealt, empty, end_stage, enhance, lay, loaded, new_game, office_slot, put_train, set_hand, take

WEST, EAST = 0, -1


def _bare(game: Game, **yards: list[Car]) -> Game:
    """Every yard on the Mainline emptied, then the named ones filled
    (``west``, ``east``, ``interchange``)."""
    mainline = game.state.mainline
    for slot in mainline:
        slot.yard = []
    mainline[WEST].yard = list(yards.get("west", []))
    mainline[EAST].yard = list(yards.get("east", []))
    if "interchange" in yards:
        mainline[1].card = "interchange"
        mainline[1].yard = list(yards["interchange"])
    return game


def _due(game: Game, card: str) -> None:
    """``card`` on the timetable at the current Stage."""
    take(game, card)
    game.state.timetable[game.state.stage - 1] = card


def _kinds(cars: list[Car]) -> list[tuple[str, bool]]:
    return [(c.type, c.loaded) for c in cars]


def _train(game: Game, card: str):  # type: ignore[no-untyped-def]
    return next(t for t in game.state.trains if t.card == card)


# -- one car supply beyond the Division -----------------------------------------------------


def test_a_drained_yard_makes_up_its_train_from_the_other_division_point() -> None:
    # The West yard empty (the odd trains have carried its coaches east):
    # No. 9 still leaves full, with coaches from the East Division Point.
    game = _bare(new_game(seed=3), east=loaded("coach", 4))
    _due(game, "train-9")
    end_stage(game)
    train = _train(game, "train-9")
    assert _kinds(train.cars) == [("coach", True)] * 3
    assert len(game.state.mainline[EAST].yard) == 1
    assert not any("short" in line for line in game.state.log), game.state.log[-4:]


def test_a_train_takes_its_own_yards_cars_before_anothers() -> None:
    game = _bare(new_game(seed=3), west=empty("coach", 1), east=loaded("coach", 3))
    _due(game, "train-1")
    end_stage(game)
    train = _train(game, "train-1")
    # loaded cars first, wherever they stand; the West yard's own empty before any other empty
    assert _kinds(train.cars) == [("coach", True)] * 3
    game = _bare(new_game(seed=3), west=empty("coach", 2), east=empty("coach", 2))
    _due(game, "train-1")
    end_stage(game)
    assert len(game.state.mainline[WEST].yard) == 0 and len(game.state.mainline[EAST].yard) == 1


def test_the_nearest_yard_comes_next() -> None:
    game = _bare(new_game(seed=4), west=[Car("boxcar", True)], east=[Car("tank", True)], interchange=[])
    set_hand(game, "extra-3", "straight", "straight")
    game.apply(Play(0, "extra-3", slot=1, heading="east"))
    end_stage(game)
    # the Interchange holds nothing of its own: the West Division Point is one card away, the East three
    assert _kinds(_train(game, "extra-3").cars) == [("boxcar", True), ("tank", True)]
    game = _bare(new_game(seed=4), west=[Car("boxcar", True)], east=[Car("tank", True)], interchange=[Car("hopper", True)])
    set_hand(game, "extra-3", "straight", "straight")
    game.apply(Play(0, "extra-3", slot=1, heading="east"))
    end_stage(game)
    assert _kinds(_train(game, "extra-3").cars) == [("hopper", True), ("boxcar", True)]


def test_an_extra_made_up_on_the_interchange_leaves_with_cars() -> None:
    game = new_game(seed=5)
    game.state.mainline[1].card = "interchange"
    assert game.state.mainline[1].yard == [], "the Interchange's yard holds no cars at setup"
    set_hand(game, "extra-5", "straight", "straight")
    game.apply(Play(0, "extra-5", slot=1, heading="east"))
    end_stage(game)
    assert _kinds(_train(game, "extra-5").cars) == [("coach", True)] * 3
    assert game.census() == dealt(game)


def test_a_chosen_load_at_the_interchange_is_checked_against_every_yard_it_draws_on() -> None:
    game = _bare(new_game(seed=6), east=[Car("reefer", True)], interchange=[])
    set_hand(game, "extra-12", "straight", "straight")
    assert game.check(Play(0, "extra-12", slot=1, heading="east", load=("loaded reefer",))) == []
    refused = game.check(Play(0, "extra-12", slot=1, heading="east", load=("loaded reefer", "loaded reefer")))
    assert codes(refused) == ["load-not-in-yard"], refused
    game.apply(Play(0, "extra-12", slot=1, heading="east", load=("loaded reefer",)))
    end_stage(game)
    assert _kinds(_train(game, "extra-12").cars) == [("reefer", True)]
    assert game.state.mainline[EAST].yard == []


def test_an_office_with_a_division_yard_makes_up_an_extra_from_the_yards() -> None:
    game = _bare(new_game(seed=7), west=loaded("coach", 3))
    office = office_slot(game)
    set_hand(game, "extra-5", "straight", "straight")
    assert codes(game.check(Play(0, "extra-5", slot=office, heading="east", load=("loaded coach",)))) == ["office-keeps-no-cars"]
    game.apply(Play(0, "extra-5", slot=office, heading="east"))
    end_stage(game)
    assert "X5 Excursion departs Depot heading east with 0 car(s)" in game.state.log, "without a Division Yard the Office keeps no cars"
    game = _bare(new_game(seed=7), west=loaded("coach", 3))
    enhance(game, 0, 0, "division-yard")
    set_hand(game, "extra-5", "straight", "straight")
    assert game.check(Play(0, "extra-5", slot=office, heading="east", load=("loaded coach", "loaded coach"))) == []
    game.apply(Play(0, "extra-5", slot=office, heading="east"))
    end_stage(game)
    assert "X5 Excursion departs Depot heading east with 3 car(s)" in game.state.log
    assert game.state.mainline[WEST].yard == []
    assert game.census() == dealt(game)


# -- cars turned round at a Division Point --------------------------------------------------


def test_cars_reaching_a_division_point_are_turned_round_as_traffic_from_off_the_map() -> None:
    game = _bare(new_game(seed=8))
    cars = [Car("boxcar", True, shipper=0, commodity="merchandise"), Car("hopper", False), Car("coach", False), Car("coach", True, shipper=0)]
    put_train(game, "train-7", cars, train_id="t", position=len(game.state.mainline) - 2)
    end_stage(game)
    assert game.state.trains == []
    yard = game.state.mainline[EAST].yard
    # the shipped load paid its shipper and came back empty; the empty came back
    # loaded; both coaches came back full; none is anyone's any more
    assert _kinds(yard) == [("boxcar", False), ("hopper", True), ("coach", True), ("coach", True)]
    assert all(c.shipper is None and c.commodity is None for c in yard)
    assert game.state.scores == [1], "only the freight car an industry loaded scores"


def test_loads_keep_coming_back_to_the_division() -> None:
    # a yard of nothing but empties sends a loaded train the next time round
    game = _bare(new_game(seed=9), west=empty("boxcar", 3))
    _due(game, "train-3")
    for _ in range(12):
        end_stage(game)
    assert any(c.loaded for c in game.state.mainline[EAST].yard + [c for t in game.state.trains for c in t.cars])


# -- cars for the industries on the run ----------------------------------------------------


def _industrial(seed: int = 10) -> Game:
    """The branch yard with a Power Plant (takes in hoppers) at (3, -1) and
    Packing Sheds (load reefers) at (-3, -1)."""
    game = new_game(seed=seed)
    branch_yard(game)
    lay(game, 3, -1, "power-plant")
    lay(game, -3, -1, "packing-sheds")
    return game


YARD = [Car("boxcar", True), Car("tank", True), Car("boxcar", True), Car("hopper", True), Car("reefer", False), Car("reefer", True)]


def test_a_yard_sends_the_industries_on_the_run_their_cars_at_the_rear() -> None:
    game = _bare(_industrial(), west=list(YARD))
    _due(game, "train-3")
    end_stage(game)
    cars = _kinds(_train(game, "train-3").cars)
    # a loaded hopper for the Power Plant and an empty reefer for the Packing
    # Sheds, where a Spot sets cars out first; then the yard's first load
    assert cars[0] == ("boxcar", True)
    assert sorted(cars[1:]) == [("hopper", True), ("reefer", False)]


def test_without_industries_the_yard_sends_loads_first() -> None:
    game = _bare(new_game(seed=10), west=list(YARD))
    _due(game, "train-3")
    end_stage(game)
    assert _kinds(_train(game, "train-3").cars) == [("boxcar", True), ("tank", True), ("boxcar", True)]


def test_a_train_that_may_not_switch_gets_no_cars_for_industries() -> None:
    game = _bare(_industrial(), east=list(YARD))
    _due(game, "train-10")
    end_stage(game)
    assert _kinds(_train(game, "train-10").cars) == [("boxcar", True), ("tank", True), ("boxcar", True)]


def test_an_industry_whose_track_is_full_is_sent_nothing() -> None:
    game = _bare(_industrial(), west=list(YARD))
    plant = game.state.districts[0].squares["3,-1"]
    sheds = game.state.districts[0].squares["-3,-1"]
    plant.cars = empty("hopper", game.catalog.game.table.cars_per_track)
    sheds.cars = loaded("reefer", game.catalog.game.table.cars_per_track - 1)
    _due(game, "train-3")
    end_stage(game)
    cars = _kinds(_train(game, "train-3").cars)
    assert ("hopper", True) not in cars and cars.count(("reefer", False)) == 1


def test_industries_behind_the_start_are_not_served() -> None:
    # two districts; an Extra made up at district 1's Office (Division Yard)
    # heading east never comes to district 0, nor stands at its own Office
    game = _bare(new_game(players=2, seed=12), west=list(YARD))
    for player in (0, 1):
        branch_yard(game, player=player)
        lay(game, 3, -1, "power-plant", player=player)
    enhance(game, 0, 0, "division-yard", player=1)
    set_hand(game, "extra-9", "straight", "straight", player=1)
    game.apply(EndTurn(0))
    game.apply(Play(1, "extra-9", slot=office_slot(game, 1), heading="east"))
    end_stage(game)
    # it took the yard's loads in order, no hopper for either Power Plant
    assert _kinds(_train(game, "extra-9").cars) == [("boxcar", True), ("tank", True), ("boxcar", True)]
    game = _bare(new_game(players=2, seed=12), west=list(YARD))
    branch_yard(game, player=1)
    lay(game, 3, -1, "power-plant", player=1)
    _due(game, "train-3")
    end_stage(game)
    assert ("hopper", True) in _kinds(_train(game, "train-3").cars), "district 1 is on the run of a train from the West"
