"""A card's status, derived from the handler registry: ``live`` when a
handler is subscribed for its effect (the engine reads it during play),
``unbuilt`` when none is. This game has no solitaire, so nothing is
dormant for want of an opponent; whether a configuration puts a card in
play is the Dealt columns' question, not the status's."""

from __future__ import annotations

from engine.content.problems import Problem
from engine.effects.registry import undeclared_handlers
from engine.pack import Status
from engine.trickoftherails.content.model import Card, Catalog
from engine.trickoftherails.effects import REGISTRY, load_handlers
from engine.trickoftherails.rules.houserules import DEFAULTS, VARIANTS

# What each status means in this game, for the site's legend (the plain
# words beside them are shared: ``engine.pack.STATUS_WORDS``).
MEANINGS: dict[Status, str] = {
    "live": "The engine carries out the card's effect during play.",
    "unbuilt": "The effect is on record, but nothing in the engine reads it yet.",
}


def card_status(catalog: Catalog, card: Card) -> Status | None:
    if card.effect is None:
        return None
    return "live" if card.effect in load_handlers() else "unbuilt"


def variant_status(variant_id: str) -> Status:
    """A variant is live when the engine can set a game up with it."""
    return "live" if variant_id in VARIANTS or variant_id in DEFAULTS else "unbuilt"


def registry_problems(catalog: Catalog) -> list[Problem]:
    return undeclared_handlers(REGISTRY, catalog.effects)
