"""Bad Order, in a game with rivals: the rear car of a train standing at a
rival's Office is set out there, out of service. No held card answers it, so
no window opens; a Yard Office standing in that district answers it at once
(test_yard_office.py). Its scenario (tests/kit/stationmaster_scenarios.py)
is the one test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.rules.state import OFFICE_SQUARE, Car
from tests.kit.stationmaster import codes, dealt, office_slot, run
from tests.kit.stationmaster_scenarios import BAD_ORDER, bad_order_game

EFFECT = "bad-order"


def test_the_rear_car_is_set_out_at_the_office_with_no_window() -> None:
    game = bad_order_game()
    assert run(game, BAD_ORDER) == [EFFECT]
    assert game.state.attack is not None and not game.state.attack.waiting and game.to_act == 0
    assert [c.type for c in game.state.trains[0].cars] == ["boxcar"]
    assert [c.type for c in game.state.districts[1].squares[OFFICE_SQUARE].cars] == ["hopper"]
    assert game.census() == dealt(game)


def test_the_train_must_stand_at_that_rivals_office_with_a_car() -> None:
    game = bad_order_game()
    train = game.state.trains[0]
    train.position = office_slot(game, 0)
    assert codes(game.check(BAD_ORDER)) == ["not-at-their-office"]
    train.position, train.cars = office_slot(game, 1), []
    assert codes(game.check(BAD_ORDER)) == ["no-car"]


def test_a_full_office_track_takes_no_more() -> None:
    game = bad_order_game()
    game.state.districts[1].squares[OFFICE_SQUARE].cars = [Car("boxcar", False)] * game.catalog.game.table.cars_per_track
    assert codes(game.check(BAD_ORDER)) == ["track-full"]
