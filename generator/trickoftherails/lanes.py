"""The Trick Lane as the rules site shows it: for one player count and lane
variant, what each slot holds, whether setup draws it, and what kind of trick
it makes. Everything comes from ``setup.lane_plan`` (the plan the lane
builder follows) and the handler registry, so a picture cannot show a lane
the engine does not build."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.trickoftherails.content.model import KIND_NAMES, Card, Catalog
from engine.trickoftherails.effects import REGISTRY, load_handlers
from engine.trickoftherails.rules.events import LANE_CARD_WON, WINNER_CARD_RESERVED
from engine.trickoftherails.rules.setup import SlotGroup, lane_plan
from engine.trickoftherails.rules.stock import stock_trick

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_PRINTED = re.compile(r"\[([^\]]+)\]")


def number_word(n: int) -> str:
    """A small count in words, as prose writes it."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def plural(word: str, n: int) -> str:
    if n == 1:
        return word
    return word[:-1] + "ies" if word.endswith("y") else word + "s"


def makes_stock_trick(card: Card) -> bool:
    """Whether the trick this lane card decides is a stock trick: its handler
    is the stock trick's, or it is a placeholder a winning card replaces (a
    share prize by the time it comes up)."""
    load_handlers()
    if REGISTRY.get_handler(WINNER_CARD_RESERVED, card.effect) is not None:
        return True
    handler = REGISTRY.get(card.effect or "")
    subscription = handler.subscriptions.get(LANE_CARD_WON.name) if handler is not None else None
    return subscription is not None and subscription.fn is stock_trick


def printed_mark(card: Card) -> str:
    """What a card prints big (a Locomotive's ``[3]``), from its name; its
    name when it prints none."""
    found = _PRINTED.search(card.name)
    return f"[{found.group(1)}]" if found else card.name


@dataclass(frozen=True)
class SlotGroupView:
    """Slots filled from one pool, described for a reader."""

    slots: tuple[int, ...]  # 0-based positions, left to right
    cards: tuple[Card, ...]  # the different cards the pool holds, in catalog order
    copies: int  # cards in the pool (identical copies counted)
    stock: bool
    drawn: bool  # setup picks among more different cards than there are slots
    shuffled: bool  # several different cards share these slots: where each lands is chance
    follower_of: dict[str, Card]  # a card of the pool -> the card it brings into play

    @property
    def kind(self) -> str:
        """The kind of card these slots hold: ``City or Locomotive`` for a mixed pool."""
        families = [f for f in KIND_NAMES if any(c.family == f for c in self.cards)]
        return " or ".join(KIND_NAMES[f] for f in families)

    @property
    def mark(self) -> str:
        """The printed mark of a slot that always holds the same card (a Locomotive), else empty."""
        if len(self.cards) == 1 and self.cards[0].is_locomotive:
            return printed_mark(self.cards[0])
        return ""

    @property
    def note(self) -> str:
        """One word for the picture: how setup fills the slot."""
        if self.drawn:
            return "drawn"
        return "shuffled" if self.shuffled else ""

    @property
    def slots_text(self) -> str:
        numbers = [str(i + 1) for i in self.slots]
        if len(numbers) == 1:
            return f"Slot {numbers[0]}"
        return f"Slots {', '.join(numbers[:-1])} and {numbers[-1]}"

    @property
    def summary(self) -> str:
        """How setup fills slots from a pool of different cards, in words
        (counts allowed: this is the lane); empty for a single card."""
        kind, slots, different = self.kind, len(self.slots), len(self.cards)
        if different == 1:
            return ""
        label = "cards of the operating pool" if " or " in kind else plural(kind, different)
        if self.drawn:
            return f"{number_word(slots)} of the {number_word(different)} {label}, drawn at random; the others stay out of the game"
        return f"all {number_word(different)} {label}, shuffled into these slots"

    @property
    def copies_note(self) -> str:
        """For a pool of identical copies: how many of them the lane uses."""
        if len(self.cards) != 1 or self.copies == 1:
            return ""
        slots = len(self.slots)
        if self.copies == slots:
            return f"all {number_word(self.copies)} in the box"
        return f"{number_word(slots)} of the {number_word(self.copies)} in the box; the others stay out of the game"

    @property
    def brought(self) -> tuple[tuple[Card, Card], ...]:
        """Each card of the pool that brings another into play, with that card."""
        return tuple((card, self.follower_of[card.id]) for card in self.cards if card.id in self.follower_of)

    @property
    def follower(self) -> Card | None:
        """The card that comes with a slot's only card, if it brings one."""
        return self.brought[0][1] if len(self.cards) == 1 and self.brought else None


def trick_word(stock: bool) -> str:
    return "stock" if stock else "operating"


def lane_groups(catalog: Catalog, players: int, variant: str) -> list[SlotGroupView]:
    """The lane's slot groups, in the order their first slot comes."""
    views = [_view(catalog, group) for group in lane_plan(catalog, players, variant)]
    return sorted(views, key=lambda view: view.slots[0])


def _view(catalog: Catalog, group: SlotGroup) -> SlotGroupView:
    different = tuple(dict.fromkeys(group.pool))
    cards = tuple(catalog.by_id[c] for c in different)
    stock = {makes_stock_trick(card) for card in cards}
    assert len(stock) == 1, "a pool holds cards of one kind of trick"
    return SlotGroupView(
        slots=group.slots,
        cards=cards,
        copies=len(group.pool),
        stock=stock.pop(),
        drawn=len(cards) > len(group.slots),
        shuffled=group.shuffled and len(cards) > 1,
        follower_of={card.id: catalog.by_id[card.brings] for card in cards if card.brings},
    )


def slot_count(groups: list[SlotGroupView]) -> int:
    return sum(len(g.slots) for g in groups)
