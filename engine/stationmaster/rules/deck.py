"""Which cards a game deals: the Home Office deck and the Mainline inventory.

This is the one place that decides. A game's setup builds its piles from
these functions, and the rules site's "Dealt" columns ask the same functions,
so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.stationmaster.content.model import Card, Catalog, MainlineCard, OfficeTier, OpponentCard
from engine.stationmaster.rules.houserules import HouseRuleValue, configurations

# Families that never go into the Home Office deck: the Mainline has its own
# inventory.
_NOT_IN_HOME_DECK = ("mainline",)

# Whether a card is dealt depends on the house rules and on whether the table
# has rivals: the opponent-directed cards (attacks and the defences that answer
# them) are dealt only when someone can be attacked. Two players stand for
# every table with rivals, one for solitaire.
SEATINGS: dict[str, int] = {"solitaire": 1, "with rivals": 2}


def office_ladder(catalog: Catalog) -> list[OfficeTier]:
    """Office tiers from the base (Whistle Post) upward."""
    tiers = catalog.of_type(OfficeTier)
    by_parent = {t.upgrades_from: t for t in tiers}
    ladder: list[OfficeTier] = []
    current = by_parent.get(None)
    while current is not None and current not in ladder:
        ladder.append(current)
        current = by_parent.get(current.id)
    return ladder


def is_dealt(catalog: Catalog, card: Card, rules: Mapping[str, HouseRuleValue], players: int = 1) -> bool:
    """Whether the Home Office deck holds this card under these house rules,
    for ``players`` districts."""
    if card.count <= 0 or card.family in _NOT_IN_HOME_DECK:
        return False
    if isinstance(card, OpponentCard):
        return players > 1
    if isinstance(card, OfficeTier):
        # An upgrade must go to the next tier up, so tiers at or below the
        # one every district opens on could never be played: leave them out.
        ladder = [t.id for t in office_ladder(catalog)]
        start = str(rules["startingOffice"])
        if card.id not in ladder or start not in ladder:
            return False
        return ladder.index(card.id) > ladder.index(start)
    return True


def home_deck(catalog: Catalog, rules: Mapping[str, HouseRuleValue], players: int = 1) -> list[Card]:
    """The unshuffled Home Office deck: each dealt card as many times as its count."""
    return [card for card in catalog.cards if is_dealt(catalog, card, rules, players) for _ in range(card.count)]


def mainline_inventory(catalog: Catalog) -> list[MainlineCard]:
    """The terrain cards setup deals between Offices, one entry per physical copy."""
    return [c for c in catalog.of_type(MainlineCard) if c.role == "terrain" for _ in range(c.count)]


def in_mainline_inventory(card: MainlineCard) -> bool:
    return card.role == "terrain" and card.count > 0


def ever_dealt(catalog: Catalog, card: Card, seatings: tuple[int, ...] = tuple(SEATINGS.values())) -> bool:
    """Reaches a game under at least one combination of house rules, at one
    of ``seatings`` (player counts; every seating unless told): in the Home
    Office deck, or (for terrain) in the Mainline inventory."""
    if isinstance(card, MainlineCard):
        return in_mainline_inventory(card)
    return any(is_dealt(catalog, card, rules, players) for rules in configurations(catalog) for players in seatings)


def dealt_solo(catalog: Catalog, card: Card) -> bool:
    """Reaches a solitaire game under at least one combination of house rules."""
    return ever_dealt(catalog, card, (SEATINGS["solitaire"],))
