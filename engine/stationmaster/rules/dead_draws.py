"""Why a dealt card may never be played: the rule that keeps it out of play,
read from the content, the effect registry and the actions, for the note
under each table of the Simulation page.

``unplayed_because(catalog, card)`` says it in words, or returns None when
no rule stands in the way (the card is playable in most games, and a table
that shows it never played says more about the bot than about the card).
"""

from __future__ import annotations

from engine.stationmaster.content.model import Card, Catalog, Facility, FacilityModifier, MainlineCard, MainlineModifier, OpponentCard, SecondSection
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.actions import ACTION_TYPES
from engine.stationmaster.rules.deck import mainline_inventory
from engine.stationmaster.rules.events import HELD_CARD_SPENT
from engine.stationmaster.rules.status import card_effect

# The Site's simulation plays solitaire: one district, so this many terrain
# cards are dealt onto the Mainline (one beyond each side of the Office).
SOLITAIRE_TERRAIN = 2


def _names(catalog: Catalog, ids: tuple[str, ...]) -> str:
    names = [catalog.by_id[i].name for i in ids if i in catalog.by_id]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _terrain_odds(catalog: Catalog, targets: tuple[str, ...]) -> str:
    inventory = mainline_inventory(catalog)
    hits = sum(1 for card in inventory if card.id in targets)
    kind = _names(catalog, targets)
    return f"a solitaire Mainline is {SOLITAIRE_TERRAIN} terrain cards dealt from {len(inventory)}, of which {hits} {'is a' if hits == 1 else 'are'} {kind}"


def _spent_by(card: Card) -> str | None:
    """The action that spends a held card, as the first paragraph of its
    docstring says it (without its full stop)."""
    effect = card_effect(card)
    kind = load_handlers().kind(HELD_CARD_SPENT, effect) if effect is not None else None
    for action in ACTION_TYPES.values():
        if action is kind and action.__doc__:
            return " ".join(action.__doc__.strip().split("\n\n")[0].split()).rstrip(".")
    return None


def unplayed_because(catalog: Catalog, card: Card) -> str | None:
    """The rule that keeps ``card`` from being played in many games, or None."""
    effect = card_effect(card)
    if effect is not None and effect not in load_handlers():
        summary = catalog.effects[effect].summary.rstrip(".") if effect in catalog.effects else effect
        return f"nothing can play it: its effect ({summary}) is not built"
    if isinstance(card, MainlineModifier) and isinstance(card.play_on, tuple):
        needs = f", and only once {catalog.by_id[card.requires].name} is on it" if card.requires and card.requires in catalog.by_id else ""
        return f"it is played only onto a {_names(catalog, card.play_on)}{needs}; {_terrain_odds(catalog, card.play_on)}"
    if isinstance(card, MainlineModifier) and card.realign:
        sources = tuple(dict(card.realign))
        return f"it is played only onto an unoccupied {_names(catalog, sources)}"
    if isinstance(card, MainlineCard):
        return "it is dealt onto the Mainline, never held"
    if isinstance(card, Facility):
        partners = f", and never in a district that has {_names(catalog, card.lockouts)}, the other end of its lockout pair" if card.lockouts else ""
        return f"it is built only on a straight stub off the Running Track, one to a district{partners}"
    if isinstance(card, FacilityModifier) and isinstance(card.hosts, tuple):
        return f"it stands only beside {_names(catalog, card.hosts)}"
    if isinstance(card, SecondSection):
        return "it is played only in the Stage a timetabled train is due out, and only while a Crew Tray is free for the second train"
    if isinstance(card, OpponentCard) and card.answers:
        return f"it is played only to answer {_names(catalog, card.answers)} aimed at you, and only a rival plays those"
    if isinstance(card, OpponentCard) and effect is not None and effect in catalog.effects:
        summary = catalog.effects[effect].summary.rstrip(".")
        return f"it is played only at a rival, and only when its effect has something to act on ({summary})"
    spent = _spent_by(card)
    if spent is not None:
        return f"it is held, and spent only where its own action can act ({spent})"
    return None
