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
from engine.stationmaster.effects import load_handlers

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
    """A handler for an effect the content does not declare is an error, as a
    card naming an undeclared effect is: both are typos waiting to hide."""
    problems = []
    declared_in = next(iter(catalog.effects.values())).origin.file if catalog.effects else "effects.yaml"
    for effect_id, made in sorted(load_handlers().items()):
        if effect_id not in catalog.effects:
            path, line = made.where
            problems.append(Problem(path, line, 1, f"engine handler for effect '{effect_id}', which {declared_in} does not declare"))
    return problems
