"""Washout, in a game with rivals: an unoccupied Mainline card is closed for
a Day; trains wait before it. Every rival may answer it, with a Wrecking
Crew (test_wrecking_crew.py). Its scenario
(tests/kit/stationmaster_scenarios.py) is the one test_status_rivals.py
plays."""

from __future__ import annotations

from engine.stationmaster.rules.actions import Attack
from tests.kit.stationmaster import attack, codes, dealt, end_stage, office_slot, put_train, terrain_slot
from tests.kit.stationmaster_scenarios import washout_game

EFFECT = "washout"


def test_trains_wait_before_the_washed_out_card_for_a_day() -> None:
    game = washout_game()
    slot = terrain_slot(game)
    assert attack(game, Attack(0, "washout", slot=slot)) == [EFFECT]
    train = put_train(game, "train-3", [], train_id="t", position=office_slot(game, 0))
    day = game.catalog.game.table.stages_per_day
    for _ in range(day):
        end_stage(game)
        assert train.position == office_slot(game, 0), "the train started onto a washed-out card"
    assert game.state.lasting == []
    assert any("is washed out until it is repaired" in line for line in game.state.log)
    end_stage(game)
    assert train.position == slot  # repaired: it goes on
    assert game.census() == dealt(game)


def test_a_washout_needs_an_unoccupied_terrain_card_and_no_rival_named() -> None:
    game = washout_game()
    slot = terrain_slot(game)
    assert codes(game.check(Attack(0, "washout", slot=office_slot(game, 1)))) == ["needs-terrain-slot"]
    assert codes(game.check(Attack(0, "washout"))) == ["needs-terrain-slot"]
    assert codes(game.check(Attack(0, "washout", slot=slot, rival=1))) == ["aimed-at-every-rival"]
    put_train(game, "train-3", [], train_id="t", position=slot, remaining=1)
    assert codes(game.check(Attack(0, "washout", slot=slot))) == ["occupied"]
