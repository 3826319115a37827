"""Derailment, in a game with rivals: an Extra a rival played, crossing a
Mainline card, loses the rest of its crossing (it stands as many Mainline
Phases as it still had to cross). Wrecking Crew answers it
(test_wrecking_crew.py). Its scenario (tests/kit/stationmaster_scenarios.py)
is the one test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.rules.actions import Attack, Decline
from tests.kit.stationmaster import attack, codes, dealt, run
from tests.kit.stationmaster_scenarios import DERAIL, derail_game

EFFECT = "derailment"


def test_the_derailed_train_stands_as_long_again_as_it_had_left() -> None:
    game = derail_game()
    assert attack(game, DERAIL) == [EFFECT]
    train = game.state.trains[0]
    assert (train.remaining, train.held) == (2, 2)
    assert game.census() == dealt(game)


def test_only_a_rivals_extra_crossing_a_card_can_be_derailed() -> None:
    game = derail_game()
    train = game.state.trains[0]
    assert codes(game.check(Attack(0, "derailment", rival=1, train="nothing"))) == ["no-such-train"]
    train.player = 0
    assert "not-their-train" in codes(game.check(DERAIL))
    assert codes(game.check(Attack(0, "derailment", rival=0, train="x9"))) == ["not-a-rival"]
    train.player, train.remaining = 1, 0
    assert codes(game.check(DERAIL)) == ["not-crossing"]


def test_out_of_turn_it_is_refused_and_nothing_changes() -> None:
    game = derail_game()
    before = game.state_json()
    reasons = codes(game.check(Attack(1, "derailment", rival=0, train="x9")))
    assert "not-your-turn" in reasons
    assert game.state_json() == before


def test_the_window_holds_every_other_action() -> None:
    game = derail_game()
    run(game, DERAIL)
    before = game.state_json()
    from engine.stationmaster.rules.actions import EndTurn

    assert codes(game.check(EndTurn(0))) == ["awaiting-answer"]
    assert codes(game.check(EndTurn(1))) == ["awaiting-answer"]
    assert codes(game.check(Decline(0))) == ["not-aimed-at-you"]
    assert game.state_json() == before


def test_a_train_with_one_stage_of_its_crossing_left_can_be_derailed() -> None:
    game = derail_game()
    game.state.trains[0].remaining = 1
    assert game.check(DERAIL) == []
    assert DERAIL in game.legal_actions()
    attack(game, DERAIL)
    assert game.state.trains[0].held == 1
