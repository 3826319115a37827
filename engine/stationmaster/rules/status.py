"""A card's status, derived from the handler registry and the deck builder.

- ``unbuilt``: no handler is registered for the card's effect.
- ``dormantSolo``: a handler exists, but solitaire play never reaches it.
  The deck builder says so: the card is dealt only when the table has
  rivals (an attack, or a defence that answers one), or it answers only
  attacks that are dealt only with rivals (the Yard Office), or no
  configuration deals it at all. A game with rivals reaches the first two;
  ``tests/stationmaster/effects/test_status_rivals.py`` plays each in one
  and checks, by trace, that its handler ran.
- ``live``: a handler exists and a solitaire game deals the card (and, for
  a defence, an attack it answers).
  ``tests/stationmaster/effects/test_status_live.py`` plays each live card
  and checks, by trace, that its handler ran.
"""

from __future__ import annotations

from typing import Literal

from engine.content.problems import Problem
from engine.effects.registry import undeclared_handlers
from engine.stationmaster.content.model import Card, Catalog
from engine.stationmaster.effects import REGISTRY, load_handlers
from engine.stationmaster.rules.deck import dealt_solo
from engine.stationmaster.rules.lookups import answers_of

Status = Literal["live", "dormantSolo", "unbuilt"]

# What each status means in this game, for the site's legend (the plain
# words beside them are shared: ``engine.pack.STATUS_WORDS``).
MEANINGS: dict[Status, str] = {
    "live": "The engine carries out the effect, and a solitaire game deals the card and plays it.",
    "dormantSolo": (
        "The effect is built, but a solitaire game never reaches it: the card is an attack or a defence, "
        "dealt only when the table has rivals, or it answers only such an attack. A game with rivals plays it."
    ),
    "unbuilt": "The effect is on record, but nothing in the engine reads it yet.",
}


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
    if not dealt_solo(catalog, card):
        return "dormantSolo"
    answers = answers_of(card)
    if answers and not any(dealt_solo(catalog, catalog.by_id[a]) for a in answers if a in catalog.by_id):
        return "dormantSolo"
    return "live"


def registry_problems(catalog: Catalog) -> list[Problem]:
    return undeclared_handlers(REGISTRY, catalog.effects)
