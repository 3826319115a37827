"""Arbitration answers a Strike aimed at its holder: the Laborer stays at
work. Its scenario (tests/kit/stationmaster_scenarios.py) is the one
test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Answer, Decline, EndTurn
from tests.kit.stationmaster import codes, dealt, give, run
from tests.kit.stationmaster_scenarios import SCENARIOS, STRIKE, struck_game

EFFECT = "arbitration"


def test_arbitration_answers_the_strike_and_the_facility_works(catalog: Catalog) -> None:
    game, answer = SCENARIOS[EFFECT](catalog, catalog.by_id["arbitration"])
    assert Answer(1, "arbitration") in game.legal_actions() and Decline(1) in game.legal_actions()
    assert run(game, answer) == [EFFECT]  # the Strike's own handler never runs
    assert game.state.lasting == [] and "arbitration" not in game.state.hands[1]
    assert game.state.salvage[-2:] == ["strike", "arbitration"]
    game.apply(EndTurn(0))
    game.apply(EndTurn(1))
    assert game.state.districts[1].squares["0,-1"].pipeline == [0, 1, 0]
    assert game.census() == dealt(game)


def test_an_answer_given_twice_is_refused_and_changes_nothing(catalog: Catalog) -> None:
    game, answer = SCENARIOS[EFFECT](catalog, catalog.by_id["arbitration"])
    game.apply(answer)
    before = game.state_json()
    assert codes(game.check(answer)) == ["already-answered"]
    assert codes(game.check(Decline(1))) == ["already-answered"]
    assert game.state_json() == before


def test_arbitration_answers_only_a_strike() -> None:
    game = struck_game()
    give(game, "arbitration", "wrecking-crew", player=1)
    game.apply(STRIKE)
    assert codes(game.check(Answer(1, "wrecking-crew"))) == ["does-not-answer"]
    assert Answer(1, "wrecking-crew") not in game.legal_actions()
