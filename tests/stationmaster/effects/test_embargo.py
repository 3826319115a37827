"""Embargo, in a game with rivals: a rival's Facility that takes in loads
takes in none for a Day of its player's turns; it still works its pipeline.
No card answers it, so it resolves at once. Its scenario
(tests/kit/stationmaster_scenarios.py) is the one test_status_rivals.py
plays."""

from __future__ import annotations

from engine.stationmaster.rules.actions import Attack, EndTurn
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import codes, dealt, facility, run
from tests.kit.stationmaster_scenarios import EMBARGO, embargo_game

EFFECT = "embargo"


def _player_1_works(game: Game) -> None:
    game.apply(EndTurn(game.state.current))
    game.apply(EndTurn(game.state.current))


def test_no_load_is_taken_in_for_a_day_but_the_pipeline_moves() -> None:
    game = embargo_game()
    assert run(game, EMBARGO) == [EFFECT]
    square = game.state.districts[1].squares["0,-1"]
    for _ in range(game.catalog.game.table.stages_per_day):
        _player_1_works(game)
        assert square.cars[0].loaded, "an embargoed Facility took a load in"
    assert square.pipeline == [0, 0, 0] and game.state.lasting == []
    _player_1_works(game)
    assert not square.cars[0].loaded and square.pipeline == [1, 0, 0]
    assert game.census() == dealt(game)


def test_only_a_facility_that_takes_loads_in_is_embargoed() -> None:
    game = embargo_game()
    facility(game, 1, 1, -1, "packing-sheds")
    assert codes(game.check(Attack(0, "embargo", rival=1, x=1, y=-1))) == ["takes-in-nothing"]
    assert codes(game.check(Attack(0, "embargo", rival=1, x=2, y=-1))) == ["no-facility-there"]
    assert codes(game.check(Attack(0, "embargo", rival=1))) == ["needs-square"]
    assert codes(game.check(Attack(0, "embargo", x=0, y=-1))) == ["needs-rival"]


def test_an_embargoed_facility_cannot_be_embargoed_again_but_its_neighbour_can() -> None:
    """Its square, (0, -1), is the one judged: column 0 counts as a column."""
    game = embargo_game()
    facility(game, 1, 1, -1, "meat-packer")
    run(game, EMBARGO)
    game.state.salvage.remove("embargo")  # the one copy, back in hand
    game.state.hands[0].append("embargo")
    game.state.turn.played = False
    assert codes(game.check(EMBARGO)) == ["already-embargoed"]
    assert game.check(Attack(0, "embargo", rival=1, x=1, y=-1)) == []
