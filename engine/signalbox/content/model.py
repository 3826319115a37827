"""Signal Box's catalog: its one card family and the player count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.content.problems import Origin
from engine.content.source import Source


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    family: str
    source: Source
    origin: Origin
    count: int = 1


@dataclass(frozen=True)
class Catalog:
    title: str
    players: int
    editions: frozenset[str]
    cards: Sequence[Card]
    by_id: Mapping[str, Card]
    fingerprint: str

    @property
    def pile(self) -> int:
        """How many lamps a game starts with: every copy in the box."""
        return sum(card.count for card in self.cards)
