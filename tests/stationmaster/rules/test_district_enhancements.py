"""Enhancements played into a district (Home Deck v0.8.6, "Enhancements,
Mainline modifiers and Maneuvers"): Small Yard, Division Yard, Yard Office,
and those whose effect is not built yet.
The Interlocking is tested with the Offices (tests/stationmaster/rules/test_district_offices.py)."""

from __future__ import annotations

import pytest

from engine.effects.registry import trace
from engine.stationmaster.content.model import Catalog, Enhancement
from engine.stationmaster.effects import REGISTRY, load_handlers
from engine.stationmaster.rules.actions import Attack, EndTurn, Play, SortCars
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.state import Car
from engine.stationmaster.rules.status import card_status
from tests.kit.stationmaster import CATALOG, ONE_PLAYER_OFFICE, branch_yard, codes, dealt, enhance, give, lay, new_game, put_train


def three_cars() -> list[Car]:
    return [Car("boxcar", True), Car("reefer", False), Car("hopper", True)]


# -- Small Yard ------------------------------------------------------------------------


def test_without_a_small_yard_a_train_at_the_office_may_not_re_order(game: Game) -> None:
    put_train(game, "train-3", three_cars(), train_id="t")
    reasons = game.check(SortCars(0, train="t", order=(2, 1, 0)))
    assert "nothing-sorts-here" in codes(reasons), reasons


def test_a_small_yard_lets_a_train_standing_at_that_office_re_order(game: Game) -> None:
    give(game, "small-yard")
    game.apply(Play(0, "small-yard", x=0, y=0))
    cars = three_cars()
    put_train(game, "train-3", list(cars), train_id="t")
    # sorting is a switching move: not in the turn that played a card
    assert "switch-option-closed" in codes(game.check(SortCars(0, train="t", order=(2, 0, 1))))
    game.apply(EndTurn(0))
    game.state.trains = [t for t in game.state.trains if t.id != "t"]
    put_train(game, "train-3", list(cars), train_id="t")
    assert game.check(SortCars(0, train="t", order=(2, 0, 1))) == []
    with trace() as ran:
        game.apply(SortCars(0, train="t", order=(2, 0, 1)))
    assert ran == ["small-yard"]
    assert game.state.trains[0].cars == [cars[2], cars[0], cars[1]]
    assert "re-orders its consist in the Small Yard" in game.state.log[-1]


def test_a_small_yard_anywhere_in_the_district_counts(game: Game) -> None:
    branch_yard(game)
    enhance(game, 3, 0, "small-yard")  # on the Running Track straight at (3,0)
    put_train(game, "train-3", three_cars(), train_id="t")
    assert game.check(SortCars(0, train="t", order=(1, 0, 2))) == []


def test_a_small_yard_does_not_sort_a_train_that_is_not_at_its_office(game: Game) -> None:
    enhance(game, 0, 0, "small-yard")
    put_train(game, "train-3", three_cars(), train_id="t", position=ONE_PLAYER_OFFICE + 1, remaining=1)
    assert codes(game.check(SortCars(0, train="t", order=(1, 0, 2)))) == ["nothing-sorts-here"]


def test_a_small_yard_in_another_district_does_not_help(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    enhance(game, 0, 0, "small-yard", player=1)
    put_train(game, "train-3", three_cars(), train_id="t")  # at player 0's Office
    assert codes(game.check(SortCars(0, train="t", order=(1, 0, 2)))) == ["nothing-sorts-here"]


def test_a_sort_order_must_name_every_car_once(game: Game) -> None:
    enhance(game, 0, 0, "small-yard")
    put_train(game, "train-3", three_cars(), train_id="t")
    assert "not-a-permutation" in codes(game.check(SortCars(0, train="t", order=(0, 0, 1))))


# -- Division Yard -----------------------------------------------------------------------


def test_under_division_points_only_an_extra_may_not_start_at_an_office(catalog: Catalog) -> None:
    game = new_game(catalog, extraStart="divisionPointsOnly")
    give(game, "extra-5")
    reasons = game.check(Play(0, "extra-5", slot=ONE_PLAYER_OFFICE, heading="east"))
    assert "extra-start-house-rule" in codes(reasons), reasons


def test_a_division_yard_lets_an_extra_start_at_its_office_under_division_points_only(catalog: Catalog) -> None:
    game = new_game(catalog, extraStart="divisionPointsOnly")
    give(game, "division-yard")
    game.apply(Play(0, "division-yard", x=0, y=0))
    game.apply(EndTurn(0))
    give(game, "extra-5")
    action = Play(0, "extra-5", slot=ONE_PLAYER_OFFICE, heading="east")
    assert game.check(action) == []
    with trace() as ran:
        game.apply(action)
    assert ran == ["division-yard"]
    assert [(o.card, o.start) for o in game.state.extras_queue] == [("extra-5", ONE_PLAYER_OFFICE)]
    game.apply(EndTurn(0))  # the Mainline Phase makes it up at the Office
    assert any("X5 Excursion departs Depot" in line for line in game.state.log)
    assert game.census() == dealt(game)


def test_a_division_yard_elsewhere_does_not_open_this_office(catalog: Catalog) -> None:
    game = new_game(catalog, players=2, extraStart="divisionPointsOnly")
    enhance(game, 0, 0, "division-yard", player=1)
    give(game, "extra-5")
    own = next(i for i, s in enumerate(game.state.mainline) if s.kind == "office" and s.player == 0)
    assert "extra-start-house-rule" in codes(game.check(Play(0, "extra-5", slot=own, heading="east")))


# -- Yard Office -------------------------------------------------------------------------


def _bad_order_at_player_0(game: object) -> None:
    """Player 0 ends the turn, and player 1 holds a Bad Order."""
    from engine.stationmaster.rules.game import Game

    assert isinstance(game, Game)
    game.apply(EndTurn(0))
    give(game, "bad-order", player=1)


def test_a_bad_order_without_a_yard_office_sets_the_last_car_out(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    _bad_order_at_player_0(game)
    cars = three_cars()
    train = put_train(game, "train-3", list(cars), train_id="t")
    game.apply(Attack(1, "bad-order", rival=0, train="t"))
    assert train.cars == cars[:2]
    assert game.state.districts[0].squares[key(0, 0)].cars == [cars[2]]
    assert "hopper" in game.state.log[-1] and "bad order" in game.state.log[-1]
    assert game.census() == dealt(game)


def test_a_yard_office_answers_the_bad_order_and_the_train_keeps_its_car(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    branch_yard(game)
    enhance(game, 2, 0, "yard-office")
    _bad_order_at_player_0(game)
    cars = three_cars()
    train = put_train(game, "train-3", list(cars), train_id="t")
    with trace() as ran:
        game.apply(Attack(1, "bad-order", rival=0, train="t"))
    assert ran == ["yard-office"]
    assert train.cars == cars
    assert game.state.districts[0].squares[key(0, 0)].cars == []
    assert "Yard Office repairs the car" in game.state.log[-1]
    assert game.state.attack is not None and game.state.attack.answer == "yard-office" and not game.state.attack.waiting


def test_only_the_attacked_districts_yard_office_answers(catalog: Catalog) -> None:
    game = new_game(catalog, players=2)
    enhance(game, 0, 0, "yard-office", player=1)
    _bad_order_at_player_0(game)
    cars = three_cars()
    train = put_train(game, "train-3", list(cars), train_id="t")
    with trace() as ran:
        game.apply(Attack(1, "bad-order", rival=0, train="t"))
    assert ran == ["bad-order"]
    assert train.cars == cars[:2]


def test_the_yard_office_is_dormant_solo_on_the_site(catalog: Catalog) -> None:
    """Its attack (Bad Order) is dealt only when the table has rivals, so no
    solitaire game reaches the handler; a game with rivals does (above)."""
    assert card_status(catalog, catalog.by_id["yard-office"]) == "dormantSolo"
    assert card_status(catalog, catalog.by_id["bad-order"]) == "dormantSolo"


def test_a_yard_office_may_still_be_played_into_a_district(game: Game) -> None:
    give(game, "yard-office")
    assert game.check(Play(0, "yard-office", x=0, y=0)) == []


# -- effects that are not built ----------------------------------------------------------


# Every district Enhancement with an effect: each test takes its handler out of
# the registry for the test, so the card is unbuilt whatever is built today.
BUILT_HERE = [c.id for c in CATALOG.of_type(Enhancement) if c.placement == "district" and c.effect is not None]


def unbuild(monkeypatch: pytest.MonkeyPatch, card: str) -> None:
    enhancement = CATALOG.by_id[card]
    assert isinstance(enhancement, Enhancement) and isinstance(enhancement.effect, str)
    effect = enhancement.effect
    load_handlers()
    monkeypatch.delitem(REGISTRY, effect)
    assert card_status(CATALOG, CATALOG.by_id[card]) == "unbuilt"


@pytest.mark.parametrize("card", BUILT_HERE)
def test_an_enhancement_whose_effect_is_not_built_is_refused(catalog: Catalog, card: str, monkeypatch: pytest.MonkeyPatch) -> None:
    unbuild(monkeypatch, card)
    game = new_game(catalog)
    give(game, card)
    reasons = game.check(Play(0, card, x=0, y=0))
    name = catalog.by_id[card].name
    assert codes(reasons) == ["effect-unbuilt"] and name in reasons[0], reasons


@pytest.mark.parametrize("card", BUILT_HERE)
def test_an_unbuilt_enhancement_is_never_offered(catalog: Catalog, card: str, monkeypatch: pytest.MonkeyPatch) -> None:
    unbuild(monkeypatch, card)
    game = new_game(catalog)
    give(game, card)
    assert not [a for a in game.legal_actions() if isinstance(a, Play) and a.card == card]


# -- where an Enhancement goes -------------------------------------------------------------


def test_an_enhancement_goes_onto_a_square_that_carries_rail(game: Game) -> None:
    branch_yard(game)
    lay(game, 3, -1, "grocers-warehouse")
    lay(game, 3, -2, "truck-dock", modifies=key(3, -1))
    give(game, "small-yard")
    for x, y in ((0, 0), (2, 0), (1, 0), (3, -1)):
        assert game.check(Play(0, "small-yard", x=x, y=y)) == [], (x, y)
    for x, y in ((0, -5), (3, -2)):
        assert codes(game.check(Play(0, "small-yard", x=x, y=y))) == ["needs-rail"], (x, y)


def test_one_enhancement_to_a_square(game: Game) -> None:
    enhance(game, 0, 0, "interlocking")
    give(game, "small-yard")
    assert codes(game.check(Play(0, "small-yard", x=0, y=0))) == ["square-has-enhancement"]
