"""Setting a game up: the deal, the starting track and the Trick Lane.

``lane_plan`` says, slot by slot, which cards a configuration's lane may hold
and whether setup draws among them; the lane builder follows the plan with
the seeded stream, and the site's Dealt columns ask the same plan, so what
the site says is dealt is what the engine deals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from engine.rng import SeededStream
from engine.trickoftherails.content.model import Card, Catalog

Dealt = Literal["yes", "drawn", "no"]
OPERATING = "operating"
# Lane slot kinds that stand for a family of cards.
SLOT_FAMILIES = {"exchange": "exchanges", "city": "cities", "reservation": "reservations"}


@dataclass(frozen=True)
class SlotGroup:
    """Slots filled from one pool of cards: ``drawn`` when the pool holds more
    cards than the slots take (a random few are used)."""

    slots: tuple[int, ...]
    pool: tuple[str, ...]
    shuffled: bool

    @property
    def drawn(self) -> bool:
        return len(self.pool) > len(self.slots)


def layout(catalog: Catalog, players: int, variant: str) -> tuple[str, ...]:
    found = catalog.layouts[players]
    return found.expert if variant == "expert" else found.basic


def lane_plan(catalog: Catalog, players: int, variant: str) -> list[SlotGroup]:
    """The lane's slots grouped by the pool that fills them, left to right
    (worked out once per catalog, player count and variant)."""
    key = (players, variant)
    plans = catalog.derived.setdefault("lane_plan", {})
    if key not in plans:
        plans[key] = _plan(catalog, players, variant)
    found: list[SlotGroup] = plans[key]
    return found


def _plan(catalog: Catalog, players: int, variant: str) -> list[SlotGroup]:
    slots = layout(catalog, players, variant)
    groups: list[SlotGroup] = []
    kinds = list(dict.fromkeys(slots))
    for kind in kinds:
        where = tuple(i for i, slot in enumerate(slots) if slot == kind)
        if kind in SLOT_FAMILIES:
            pool = tuple(c.id for c in catalog.of_family(SLOT_FAMILIES[kind]) for _ in range(c.count))
            groups.append(SlotGroup(where, pool, shuffled=True))
        elif kind == OPERATING:
            groups.append(SlotGroup(where, catalog.operating_pool, shuffled=True))
        else:
            groups.append(SlotGroup(where, (kind,), shuffled=False))
    return groups


def build_lane(catalog: Catalog, players: int, variant: str, stream: SeededStream) -> list[str]:
    plan = lane_plan(catalog, players, variant)
    lane = [""] * len(layout(catalog, players, variant))
    for group in plan:
        pool = list(group.pool)
        if group.shuffled:
            stream.shuffle(pool)
        for slot, card in zip(group.slots, pool):
            lane[slot] = card
    return lane


def brought_by(catalog: Catalog) -> Mapping[str, str]:
    """Each card that comes into play with another, to the card that brings it."""
    return {c.brings: c.id for c in catalog.cards if c.brings is not None}


def dealt(catalog: Catalog, card: Card, players: int, variant: str) -> Dealt:
    """Whether a configuration puts ``card`` in play: every Railway card is
    dealt (to a hand or the starting track) and every Station starts a
    railway; a lane card is in play when its slots take it, ``drawn`` when
    setup picks it at random among more cards than slots."""
    if card.family in ("railway", "stations"):
        return "yes"
    bringer = brought_by(catalog).get(card.id)
    if bringer is not None:
        return dealt(catalog, catalog.by_id[bringer], players, variant)
    answer: Dealt = "no"
    for group in lane_plan(catalog, players, variant):
        if card.id in group.pool:
            if not group.drawn:
                return "yes"
            answer = "drawn"
    return answer


def deal(catalog: Catalog, players: int, stream: SeededStream) -> tuple[list[list[str]], list[str]]:
    """Hands, and the starting track in deal order: the Railway cards shuffled,
    each hand dealt in turn, the rest left over."""
    deck = [c.id for c in catalog.railway_cards]
    stream.shuffle(deck)
    size = catalog.hands[players].cards
    hands = [deck[i * size : (i + 1) * size] for i in range(players)]
    return hands, deck[players * size :]
