"""Deed of Title answers an Eminent Domain aimed at its holder: the square
stays theirs. The scenario here is also the one tests/test_status_rivals.py
plays."""

from __future__ import annotations

from engine.stationmaster.rules.actions import Action, Answer, EndTurn, Play
from engine.stationmaster.content.model import Card, Catalog
from engine.stationmaster.rules.game import Game
from engine_kit import codes
from attack_kit import CATALOG, dealt, give, run
from test_effect_eminent_domain import CLAIM, claim_game

EFFECT = "deed-of-title"


def scenario(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = claim_game(catalog)
    give(game, card.id, player=1)
    game.apply(CLAIM)
    return game, Answer(1, card.id)


def test_the_square_stays_free_to_build_on() -> None:
    game, answer = scenario(CATALOG, CATALOG.by_id["deed-of-title"])
    assert run(game, answer) == [EFFECT]
    assert game.state.lasting == []
    game.apply(EndTurn(0))
    give(game, "loading-ramp", player=1)
    assert "square-claimed" not in codes(game.check(Play(1, "loading-ramp", x=0, y=-1)))
    assert game.census() == dealt(game)
