"""A card's status, derived from the handler registry and the deck builder.

- ``unbuilt``: no handler is registered for the card's effect.
- ``dormantSolo``: a handler exists, but solitaire play never reaches it:
  the card is itself an opponent-directed attack (never dealt), or a defence
  whose every attack is never dealt, or a card no house-rule configuration
  deals at all.
- ``live``: a handler exists and a solitaire game deals the card. A scenario
  test plays each live card and checks, by trace, that its handler ran.
"""

from __future__ import annotations

from typing import Literal

from engine.stationmaster.content.model import Card, Catalog, Enhancement, OpponentCard
from engine.content.problems import Problem
from engine.stationmaster.deck import ever_dealt
from engine.effects.registry import undeclared_handlers
from engine.stationmaster.effects import REGISTRY, load_handlers

Status = Literal["live", "dormantSolo", "unbuilt"]


def card_effect(card: Card) -> str | None:
    effect = getattr(card, "effect", None)
    return effect if isinstance(effect, str) else None


def card_status(catalog: Catalog, card: Card) -> Status | None:
    """The card's status, or None for a card that names no effect."""
    effect = card_effect(card)
    if effect is None:
        return None
    if effect not in load_handlers():
        return "unbuilt"
    if isinstance(card, OpponentCard):
        return "dormantSolo"
    answers = card.answers if isinstance(card, Enhancement) else ()
    if answers and not any(ever_dealt(catalog, catalog.by_id[a]) for a in answers if a in catalog.by_id):
        return "dormantSolo"
    if not ever_dealt(catalog, card):
        return "dormantSolo"
    return "live"


def registry_problems(catalog: Catalog) -> list[Problem]:
    return undeclared_handlers(REGISTRY, catalog.effects)
