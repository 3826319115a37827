"""The game-building kit itself (tests/kit/stationmaster.py) builds honest
situations: the census still balances after cards are laid and given, and
its branch yard is a district the rules would have allowed, with both stubs
in reach of the Office."""

from __future__ import annotations

from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import ONE_PLAYER_OFFICE, branch_yard, dealt, enhance, give, lay, loaded, new_game, put_train


def test_new_game_is_at_local_operations_with_the_census_balanced(game: Game) -> None:
    assert game.state.phase == "local"
    assert game.state.mainline[ONE_PLAYER_OFFICE].kind == "office"
    assert game.census() == dealt(game)


def test_laid_and_given_cards_keep_the_census_equal_to_the_deck(game: Game) -> None:
    branch_yard(game)
    lay(game, 3, -1, "grocers-warehouse")
    enhance(game, 0, 0, "small-yard")
    give(game, "straight", "depot" if dealt(game)["depot"] else "station")
    put_train(game, "extra-18", loaded("flatcar", 3))
    assert game.census() == dealt(game)


def test_the_branch_yard_is_a_district_the_rules_would_have_allowed(catalog: Catalog) -> None:
    """Each square of the helper layout is one the engine accepts when it is
    played in order, so the other files start from a legal district."""
    from engine.stationmaster.rules.actions import Play
    from engine.stationmaster.rules.state import TurnState

    game = new_game(catalog)
    plan = [(x, 0, "straight", 0) for x in (1, 2, 3, -1, -2, -3)]
    plan += [(1, 0, "turnout-left", 0), (2, -1, "curve-left", 180), (-1, 0, "turnout-right", 180), (-2, -1, "curve-right", 0)]
    for x, y, card, rotation in plan:
        give(game, card)
        game.apply(Play(0, card, x=x, y=y, rotation=rotation))
        game.state.turn = TurnState()  # as if a new turn had begun
    built = {k: (sq.card, sq.rotation) for k, sq in game.state.districts[0].squares.items()}
    other = new_game(catalog)
    branch_yard(other)
    assert built == {k: (sq.card, sq.rotation) for k, sq in other.state.districts[0].squares.items()}
    d, o = game.state.districts[0], other.state.districts[0]
    assert (d.west_limit, d.east_limit) == (o.west_limit, o.east_limit) == (-4, 4)


def test_both_stubs_of_the_branch_yard_are_reachable_from_the_office(catalog: Catalog) -> None:
    from engine.stationmaster.rules.switching import reachable

    game = new_game(catalog)
    branch_yard(game)
    found = reachable(game, game.state.districts[0])
    assert {"2,-1", "-2,-1", "2,0", "3,0", "-2,0", "-3,0"} <= found
    assert "1,0" not in found and "-1,0" not in found  # turnouts: run through, never stopped on
