"""The Flying Switch: a car cut off on the move reaches a track behind a
trailing-point turnout that no run from the Office reaches."""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError
from engine.stationmaster.rules.actions import FlyingSwitch, Play, Spot
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car, Square, Train
from engine.stationmaster.rules.switching import reachable
from tests.kit.stationmaster import codes, new_game

OFFICE = 2


def _yard(*, flag: bool = True, cars: int = 2, card: str = "train-3") -> Game:
    game = new_game(seed=1, terrain=None)
    squares = game.state.districts[0].squares
    squares["1,0"] = Square("turnout-left", "track", rotation=180)  # diverging leg E-SW: trailing from the Office
    squares["0,1"] = Square("curve-left", "track")
    squares["-1,1"] = Square("straight", "track")
    if flag:
        game.state.hands[0].append("flying-switch")
    game.state.trains.append(Train("t", card, None, "east", OFFICE, [Car("boxcar", False) for _ in range(cars)], True))
    return game


def test_the_siding_is_out_of_reach_of_an_ordinary_move() -> None:
    game = _yard()
    assert reachable(game, game.state.districts[0]) == set()
    assert "unreachable" in codes(game.check(Spot(0, train="t", x=-1, y=1, cars=1)))


def test_a_flying_switch_puts_the_rear_car_on_the_siding_and_is_spent() -> None:
    game = _yard()
    rear = game.state.trains[0].cars[-1]
    game.apply(FlyingSwitch(0, train="t", x=-1, y=1))
    assert game.state.districts[0].squares["-1,1"].cars == [rear]
    assert len(game.state.trains[0].cars) == 1
    assert "flying-switch" not in game.state.hands[0] and "flying-switch" in game.state.salvage


@pytest.mark.parametrize(
    ("game_args", "x", "y", "code"),
    [
        ({"flag": False}, -1, 1, "card-not-held"),
        ({}, 1, 0, "not-down-the-other-leg"),
        ({"cars": 0}, -1, 1, "no-car-to-cut-off"),
        ({"card": "train-10"}, -1, 1, "may-not-switch"),
    ],
)
def test_refusals_name_the_rule(game_args: dict[str, object], x: int, y: int, code: str) -> None:
    game = _yard(**game_args)  # type: ignore[arg-type]
    before = game.state_json()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(FlyingSwitch(0, train="t", x=x, y=y))
    assert code in codes(refused.value.reasons), refused.value.reasons
    assert game.state_json() == before


def test_it_is_spent_by_its_action_never_played_as_a_card() -> None:
    game = _yard()
    reasons = game.check(Play(0, "flying-switch"))
    assert codes(reasons) == ["spent-by-action"] and "flyingSwitch" in reasons[0].text


def test_it_is_offered_among_the_legal_actions() -> None:
    game = _yard()
    assert FlyingSwitch(0, train="t", x=-1, y=1) in game.legal_actions()
