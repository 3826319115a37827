"""Deed of Title answers an Eminent Domain aimed at its holder: the square
stays theirs. Its scenario (tests/kit/stationmaster_scenarios.py) is the one
test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import EndTurn, Play
from tests.kit.stationmaster import codes, dealt, give, run
from tests.kit.stationmaster_scenarios import SCENARIOS

EFFECT = "deed-of-title"


def test_the_square_stays_free_to_build_on(catalog: Catalog) -> None:
    game, answer = SCENARIOS[EFFECT](catalog, catalog.by_id["deed-of-title"])
    assert run(game, answer) == [EFFECT]
    assert game.state.lasting == []
    game.apply(EndTurn(0))
    give(game, "loading-ramp", player=1)
    assert "square-claimed" not in codes(game.check(Play(1, "loading-ramp", x=0, y=-1)))
    assert game.census() == dealt(game)
