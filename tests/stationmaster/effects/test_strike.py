"""Strike, in a game with rivals: the Laborer of a rival's Facility walks
off for a turn, so at the end of that player's next turn the Facility does
no work; then it works again. Arbitration answers it (test_arbitration.py).
Its scenario (tests/kit/stationmaster_scenarios.py) is the one
test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.rules.actions import Answer, Attack, Decline, EndTurn
from engine.stationmaster.rules.state import Car
from tests.kit.stationmaster import attack, codes, dealt, give, run
from tests.kit.stationmaster_scenarios import STRIKE, struck_game

EFFECT = "strike"


def test_the_strike_waits_on_player_1_then_resolves() -> None:
    game = struck_game()
    assert run(game, STRIKE) == []  # the window opens: nothing has happened yet
    assert game.to_act == 1 and game.state.attack is not None and game.state.attack.waiting == [1]
    assert run(game, Decline(1)) == [EFFECT]
    assert game.to_act == 0 and not game.state.attack.waiting
    assert [(e.card, e.player, e.square, e.left) for e in game.state.lasting] == [("strike", 1, "0,-1", 1)]
    assert game.census() == dealt(game)


def test_the_struck_facility_skips_one_working_then_works_again() -> None:
    game = struck_game()
    square = game.state.districts[1].squares["0,-1"]
    square.cars = [Car("reefer", True)]
    attack(game, STRIKE)
    game.apply(EndTurn(0))
    game.apply(EndTurn(1))  # player 1's turn ends: no work at the struck Facility
    assert square.pipeline == [1, 0, 0] and square.cars[0].loaded
    assert game.state.lasting == [] and any("Strike played by player 0 is over" in line for line in game.state.log)
    game.apply(EndTurn(0))
    game.apply(EndTurn(1))  # the Laborer is back
    assert square.pipeline == [1, 1, 0] and not square.cars[0].loaded


def test_a_strike_needs_a_facility_with_a_laborer_at_work() -> None:
    game = struck_game()
    assert codes(game.check(Attack(0, "strike", rival=1, x=1, y=-1))) == ["no-facility-there"]
    assert codes(game.check(Attack(0, "strike", rival=1, x=0, y=0))) == ["no-facility-there"]  # the Office
    game.state.districts[1].squares["0,-1"].laborers = 0
    assert codes(game.check(STRIKE)) == ["no-laborer-at-work"]


def test_a_struck_facility_cannot_be_struck_again() -> None:
    game = struck_game()
    give(game, "strike", player=0)  # the second copy
    attack(game, STRIKE)
    assert codes(game.check(STRIKE)) == ["already-played", "already-struck"]


def test_the_proposals_name_each_rival_facility() -> None:
    game = struck_game()
    proposed = [a for a in game.legal_actions() if isinstance(a, Attack)]
    assert proposed == [STRIKE]


def test_the_strike_ends_with_the_facility_named_and_a_second_answer_names_the_first() -> None:
    """What the players read: the log names the Facility the Laborer is back
    at, and an answer too late names the defence that answered first."""
    game = struck_game()
    give(game, "arbitration", player=1)
    run(game, STRIKE)
    run(game, Answer(1, "arbitration"))
    late = game.check(Decline(1))
    assert codes(late) == ["already-answered"] and "player 1's Arbitration" in str(late[0])
    game = struck_game()
    attack(game, STRIKE)
    game.apply(EndTurn(0))
    game.apply(EndTurn(1))
    assert any("player 1's Grocer's Warehouse at (0, -1) is back to normal" in line for line in game.state.log)
