"""Trackage Rights, in a game with rivals: an Extra you played, standing at a
rival's Office, runs into their district as if it were yours and couples the
cars on a track it reaches. No card answers it, so it resolves at once. The
scenario here is also the one tests/test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.rules.actions import Action, Attack
from engine.stationmaster.content.model import Card, Catalog
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car
from engine_kit import codes
from attack_kit import CATALOG, dealt, give, office_slot, rivals_game, run
from test_district_kit import branch_yard, lay, put_train

EFFECT = "trackage-rights"
RIGHTS = Attack(0, "trackage-rights", rival=1, train="x9", x=3, y=-1)


def rights_game(catalog: Catalog = CATALOG) -> Game:
    """Player 0's X9 stands at player 1's Office; a loaded boxcar stands on
    the stub (3, -1) of player 1's district; player 0 holds Trackage Rights."""
    game = rivals_game(catalog)
    branch_yard(game, player=1)
    lay(game, 3, -1, "straight", player=1, cars=[Car("boxcar", True, shipper=1)])
    put_train(game, "extra-9", [], train_id="x9", player=0, position=office_slot(game, 1))
    give(game, "trackage-rights", player=0)
    return game


def scenario(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    return rights_game(catalog), RIGHTS


def test_the_extra_couples_the_rivals_cars() -> None:
    game = rights_game()
    assert RIGHTS in game.legal_actions()
    assert run(game, RIGHTS) == [EFFECT]
    assert [c.type for c in game.state.trains[0].cars] == ["boxcar"]
    assert game.state.districts[1].squares["3,-1"].cars == []
    assert not game.state.turn.switched  # no Switch move was used
    assert game.census() == dealt(game)


def test_only_your_extra_at_their_office_to_a_track_it_reaches() -> None:
    game = rights_game()
    assert codes(game.check(Attack(0, "trackage-rights", rival=1, train="x9", x=9, y=9))) == ["no-rail"]
    assert codes(game.check(Attack(0, "trackage-rights", rival=1, train="x9", x=2, y=0))) == ["nothing-to-couple"]
    train = game.state.trains[0]
    train.player = 1
    assert "not-your-extra" in codes(game.check(RIGHTS))
    train.player, train.position = 0, office_slot(game, 0)
    assert codes(game.check(Attack(0, "trackage-rights", rival=1, train="x9", x=3, y=-1))) == ["not-at-their-office"]
