"""Wrecking Crew answers a Derailment or a Washout aimed at its holder: the
line is cleared at once. Its scenario (tests/kit/stationmaster_scenarios.py)
is the one test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Answer, Attack, Decline
from tests.kit.stationmaster import dealt, give, rivals_game, run, terrain_slot
from tests.kit.stationmaster_scenarios import SCENARIOS

EFFECT = "wrecking-crew"


def test_it_answers_a_derailment(catalog: Catalog) -> None:
    game, answer = SCENARIOS[EFFECT](catalog, catalog.by_id["wrecking-crew"])
    assert run(game, answer) == [EFFECT]
    assert game.state.trains[0].held == 0
    assert game.census() == dealt(game)


def test_it_answers_a_washout_aimed_at_every_rival_in_seat_order() -> None:
    """Three players: player 0's Washout waits on player 1, then player 2;
    player 1 lets it stand and player 2 answers."""
    game = rivals_game(players=3)
    give(game, "washout", player=0)
    give(game, "wrecking-crew", player=2)
    slot = terrain_slot(game)
    assert run(game, Attack(0, "washout", slot=slot)) == []
    assert game.state.attack is not None and game.state.attack.waiting == [1, 2]
    assert game.to_act == 1
    assert run(game, Decline(1)) == []
    assert game.to_act == 2 and Answer(2, "wrecking-crew") in game.legal_actions()
    assert run(game, Answer(2, "wrecking-crew")) == [EFFECT]
    assert game.state.lasting == [] and game.to_act == 0
