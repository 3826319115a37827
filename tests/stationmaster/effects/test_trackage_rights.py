"""Trackage Rights, in a game with rivals: an Extra you played, standing at
a rival's Office, runs into their district as if it were yours and couples
the cars on a track it reaches. No card answers it, so it resolves at once.
Its scenario (tests/kit/stationmaster_scenarios.py) is the one
test_status_rivals.py plays."""

from __future__ import annotations

from engine.stationmaster.rules.actions import Attack
from tests.kit.stationmaster import codes, dealt, office_slot, run
from tests.kit.stationmaster_scenarios import RIGHTS, rights_game

EFFECT = "trackage-rights"


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


def test_a_square_needs_both_its_coordinates() -> None:
    game = rights_game()
    assert codes(game.check(Attack(0, "trackage-rights", rival=1, train="x9", x=3))) == ["needs-square"]
    assert codes(game.check(Attack(0, "trackage-rights", rival=1, train="x9", y=-1))) == ["needs-square"]
