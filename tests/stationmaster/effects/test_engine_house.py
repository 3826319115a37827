"""Engine House (designed: "a train may wait here a Stage without holding a
Crew Tray"): at the end of its district's turn, a train held at the Office
through the coming Mainline Phase waits in the Engine House and gives its
Crew Tray back, so a queued Extra may run on it; after the phase the train
takes a tray again, or, while none is free, waits on, held, making no move.
Its scenario (tests/kit/stationmaster_scenarios.py) is the one
test_status_live.py plays for the card."""

from __future__ import annotations

import pytest

from engine.effects.registry import trace
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Action, EndTurn, FlyingSwitch, Hold, Play, Pull, SortCars, Spot
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car, Train
from tests.kit.stationmaster import ONE_PLAYER_OFFICE, branch_yard, codes, dealt, enhance, give, loaded, new_game, put_train
from tests.kit.stationmaster_scenarios import SCENARIOS

EFFECT = "engine-house"
CARD = "engine-house"
WEST_DP, EAST_DP = 0, 4


def trays_balance(game: Game) -> bool:
    """Every Crew Tray is free or held by a train: none made, none lost."""
    held = sum(1 for t in game.state.trains if t.crew_tray)
    return game.state.crew_trays_free + held == game.catalog.supplies.crew_trays


def every_tray_taken(game: Game, *, house: bool = True) -> Train:
    """A train held at the Office (with the Engine House built, if asked), two
    parked at the West Division Point, every Crew Tray in use, and an Extra
    in hand that waits for one."""
    if house:
        enhance(game, 0, 0, CARD)
    waiting = put_train(game, "train-3", [], train_id="waiting", held=1)
    for parked in ("train-5", "train-7"):
        put_train(game, parked, [], train_id=parked, position=WEST_DP, held=9)
    assert game.state.crew_trays_free == 0 and trays_balance(game)
    give(game, "extra-9")
    game.apply(Play(0, "extra-9", slot=WEST_DP, heading="east"))
    return waiting


def test_playing_it_and_ending_the_turn_runs_the_handler(catalog: Catalog) -> None:
    game, action = SCENARIOS[EFFECT](catalog, catalog.by_id[CARD])
    assert game.check(action) == []
    with trace() as ran:
        game.apply(action)
    assert ran == [EFFECT, EFFECT]  # taken in at the turn's end, let out after the phase
    assert any("waits in player 0's Engine House" in line for line in game.state.log)
    assert any("leaves player 0's Engine House with a Crew Tray" in line for line in game.state.log)
    assert game.state.trains[0].crew_tray and trays_balance(game)
    assert game.census() == dealt(game)


def test_the_tray_a_waiting_train_gives_up_runs_a_queued_extra(game: Game) -> None:
    waiting = every_tray_taken(game)
    game.apply(EndTurn(0))
    assert [t.id for t in game.state.trains if t.card == "extra-9"] == ["extra-9"]
    assert not game.state.extras_queue
    # the Extra keeps the tray, so the waiting train stays in, held, trayless
    assert not waiting.crew_tray and waiting.held == 1
    assert any("stays in player 0's Engine House: no Crew Tray is free" in line for line in game.state.log)
    assert trays_balance(game)


def test_without_the_engine_house_the_extra_waits_for_a_tray(game: Game) -> None:
    waiting = every_tray_taken(game, house=False)
    game.apply(EndTurn(0))
    assert [order.card for order in game.state.extras_queue] == ["extra-9"]
    assert waiting.crew_tray and trays_balance(game)


def test_the_waiting_train_leaves_when_a_tray_frees(game: Game) -> None:
    waiting = every_tray_taken(game)
    game.apply(EndTurn(0))
    leaving = next(t for t in game.state.trains if t.id == "train-5")
    leaving.position, leaving.remaining, leaving.held = EAST_DP - 1, 1, 0  # it ends its run next phase
    game.apply(EndTurn(0))
    assert leaving not in game.state.trains
    assert waiting.crew_tray and waiting.held == 0 and game.state.crew_trays_free == 0
    assert trays_balance(game)
    game.apply(EndTurn(0))
    assert waiting.position != ONE_PLAYER_OFFICE  # crewed again, it runs on


@pytest.mark.parametrize(
    "move",
    [Spot(0, train="waiting", x=2, y=-1, cars=1), Pull(0, train="waiting", x=2, y=-1), SortCars(0, train="waiting", order=(1, 0)), FlyingSwitch(0, train="waiting", x=2, y=-1)],
    ids=["spot", "pull", "sort", "flying-switch"],
)
def test_a_train_waiting_without_a_tray_makes_no_move(game: Game, move: Action) -> None:
    branch_yard(game)
    waiting = every_tray_taken(game)
    waiting.cars = loaded("boxcar", 2)
    game.apply(EndTurn(0))
    assert not waiting.crew_tray
    assert "no-crew-tray" in codes(game.check(move))
    waiting.crew_tray = True  # the same move with a Crew Tray is not refused for that
    assert "no-crew-tray" not in codes(game.check(move))


def test_a_train_that_is_not_held_is_not_taken_in(game: Game) -> None:
    enhance(game, 0, 0, CARD)
    leaving = put_train(game, "train-3", [], train_id="leaving")
    free = game.state.crew_trays_free
    with trace() as ran:
        game.apply(EndTurn(0))
    assert ran == [EFFECT, EFFECT] and leaving.crew_tray
    assert game.state.crew_trays_free == free and leaving.position != ONE_PLAYER_OFFICE


def test_one_train_at_a_time_waits_in_it(game: Game) -> None:
    enhance(game, 0, 0, CARD)
    first = put_train(game, "train-3", [], train_id="first", held=2)
    second = put_train(game, "train-5", [], train_id="second", held=2)
    free = game.state.crew_trays_free
    game.apply(EndTurn(0))  # first goes in; still held after the phase, it stays
    assert not first.crew_tray and second.crew_tray
    assert game.state.crew_trays_free == free + 1 and trays_balance(game)


def test_a_waiting_train_wrecked_at_the_office_gives_back_no_tray(catalog: Catalog) -> None:
    """At a Whistle Post (one A/D track) a train arriving while the waiting
    train stands there collides with it: the arriving train's tray comes
    back, and none for the train that had none."""
    game = new_game(catalog, startingOffice="whistle-post")
    enhance(game, 0, 0, CARD)
    put_train(game, "train-3", [], train_id="waiting", held=2)
    put_train(game, "train-5", [], train_id="arriving", position=ONE_PLAYER_OFFICE - 1, remaining=1)
    game.apply(EndTurn(0))
    assert not game.state.trains
    assert any("collision" in line for line in game.state.log)
    assert game.state.crew_trays_free == game.catalog.supplies.crew_trays


def test_a_circus_waiting_in_it_still_stands_in_the_office_area_and_is_paid(game: Game) -> None:
    enhance(game, 0, 0, CARD)
    circus = put_train(game, "extra-18", [Car("flatcar", True) for _ in range(3)])
    game.apply(Hold(0, train="extra-18"))
    game.apply(EndTurn(0))
    assert game.state.scores == [1]
    assert any("X18 Circus Train waits in player 0's Engine House" in line for line in game.state.log)
    assert circus.crew_tray and trays_balance(game)
