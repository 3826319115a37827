"""Status honesty: every effect with a registered handler really runs when
its card is played. Each registered effect id has a scenario here; a handler
registered without one fails ``test_every_registered_effect_has_a_scenario``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.stationmaster.rules.actions import Action, EndTurn, FlyingSwitch, Play, RedFlag, SortCars
from engine.stationmaster.content.model import Enhancement
from engine.effects.registry import trace
from engine.stationmaster.effects import load_handlers
from engine.errors import IllegalActionError
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car, Square, Train
from engine.stationmaster.rules.status import card_effect, card_status
from engine_kit import CATALOG, codes, dealt, give, give_and_draw, new_game, take


def put_train(game: Game, card: str, position: int, cars: list[Car], remaining: int = 0) -> Train:
    s = game.state
    s.serial += 1
    t = Train("t", card, None, "east", position, cars, False, remaining=remaining, sequence=s.serial)
    s.trains.append(t)
    s.crew_trays_free -= 1
    return t


def _grade(card: str, before: tuple[str, ...] = ()) -> Callable[[], tuple[Game, Action]]:
    def make() -> tuple[Game, Action]:
        game = new_game(seed=50)
        game.state.mainline[1].card, game.state.mainline[1].uphill = "heavy-grade", "east"
        for earlier in before:
            give_and_draw(game, 0, [earlier, "straight", "straight"])
            game.apply(Play(0, earlier, slot=1))
            game.apply(EndTurn(0))
        give_and_draw(game, 0, [card, "straight", "straight"])
        return game, Play(0, card, slot=1)

    return make


def _realignment() -> tuple[Game, Action]:
    game = new_game(seed=50)
    give_and_draw(game, 0, ["realignment", "straight", "straight"])
    return game, Play(0, "realignment", slot=1)


def _abs() -> tuple[Game, Action]:
    game = new_game(seed=50)
    give(game, 0, ["abs-signals", "straight", "straight"])
    return game, Play(0, "abs-signals", slot=3)


def _red_flag() -> tuple[Game, Action]:
    game = new_game(seed=50)
    give(game, 0, ["red-flag", "straight", "straight"])
    put_train(game, "train-1", 0, [])
    return game, RedFlag(0, train="t")


def _second_section() -> tuple[Game, Action]:
    game = new_game(seed=50)
    take(game, "train-1")
    game.state.timetable[0] = "train-1"
    give(game, 0, ["second-section", "straight", "straight"])
    return game, Play(0, "second-section", train="train-1")


def _sort_cars() -> tuple[Game, Action]:
    game = new_game(seed=50)
    game.state.mainline[1].card = "interchange"
    put_train(game, "train-3", 1, [Car("boxcar", True), Car("tank", True)], remaining=1)
    return game, SortCars(0, train="t", order=(1, 0))


def _flying_switch() -> tuple[Game, Action]:
    """A trailing-point turnout east of the Office leads back to a siding
    only a car cut off on the move can reach."""
    game = new_game(seed=50)
    squares = game.state.districts[0].squares
    squares["1,0"] = Square("turnout-left", "track", rotation=180)
    squares["0,1"] = Square("curve-left", "track")
    squares["-1,1"] = Square("straight", "track")
    for laid in ("turnout-left", "curve-left", "straight"):
        game.state.deck.remove(laid)  # the cards on the table came out of the deck
    game.state.trains.append(Train("t", "train-3", None, "east", 2, [Car("boxcar", False), Car("tank", False)], True))
    give(game, 0, ["flying-switch", "straight", "straight"])
    return game, FlyingSwitch(0, train="t", x=-1, y=1)


SCENARIOS: dict[str, Callable[[], tuple[Game, Action]]] = {
    "flying-switch": _flying_switch,
    "grade-brakeman": _grade("brakeman"),
    "grade-helpers": _grade("helpers"),
    "grade-airbrakes": _grade("airbrakes", before=("brakeman",)),
    "realignment": _realignment,
    "abs-signals": _abs,
    "red-flag": _red_flag,
    "second-section": _second_section,
    "sort-cars": _sort_cars,
}


# The rules engine's part 1 covers the cards played onto the Mainline or spent
# as actions; district cards (track, Facilities, Modifiers, district
# Enhancements, trains that pay for standing in a district) are tested with
# the districts (tests/test_status_live.py).
PART1_FAMILIES = ("mainline", "mainline-modifiers", "maneuvers", "second-section")


def _part1(card: object) -> bool:
    return getattr(card, "family", None) in PART1_FAMILIES or (isinstance(card, Enhancement) and card.placement == "mainline")


PART1_EFFECTS = {card_effect(c) for c in CATALOG.cards if _part1(c)} - {None}


def test_every_registered_part1_effect_has_a_scenario() -> None:
    registered = set(load_handlers()) & PART1_EFFECTS
    assert registered == set(SCENARIOS), "a Mainline/action handler was registered (or removed) without a scenario test"


def test_every_registered_effect_is_declared_in_the_content() -> None:
    assert set(load_handlers()) <= set(CATALOG.effects)


@pytest.mark.parametrize("effect", sorted(SCENARIOS))
def test_the_handler_runs_when_its_card_is_played(effect: str) -> None:
    game, action = SCENARIOS[effect]()
    assert game.check(action) == []
    deck = dealt(game)
    with trace() as ran:
        game.apply(action)
    assert effect in ran, f"{action} did not run the {effect} handler (ran {ran})"
    assert ran == [effect]
    assert game.census() == deck


@pytest.mark.parametrize("effect", sorted(SCENARIOS))
def test_a_refused_play_runs_no_handler(effect: str) -> None:
    game, action = SCENARIOS[effect]()
    game.apply(action)
    # the same action again is refused (the card is spent or already there);
    # sorting may be repeated, so refuse it with an order that is no permutation
    if isinstance(action, SortCars):
        action = SortCars(0, train=action.train, order=(0, 0))
    before = game.state_json()
    with trace() as ran:
        with pytest.raises(IllegalActionError):
            game.apply(action)
    assert ran == []
    assert game.state_json() == before


@pytest.mark.parametrize("card", [c for c in CATALOG.cards if card_status(CATALOG, c) == "live" and _part1(c)], ids=lambda c: c.id)
def test_every_live_part1_card_has_a_scenario(card: object) -> None:
    effect = card_effect(card)  # type: ignore[arg-type]
    assert effect in SCENARIOS


def test_unbuilt_cards_are_refused_with_a_reason() -> None:
    game = new_game(seed=50)
    for card in ("poling",):
        assert card_status(CATALOG, CATALOG.by_id[card]) == "unbuilt"
        give(game, 0, [card, "straight", "straight"])
        reasons = game.check(Play(0, card))
        assert "effect-unbuilt" in codes(reasons), reasons
