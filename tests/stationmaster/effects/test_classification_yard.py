"""Classification Yard: at the end of its player's turn the cars standing on
each track of the district are sorted into blocks, loads (bound out to a
Division Point) ahead of empties (bound to an industry). Its scenario
(tests/kit/stationmaster_scenarios.py) is the one test_status_live.py plays
for the card."""

from __future__ import annotations

from engine.effects.registry import trace
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import EndTurn, Pull
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car
from tests.kit.stationmaster import branch_yard, dealt, enhance, lay, put_train
from tests.kit.stationmaster_scenarios import SCENARIOS

EFFECT = "classification-yard"
CARD = "classification-yard"


def _mixed() -> list[Car]:
    return [Car("boxcar", False), Car("tank", True), Car("hopper", False), Car("reefer", True, shipper=0)]


def test_playing_it_and_ending_the_turn_runs_the_handler(catalog: Catalog) -> None:
    game, action = SCENARIOS[EFFECT](catalog, catalog.by_id[CARD])
    assert game.check(action) == []
    with trace() as ran:
        game.apply(action)
    assert ran == [EFFECT]
    assert game.census() == dealt(game)


def test_loads_go_ahead_of_empties_on_every_track_each_block_in_its_order(game: Game) -> None:
    branch_yard(game)
    enhance(game, 3, 0, CARD)
    cars = _mixed()
    square = lay(game, 3, -1, "straight", cars=list(cars))
    game.apply(EndTurn(0))
    assert square.cars == [cars[1], cars[3], cars[0], cars[2]]
    assert any("Classification Yard sorts the cars at (3, -1)" in line for line in game.state.log)


def test_cars_at_an_industry_stay_as_the_industry_left_them(game: Game) -> None:
    branch_yard(game)
    enhance(game, 3, 0, CARD)
    cars = [Car("boxcar", False), Car("boxcar", True)]
    industry = lay(game, 3, -1, "packing-sheds", cars=list(cars))
    industry.laborers = 0  # an idle industry: only the yard could move its cars
    game.apply(EndTurn(0))
    assert industry.cars == cars


def test_without_the_card_nothing_is_sorted(game: Game) -> None:
    branch_yard(game)
    cars = _mixed()
    square = lay(game, 3, -1, "straight", cars=list(cars))
    game.apply(EndTurn(0))
    assert square.cars == cars


def test_a_train_coupling_the_sorted_track_has_its_empties_at_the_rear(game: Game) -> None:
    branch_yard(game)
    enhance(game, 3, 0, CARD)
    lay(game, 3, -1, "straight", cars=[Car("boxcar", False), Car("boxcar", True)])
    game.apply(EndTurn(0))
    train = put_train(game, "train-3", [], train_id="t")
    game.apply(Pull(0, train="t", x=3, y=-1))
    assert [car.loaded for car in train.cars] == [True, False]
