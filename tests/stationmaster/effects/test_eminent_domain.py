"""Eminent Domain, in a game with rivals: claims an empty square inside a
rival's Limits, beside what they built; nothing may be built there for the
rest of the game. Deed of Title answers it (test_deed_of_title.py). Its
scenario (tests/kit/stationmaster_scenarios.py) is the one
test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.rules.actions import Attack, EndTurn, Play
from tests.kit.stationmaster import attack, codes, dealt, give
from tests.kit.stationmaster_scenarios import CLAIM, claim_game

EFFECT = "eminent-domain"


def test_nothing_may_be_built_on_the_claimed_square() -> None:
    game = claim_game()
    assert attack(game, CLAIM) == [EFFECT]
    game.apply(EndTurn(0))
    give(game, "loading-ramp", player=1)
    ramp = Play(1, "loading-ramp", x=0, y=-1)
    assert "square-claimed" in codes(game.check(ramp))
    assert ramp not in game.legal_actions()
    assert game.census() == dealt(game)


def test_only_an_empty_square_inside_the_limits_beside_the_district() -> None:
    game = claim_game()
    assert codes(game.check(Attack(0, "eminent-domain", rival=1, x=0, y=0))) == ["square-taken"]
    assert codes(game.check(Attack(0, "eminent-domain", rival=1, x=1, y=0))) == ["outside-limits"]
    assert codes(game.check(Attack(0, "eminent-domain", rival=1, x=0, y=-3))) == ["not-beside-the-district"]
    assert codes(game.check(Attack(0, "eminent-domain", rival=1))) == ["needs-square"]


def test_the_refusal_names_the_claimed_square_and_its_claimant() -> None:
    game = claim_game()
    attack(game, CLAIM)
    game.apply(EndTurn(0))
    give(game, "straight", player=1)
    refused = [r for r in game.check(Play(1, "straight", x=0, y=-1)) if getattr(r, "code", "") == "square-claimed"]
    assert len(refused) == 1
    assert "(0, -1) is claimed by player 0's Eminent Domain" in str(refused[0])
