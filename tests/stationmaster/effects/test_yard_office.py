"""Yard Office, in a game with rivals: standing in a district, it answers a
Bad Order played there at once, with no window; the car stays in its train.
Its scenario (tests/kit/stationmaster_scenarios.py) is the one
test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.content.model import Catalog
from tests.kit.stationmaster import dealt, run
from tests.kit.stationmaster_scenarios import SCENARIOS

EFFECT = "yard-office"


def test_the_yard_office_answers_and_stays(catalog: Catalog) -> None:
    game, action = SCENARIOS[EFFECT](catalog, catalog.by_id["yard-office"])
    assert run(game, action) == [EFFECT]
    assert len(game.state.trains[0].cars) == 2
    assert game.state.districts[1].squares["0,0"].enhancement == "yard-office"
    attack = game.state.attack
    assert attack is not None and (attack.answered_by, attack.answer, attack.waiting) == (1, "yard-office", [])
    assert game.census() == dealt(game)
