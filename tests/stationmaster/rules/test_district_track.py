"""Track cards in a district (Home Deck v0.8.6, "Track cards").

Every placement here goes through ``Game.check``/``Game.apply`` with a Play
action, so the refusal asserted (by its code) is the one a player would be shown.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError, InvalidActionError, Reason
from engine.stationmaster.rules.actions import Play
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.state import Car
from tests.kit.stationmaster import CATALOG, codes, dealt, enhance, give, lay, new_game, running_track

JOIN = "joins-no-rail"
OUTSIDE = "outside-limits"
NO_THROUGH = "no-through-route"
REPLACE = "not-an-upgrade"
TAKEN = "square-taken"


def game_with_track(west: int = -1, east: int = 2) -> Game:
    game = new_game(CATALOG)
    running_track(game, west, east)
    return game


def play(game: Game, card: str, x: int, y: int, rotation: int | None = 0) -> list[Reason]:
    give(game, card)
    return game.check(Play(0, card, x=x, y=y, rotation=rotation))


# -- joining existing rail -------------------------------------------------------------


def test_an_isolated_card_is_refused_for_joining_nothing() -> None:
    game = game_with_track()
    reasons = play(game, "straight", 1, 2)  # inside the Limits, two rows off any rail
    assert codes(reasons) == [JOIN], reasons


def test_a_card_beside_rail_that_does_not_point_at_it_is_isolated_too() -> None:
    """(1,-1) sits directly north of the straight at (1,0), but a straight's
    rails run east-west: touching is not joining."""
    game = game_with_track()
    assert JOIN in codes(play(game, "straight", 1, -1))


def test_a_card_joining_the_running_track_at_a_limit_is_accepted() -> None:
    game = game_with_track()
    assert play(game, "straight", 3, 0) == []
    assert play(game, "straight", -2, 0) == []


# -- the Running Track row ----------------------------------------------------------------


@pytest.mark.parametrize("card", ["curve-left", "curve-right"])
def test_a_curve_on_the_running_track_is_refused(card: str) -> None:
    game = game_with_track()
    # At the east Limit the curve's W leg joins the straight at (2,0): the only
    # fault is that it carries no east-west route.
    reasons = play(game, card, 3, 0, 0)
    assert codes(reasons) == [NO_THROUGH], reasons


@pytest.mark.parametrize("card,rotation", [("straight", 0), ("turnout-left", 0), ("turnout-left", 180), ("turnout-right", 0), ("turnout-right", 180)])
def test_cards_with_an_east_west_route_may_extend_the_running_track(card: str, rotation: int) -> None:
    game = game_with_track()
    assert play(game, card, 3, 0, rotation) == []


# -- the Limits ----------------------------------------------------------------------------


def test_track_on_the_east_limit_extends_the_running_track_and_moves_the_sign() -> None:
    game = game_with_track(-1, 2)
    district = game.state.districts[0]
    assert district.east_limit == 3
    assert OUTSIDE in codes(play(game, "straight", 4, 0))  # one beyond the sign: outside
    game.apply(Play(0, "straight", x=3, y=0, rotation=0))
    assert key(3, 0) in district.squares
    assert district.east_limit == 4 and district.west_limit == -2
    # the square that was outside is now the Limit, and (3,0) is inside
    game.state.turn = type(game.state.turn)()
    assert OUTSIDE not in codes(play(game, "straight", 4, 0))


def test_track_on_the_west_limit_moves_that_sign_west() -> None:
    game = game_with_track(-1, 2)
    district = game.state.districts[0]
    give(game, "straight")
    game.apply(Play(0, "straight", x=-2, y=0, rotation=0))
    assert (district.west_limit, district.east_limit) == (-3, 3)
    assert "Straight is laid at (-2, 0)" in game.state.log[-1]


def test_the_first_card_of_a_game_extends_from_the_office(game: Game) -> None:
    """A district opens with the Office between Limits at -1 and 1."""
    district = game.state.districts[0]
    assert (district.west_limit, district.east_limit) == (-1, 1)
    give(game, "straight")
    game.apply(Play(0, "straight", x=1, y=0, rotation=0))
    assert (district.west_limit, district.east_limit) == (-1, 2)


def test_track_beyond_a_limit_is_refused() -> None:
    game = game_with_track(-1, 2)
    assert OUTSIDE in codes(play(game, "straight", 5, 0))
    assert OUTSIDE in codes(play(game, "straight", -4, 0))
    assert OUTSIDE in codes(play(game, "straight", 6, -1))


def test_track_at_a_limit_column_off_the_running_track_is_refused() -> None:
    """A right turnout at (2,0) points its SE leg at (3,1). With the east
    Limit at column 3 that square is on the sign's column but off row 0; a
    right curve turned 180 degrees there joins the leg, so being outside the
    Limits is its only fault."""
    game = game_with_track(-1, 1)
    lay(game, 2, 0, "turnout-right", 0)
    game.state.districts[0].east_limit = 3
    reasons = play(game, "curve-right", 3, 1, 180)
    assert codes(reasons) == [OUTSIDE], reasons
    assert OUTSIDE in codes(play(game, "straight", 3, -1))


def test_the_same_curve_one_column_inside_the_limit_is_accepted() -> None:
    game = game_with_track(-1, 3)
    del game.state.districts[0].squares[key(2, 0)]
    game.state.deck.append("straight")
    lay(game, 2, 0, "turnout-right", 0)
    assert play(game, "curve-right", 3, 1, 180) == []


# -- handedness: 180 degrees, never a flip -----------------------------------------------


def test_a_left_curve_at_rotation_0_joins_through_its_ne_corner() -> None:
    game = game_with_track(-1, 3)
    # a left turnout turned 180 at (2,0) points its diverging leg SW, at (1,1)
    del game.state.districts[0].squares[key(2, 0)]
    game.state.deck.append("straight")
    lay(game, 2, 0, "turnout-left", 180)
    assert play(game, "curve-left", 1, 1, 0) == []  # its NE corner meets that leg
    assert JOIN in codes(play(game, "curve-left", 1, 1, 180))  # turned, the leg is SW: nothing there


def test_a_left_curve_at_rotation_180_joins_through_its_sw_corner() -> None:
    game = game_with_track(-1, 3)
    del game.state.districts[0].squares[key(1, 0)]
    game.state.deck.append("straight")
    lay(game, 1, 0, "turnout-left", 0)  # diverging leg NE, at (2,-1)
    assert play(game, "curve-left", 2, -1, 180) == []
    assert JOIN in codes(play(game, "curve-left", 2, -1, 0))


def test_no_rotation_makes_a_left_curve_join_through_se() -> None:
    """Only a flip would put a left curve's leg on the SE/NW diagonal."""
    game = game_with_track(-1, 3)
    del game.state.districts[0].squares[key(2, 0)]
    game.state.deck.append("straight")
    lay(game, 2, 0, "turnout-right", 180)  # diverging leg NW, at (1,-1)
    for rotation in (0, 180):
        assert JOIN in codes(play(game, "curve-left", 1, -1, rotation)), rotation
    assert play(game, "curve-right", 1, -1, 0) == []  # the right-handed card does join there


@pytest.mark.parametrize("rotation", [90, 270, 45, -180, 360, 1])
def test_a_rotation_other_than_0_or_180_is_an_invalid_action(rotation: int) -> None:
    game = game_with_track()
    give(game, "curve-left")
    before = game.state_json()
    action = Play(0, "curve-left", x=3, y=0, rotation=rotation)
    with pytest.raises(InvalidActionError, match="rotation must be 0 or 180"):
        game.check(action)
    with pytest.raises(InvalidActionError):
        game.apply(action)
    assert game.state_json() == before


@pytest.mark.parametrize("rotation", [None, 0, 180])
def test_rotations_0_and_180_and_none_are_well_formed(rotation: int | None) -> None:
    game = game_with_track()
    assert isinstance(play(game, "straight", 3, 0, rotation), list)


# -- turnouts upgrading laid track --------------------------------------------------------


@pytest.mark.parametrize("card", ["turnout-left", "turnout-right"])
@pytest.mark.parametrize("rotation", [0, 180])
def test_a_turnout_may_replace_a_straight(card: str, rotation: int) -> None:
    game = game_with_track()
    assert play(game, card, 1, 0, rotation) == []
    game.apply(Play(0, card, x=1, y=0, rotation=rotation))
    square = game.state.districts[0].squares[key(1, 0)]
    assert (square.card, square.rotation) == (card, rotation)
    assert game.state.salvage[-1] == "straight"
    assert game.census() == dealt(game)


def _left_curve_on_a_branch() -> Game:
    """A left curve at (1,1), turned 0 (W-NE), joined to a left turnout
    turned 180 at (2,0)."""
    game = game_with_track(-1, 3)
    del game.state.districts[0].squares[key(2, 0)]
    game.state.deck.append("straight")
    lay(game, 2, 0, "turnout-left", 180)
    lay(game, 1, 1, "curve-left", 0)
    return game


def _right_curve_on_a_branch() -> Game:
    """A right curve at (1,-1), turned 0 (W-SE), joined to a right turnout
    turned 180 at (2,0)."""
    game = game_with_track(-1, 3)
    del game.state.districts[0].squares[key(2, 0)]
    game.state.deck.append("straight")
    lay(game, 2, 0, "turnout-right", 180)
    lay(game, 1, -1, "curve-right", 0)
    return game


def test_a_left_turnout_replaces_a_left_curve_laid_the_same_way() -> None:
    game = _left_curve_on_a_branch()
    assert play(game, "turnout-left", 1, 1, 0) == []
    game.apply(Play(0, "turnout-left", x=1, y=1, rotation=0))
    assert game.state.districts[0].squares[key(1, 1)].card == "turnout-left"
    assert game.state.salvage[-1] == "curve-left"
    assert game.census() == dealt(game)


def test_a_left_turnout_turned_the_other_way_does_not_replace_that_curve() -> None:
    game = _left_curve_on_a_branch()
    assert REPLACE in codes(play(game, "turnout-left", 1, 1, 180))


@pytest.mark.parametrize("rotation", [0, 180])
def test_a_right_turnout_does_not_replace_a_left_curve(rotation: int) -> None:
    game = _left_curve_on_a_branch()
    assert REPLACE in codes(play(game, "turnout-right", 1, 1, rotation))


@pytest.mark.parametrize("rotation", [0, 180])
def test_a_left_turnout_does_not_replace_a_right_curve(rotation: int) -> None:
    game = _right_curve_on_a_branch()
    assert REPLACE in codes(play(game, "turnout-left", 1, -1, rotation))


def test_a_right_turnout_replaces_a_right_curve_laid_the_same_way() -> None:
    game = _right_curve_on_a_branch()
    assert play(game, "turnout-right", 1, -1, 0) == []


@pytest.mark.parametrize(
    "burden,expected",
    [
        ("cars", "track-has-cars"),
        ("caboose", "track-has-cars"),
        ("enhancement", "track-has-enhancement"),
    ],
)
def test_a_straight_holding_cars_or_an_enhancement_cannot_be_replaced(burden: str, expected: str) -> None:
    game = game_with_track()
    square = game.state.districts[0].squares[key(1, 0)]
    if burden == "cars":
        square.cars.append(Car("boxcar", True))
    elif burden == "caboose":
        square.caboose_of = "some-train"
    else:
        enhance(game, 1, 0, "small-yard")
    reasons = play(game, "turnout-left", 1, 0, 0)
    assert codes(reasons) == [expected], reasons


def test_a_curve_holding_cars_cannot_be_replaced_either() -> None:
    game = _left_curve_on_a_branch()
    game.state.districts[0].squares[key(1, 1)].cars.append(Car("hopper", False))
    assert codes(play(game, "turnout-left", 1, 1, 0)) == ["track-has-cars"]


def _occupied(what: str) -> tuple[Game, tuple[int, int]]:
    game = game_with_track(-1, 3)
    if what == "office":
        return game, (0, 0)
    if what == "turnout":
        del game.state.districts[0].squares[key(1, 0)]
        game.state.deck.append("straight")
        lay(game, 1, 0, "turnout-left", 0)
        return game, (1, 0)
    if what == "facility":
        lay(game, 2, -1, "freight-house")
        return game, (2, -1)
    if what == "modifier":
        lay(game, 2, -1, "freight-house")
        lay(game, 2, -2, "loading-ramp", modifies=key(2, -1))
        return game, (2, -2)
    raise AssertionError(what)


@pytest.mark.parametrize(
    "what,expected",
    [
        ("office", TAKEN),
        ("turnout", REPLACE),
        ("facility", TAKEN),
        ("modifier", TAKEN),
    ],
)
@pytest.mark.parametrize("card", ["turnout-left", "turnout-right"])
def test_a_turnout_never_replaces_anything_else(what: str, expected: str, card: str) -> None:
    game, (x, y) = _occupied(what)
    for rotation in (0, 180):
        reasons = play(game, card, x, y, rotation)
        assert expected in codes(reasons), (rotation, reasons)


@pytest.mark.parametrize("card", ["straight", "curve-left", "curve-right"])
def test_plain_track_never_goes_onto_an_occupied_square(card: str) -> None:
    game = game_with_track()
    for x, y in ((1, 0), (0, 0)):
        for rotation in (0, 180):
            assert TAKEN in codes(play(game, card, x, y, rotation)), (card, x, y, rotation)


def test_a_refused_upgrade_changes_nothing() -> None:
    game = _left_curve_on_a_branch()
    give(game, "turnout-right")
    before = game.state_json()
    with pytest.raises(IllegalActionError):
        game.apply(Play(0, "turnout-right", x=1, y=1, rotation=0))
    assert game.state_json() == before


def test_a_turnout_may_be_run_through_but_is_never_a_stopping_place() -> None:
    """Listed in the rules next to the track cards; the switching tests cover it
    in depth (tests/stationmaster/rules/test_district_switching.py)."""
    from engine.stationmaster.rules.switching import reachable

    game = game_with_track(-1, 3)
    del game.state.districts[0].squares[key(1, 0)]
    game.state.deck.append("straight")
    lay(game, 1, 0, "turnout-left", 0)
    found = reachable(game, game.state.districts[0])
    assert key(1, 0) not in found and key(2, 0) in found
