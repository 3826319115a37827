"""Status honesty for the Mainline and action cards: every effect with a
registered handler really runs when its card is played, alone, and a refused
play runs none. Each registered effect id has a scenario
(tests/kit/stationmaster_scenarios.py); a handler registered without one
fails ``test_every_registered_part1_effect_has_a_scenario``."""

from __future__ import annotations

import pytest

from engine.effects.registry import trace
from engine.errors import IllegalActionError
from engine.stationmaster.content.model import Card, Catalog, Enhancement
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.actions import Action, Play, SortCars
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.status import card_effect, card_status
from tests.kit.stationmaster import CATALOG, codes, dealt, new_game, set_hand
from tests.kit.stationmaster_scenarios import SCENARIOS

# The rules engine's part 1 covers the cards played onto the Mainline or spent
# as actions; district cards (track, Facilities, Modifiers, district
# Enhancements, trains that pay for standing in a district) are tested with
# the districts (tests/stationmaster/effects/test_status_live.py).
PART1_FAMILIES = ("mainline", "mainline-modifiers", "maneuvers", "second-section")


def _part1(card: object) -> bool:
    return getattr(card, "family", None) in PART1_FAMILIES or (isinstance(card, Enhancement) and card.placement == "mainline")


PART1_EFFECTS = {card_effect(c) for c in CATALOG.cards if _part1(c)} - {None}
PART1_SCENARIOS = {effect: scenario for effect, scenario in SCENARIOS.items() if effect in PART1_EFFECTS}


def _played(effect: str) -> tuple[Game, Action]:
    """The effect's scenario, for the first card that has the effect."""
    card: Card = next(c for c in CATALOG.cards if card_effect(c) == effect)
    return PART1_SCENARIOS[effect](CATALOG, card)


def test_every_registered_part1_effect_has_a_scenario() -> None:
    registered = set(load_handlers()) & PART1_EFFECTS
    assert registered == set(PART1_SCENARIOS), "a Mainline/action handler was registered (or removed) without a scenario test"


def test_every_registered_effect_is_declared_in_the_content(catalog: Catalog) -> None:
    assert set(load_handlers()) <= set(catalog.effects)


@pytest.mark.parametrize("effect", sorted(PART1_SCENARIOS))
def test_the_handler_runs_when_its_card_is_played(effect: str) -> None:
    game, action = _played(effect)
    assert game.check(action) == []
    deck = dealt(game)
    with trace() as ran:
        game.apply(action)
    assert effect in ran, f"{action} did not run the {effect} handler (ran {ran})"
    assert ran == [effect]
    assert game.census() == deck


@pytest.mark.parametrize("effect", sorted(PART1_SCENARIOS))
def test_a_refused_play_runs_no_handler(effect: str) -> None:
    game, action = _played(effect)
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
    assert effect in PART1_SCENARIOS


def test_unbuilt_cards_are_refused_with_a_reason(catalog: Catalog) -> None:
    game = new_game(seed=50)
    for card in ("poling",):
        assert card_status(catalog, catalog.by_id[card]) == "unbuilt"
        set_hand(game, card, "straight", "straight")
        reasons = game.check(Play(0, card))
        assert "effect-unbuilt" in codes(reasons), reasons
