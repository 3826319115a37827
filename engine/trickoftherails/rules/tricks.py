"""Playing a trick: what follows suit, and who wins."""

from __future__ import annotations

from collections.abc import Sequence

from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.state import Trick


def led_company(catalog: Catalog, trick: Trick) -> str | None:
    return catalog.company_of[trick.plays[0][1]] if trick.plays else None


def playable(catalog: Catalog, hand: Sequence[str], trick: Trick) -> list[str]:
    """The cards of ``hand`` that may be played now: any to lead; the led
    company's when the hand holds one; otherwise any."""
    led = led_company(catalog, trick)
    if led is None:
        return list(hand)
    company_of = catalog.company_of
    return [c for c in hand if company_of[c] == led] or list(hand)


def follows(catalog: Catalog, hand: Sequence[str], trick: Trick, card: str) -> bool:
    """Whether playing ``card`` from ``hand`` keeps the follow-suit rule (the
    question ``playable`` answers for every card, asked of one)."""
    led = led_company(catalog, trick)
    if led is None:
        return True
    company_of = catalog.company_of
    return company_of[card] == led or all(company_of[c] != led for c in hand)


def winner(catalog: Catalog, trick: Trick) -> int:
    """The highest number of the led company; no trumps, and no ties, since
    a company holds each number once."""
    led = led_company(catalog, trick)
    best = max((p for p in trick.plays if catalog.by_id[p[1]].company == led), key=lambda p: catalog.by_id[p[1]].number or 0)
    return best[0]
