"""Trick of the Rails' catalog: every card and rule value the pack's YAML
holds, as typed records. Nothing here knows a rule; the engine reads these."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from engine.content.problems import Origin
from engine.content.source import Source

Family = Literal["railway", "stations", "cities", "exchanges", "reservations", "locomotives"]
# What a kind of card is called in prose, by family.
KIND_NAMES: Mapping[str, str] = {
    "railway": "Railway card",
    "stations": "Station",
    "cities": "City",
    "exchanges": "Exchange",
    "reservations": "Reservation",
    "locomotives": "Locomotive",
}


@dataclass(frozen=True, slots=True)
class Company:
    id: str
    name: str
    colour: str
    source: Source
    origin: Origin


@dataclass(frozen=True, slots=True)
class Card:
    """Any card of the game. Fields a family does not use stay at their defaults:
    ``company`` (railway, station, exchange), ``number`` (railway),
    ``station_value`` (railway, station, city), ``reach``/``cost``/``brings``
    (locomotive), ``count`` (copies in the box, for the engine only)."""

    id: str
    name: str
    family: str
    source: Source
    origin: Origin
    effect: str | None = None
    company: str | None = None
    number: int | None = None
    station_value: int | None = None
    reach: int | None = None  # None with a cost: the whole railway (printed ∞)
    cost: int | None = None
    brings: str | None = None
    count: int = 1

    @property
    def is_locomotive(self) -> bool:
        return self.family == "locomotives"


@dataclass(frozen=True, slots=True)
class Effect:
    id: str
    summary: str
    source: Source
    origin: Origin


@dataclass(frozen=True, slots=True)
class Edition:
    """A source the content cites: its id, what it is, and the project
    document that records it."""

    id: str
    title: str
    version: str
    document: str
    date: str | None = None


@dataclass(frozen=True, slots=True)
class HandSize:
    players: int
    cards: int
    source: Source
    origin: Origin


@dataclass(frozen=True, slots=True)
class Layout:
    """The Trick Lane for one player count: slot kinds left to right."""

    players: int
    basic: tuple[str, ...]
    expert: tuple[str, ...]
    source: Source
    origin: Origin


@dataclass(frozen=True, slots=True)
class Variant:
    id: str
    name: str
    summary: str
    players: tuple[int, ...] | None
    source: Source
    origin: Origin


@dataclass(frozen=True, slots=True)
class Publication:
    """One edition of the game: when, by whom, and the sources that say so
    (``note`` where they disagree with another)."""

    year: int
    publisher: str
    edition: str
    sources: tuple[str, ...]
    note: str | None
    origin: Origin


@dataclass(frozen=True, slots=True)
class SourcedValue:
    """A rule value outside any card, and where it comes from (the
    open-points page lists the designed ones)."""

    kind: str
    key: str
    value: str
    source: Source
    origin: Origin


@dataclass(frozen=True)
class Catalog:
    title: str
    editions: Mapping[str, Edition]
    companies: Sequence[Company]
    cards: Sequence[Card]
    by_id: Mapping[str, Card]
    effects: Mapping[str, Effect]
    hands: Mapping[int, HandSize]
    layouts: Mapping[int, Layout]
    operating_pool: tuple[str, ...]
    variants: Mapping[str, Variant]
    share_floor: int
    ties_share_the_win: bool  # players tied on the top score share the win
    first_leader: str  # how the first leader is chosen ('random': from the seeded stream)
    values: Sequence[SourcedValue]
    fingerprint: str
    published: tuple[Publication, ...] = ()  # the game's editions, oldest first

    @property
    def player_counts(self) -> list[int]:
        return sorted(self.hands)

    def company(self, company_id: str) -> Company:
        return self.companies_by_id[company_id]

    @cached_property
    def companies_by_id(self) -> Mapping[str, Company]:
        return {c.id: c for c in self.companies}

    @cached_property
    def derived(self) -> dict[str, Any]:
        """Answers the engine works out from the catalog once and keeps (a
        lane plan per player count, say); never part of the content."""
        return {}

    @cached_property
    def card_order(self) -> Mapping[str, tuple[int, int]]:
        """Sort key of each card: the catalog's order (company by company, number by number)."""
        return {c.id: (i, c.number or 0) for i, c in enumerate(self.cards)}

    @cached_property
    def company_of(self) -> Mapping[str, str | None]:
        """Each card's company (None for a card of no company), looked up on every play."""
        return {c.id: c.company for c in self.cards}

    def of_family(self, family: str) -> list[Card]:
        return [c for c in self.cards if c.family == family]

    @property
    def railway_cards(self) -> list[Card]:
        return self.of_family("railway")
