"""What the leftmost lane card makes of the trick it decides, read from the
card itself: a card with a company is a share prize (a stock trick), a
Locomotive makes a Locomotive trick, a card with a station value (a City)
a City trick; a card with none of these (a Reservation) holds a stock
trick's place for a Railway card to come."""

from __future__ import annotations

from typing import Literal

from engine.trickoftherails.content.model import Card

TrickKind = Literal["stock", "city", "locomotive"]
TRICK_KINDS: tuple[TrickKind, ...] = ("stock", "city", "locomotive")
KIND_WORDS: dict[TrickKind, str] = {"stock": "stock trick", "city": "City trick", "locomotive": "Locomotive trick"}


def trick_kind(card: Card) -> TrickKind:
    if card.is_locomotive:
        return "locomotive"
    if card.company is None and card.station_value is not None:
        return "city"
    return "stock"
