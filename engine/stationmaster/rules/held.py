"""Cards held in hand and spent by an action of their own (a Red Flag, a
Flying Switch): which card an action spends is what its effect's handler
declares (``kind=`` the action class), never a card id the core knows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import REGISTRY, load_handlers
from engine.stationmaster.rules.actions import Action
from engine.stationmaster.rules.events import HELD_CARD_SPENT
from engine.stationmaster.rules.lookups import effect_of

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def spent_by(game: RulesContext, card: Card) -> type[Action] | None:
    """The action kind that spends ``card``, if its effect is spent by one.

    Asked for every card in hand on every proposal, so each answer is kept on
    the game until the registry changes."""
    kept = game.spent_cache.get(card.id)
    if kept is not None and kept[0] == REGISTRY.generation:
        return kept[1]
    registry = load_handlers()
    effect = effect_of(card)
    kind = registry.kind(HELD_CARD_SPENT, effect) if effect is not None else None
    found = kind if isinstance(kind, type) and issubclass(kind, Action) else None
    game.spent_cache[card.id] = (registry.generation, found)
    return found


def spends(game: RulesContext, kind: type[Action]) -> list[Card]:
    """The catalog's cards that ``kind`` of action spends."""
    return [card for card in game.catalog.cards if spent_by(game, card) is kind]


def held_card(game: RulesContext, player: int, kind: type[Action]) -> Card | None:
    """The first card in ``player``'s hand that ``kind`` of action spends."""
    for card_id in game.state.hands[player]:
        card = game.catalog.by_id[card_id]
        if spent_by(game, card) is kind:
            return card
    return None
