"""Every card the site calls ``dormantSolo`` for want of rivals is really
played in a game with rivals, and the trace of handlers shows its handler
ran; every opponent-directed card is among them, and every defence answers,
in its scenario, an attack it is printed to answer.

``dormantSolo`` means the effect is built but no solitaire game reaches it
(``engine.stationmaster.rules.status``). For a card dealt with rivals, or one that
answers an attack dealt with rivals, a game with rivals does: each such card
needs a scenario (tests/kit/stationmaster_scenarios.py), as the live cards
do.
"""

from __future__ import annotations

import pytest

from engine.effects.registry import trace
from engine.stationmaster.content.model import Card, Catalog, OpponentCard
from engine.stationmaster.rules.actions import Answer, Attack
from engine.stationmaster.rules.deck import ever_dealt
from engine.stationmaster.rules.lookups import answers_of
from engine.stationmaster.rules.status import card_effect, card_status
from tests.kit.stationmaster import CATALOG
from tests.kit.stationmaster_scenarios import ANSWERED, SCENARIOS, Scenario


def _reached_with_rivals(card: Card) -> bool:
    answers = [CATALOG.by_id[a] for a in answers_of(card) if a in CATALOG.by_id]
    return ever_dealt(CATALOG, card) and (not answers or any(ever_dealt(CATALOG, a) for a in answers))


WITH_RIVALS = [c for c in CATALOG.cards if card_status(CATALOG, c) == "dormantSolo" and _reached_with_rivals(c)]


def test_every_opponent_directed_card_is_played_with_rivals(catalog: Catalog) -> None:
    opponent = {c.id for c in catalog.of_type(OpponentCard)}
    assert opponent <= {c.id for c in WITH_RIVALS}, sorted(opponent - {c.id for c in WITH_RIVALS})
    assert "yard-office" in {c.id for c in WITH_RIVALS}


@pytest.mark.parametrize("card", WITH_RIVALS, ids=[c.id for c in WITH_RIVALS])
def test_its_handler_runs_in_a_game_with_rivals(catalog: Catalog, card: Card) -> None:
    effect = card_effect(card)
    assert effect is not None
    scenario = SCENARIOS.get(effect)
    assert scenario is not None, f"card '{card.id}' is dormantSolo for want of rivals, but no scenario plays it (effect '{effect}')"
    game, action = scenario(catalog, card)
    assert game.state.players > 1, "the scenario is a solitaire game"
    assert game.check(action) == [], f"the scenario's action is refused: {game.check(action)}"
    with trace() as ran:
        game.apply(action)
    assert effect in ran, f"playing '{card.id}' did not run the '{effect}' handler (ran: {ran})"


DEFENCES = [c for c in WITH_RIVALS if answers_of(c)]


def _answer_scenarios(defence: Card) -> dict[str, Scenario]:
    """Each attack the defence's scenarios answer, with the scenario: its own
    scenario, and any more ``ANSWERED`` lists (attack id to scenario) for a
    defence that answers more than one attack."""
    effect = card_effect(defence) or ""
    found: dict[str, Scenario] = dict(ANSWERED.get(effect, {}))
    game, action = SCENARIOS[effect](CATALOG, defence)
    attacked = game.state.attack.card if isinstance(action, Answer) and game.state.attack is not None else getattr(action, "card", "")
    found[attacked] = SCENARIOS[effect]
    return found


PAIRS = [(d, a) for d in DEFENCES for a in answers_of(d)]


@pytest.mark.parametrize(("defence", "attack_id"), PAIRS, ids=[f"{d.id}-answers-{a}" for d, a in PAIRS])
def test_each_defence_answers_each_attack_it_is_printed_to_answer(catalog: Catalog, defence: Card, attack_id: str) -> None:
    scenario = _answer_scenarios(defence).get(attack_id)
    assert scenario is not None, f"no scenario has {defence.id} answer a {attack_id}"
    game, action = scenario(catalog, defence)
    if isinstance(action, Answer):  # a held defence answers in the window
        assert game.state.attack is not None and game.state.attack.card == attack_id and game.state.attack.waiting
    else:  # a defence standing in a district answers as the attack is played
        assert isinstance(action, Attack) and action.card == attack_id
    with trace() as ran:
        game.apply(action)
    attack = game.state.attack
    assert attack is not None and attack.card == attack_id and attack.answer == defence.id and not attack.waiting
    assert ran == [card_effect(defence)], f"the {attack_id} was answered, so only the defence's handler runs (ran: {ran})"
