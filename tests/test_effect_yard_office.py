"""Yard Office, in a game with rivals: standing in a district, it answers a
Bad Order played there at once, with no window; the car stays in its train.
The scenario here is also the one tests/test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.rules.actions import Action
from engine.stationmaster.content.model import Card, Catalog
from engine.stationmaster.rules.game import Game
from attack_kit import CATALOG, dealt, run
from test_district_kit import enhance
from test_effect_bad_order import BAD_ORDER, bad_order_game

EFFECT = "yard-office"


def scenario(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = bad_order_game(catalog)
    enhance(game, 0, 0, card.id, player=1)
    return game, BAD_ORDER


def test_the_yard_office_answers_and_stays() -> None:
    game, action = scenario(CATALOG, CATALOG.by_id["yard-office"])
    assert run(game, action) == [EFFECT]
    assert len(game.state.trains[0].cars) == 2
    assert game.state.districts[1].squares["0,0"].enhancement == "yard-office"
    attack = game.state.attack
    assert attack is not None and (attack.answered_by, attack.answer, attack.waiting) == (1, "yard-office", [])
    assert game.census() == dealt(game)
