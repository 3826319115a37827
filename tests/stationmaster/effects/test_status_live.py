"""Every card the site calls ``live`` is really played in a scenario, and the
trace of handlers shows its handler ran. A card claimed live whose handler
never runs, or whose effect has no scenario (tests/kit/stationmaster_scenarios.py),
fails."""

from __future__ import annotations

import pytest

from engine.effects.registry import trace
from engine.stationmaster.content.model import Card, Catalog
from engine.stationmaster.rules.status import card_effect, card_status
from tests.kit.stationmaster import CATALOG
from tests.kit.stationmaster_scenarios import SCENARIOS

LIVE = [card for card in CATALOG.cards if card_status(CATALOG, card) == "live"]


def test_some_cards_are_live() -> None:
    assert LIVE, "no card is live: the handler registry is empty or unreachable"


@pytest.mark.parametrize("card", LIVE, ids=[c.id for c in LIVE])
def test_live_card_handler_runs_when_played(catalog: Catalog, card: Card) -> None:
    effect = card_effect(card)
    assert effect is not None
    scenario = SCENARIOS.get(effect)
    assert scenario is not None, f"card '{card.id}' is shown live, but no scenario plays it (effect '{effect}')"
    game, action = scenario(catalog, card)
    assert game.check(action) == [], f"the scenario's action is refused: {game.check(action)}"
    with trace() as ran:
        game.apply(action)
    assert effect in ran, f"playing '{card.id}' did not run the '{effect}' handler (ran: {ran})"


def test_scenarios_cover_only_registered_effects() -> None:
    from engine.stationmaster.effects import load_handlers

    stale = sorted(set(SCENARIOS) - set(load_handlers()))
    assert not stale, f"scenarios for effects with no handler: {stale}"
