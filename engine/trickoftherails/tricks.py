"""Playing a trick: what follows suit, and who wins."""

from __future__ import annotations

from collections.abc import Sequence

from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.state import Trick


def led_company(catalog: Catalog, trick: Trick) -> str | None:
    return catalog.by_id[trick.plays[0][1]].company if trick.plays else None


def playable(catalog: Catalog, hand: Sequence[str], trick: Trick) -> list[str]:
    """The cards of ``hand`` that may be played now: any to lead; the led
    company's when the hand holds one; otherwise any."""
    led = led_company(catalog, trick)
    following = [c for c in hand if catalog.by_id[c].company == led] if led is not None else []
    return following or list(hand)


def winner(catalog: Catalog, trick: Trick) -> int:
    """The highest number of the led company; no trumps, and no ties, since
    a company holds each number once."""
    led = led_company(catalog, trick)
    best = max((p for p in trick.plays if catalog.by_id[p[1]].company == led), key=lambda p: catalog.by_id[p[1]].number or 0)
    return best[0]
