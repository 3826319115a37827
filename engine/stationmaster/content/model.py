"""Immutable card objects: the only way the engine and generator see content.

Every card keeps an ``origin`` (file and pointer) so a later check can report
a problem at the card's own line; origins take no part in equality.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from engine.content.problems import Origin as Origin
from engine.content.problems import Pointer as Pointer
from engine.content.source import PublishedEdition as PublishedEdition
from engine.content.source import Source as Source

Port = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    """What every card has: an id (its site anchor), a name, where it comes
    from (a published edition, or designed) and a deck count."""

    id: str
    name: str
    source: Source
    count: int
    family: str
    text: str | None = None
    # The Local Operations option the card may only be played in ("draw":
    # after drawing that turn); None: any option that plays a card.
    play_option: Literal["draw"] | None = None
    origin: Origin = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class TrackShape(Card):
    handedness: Literal["none", "left", "right"]
    routes: tuple[tuple[Port, Port], ...]
    label: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OfficeTier(Card):
    upgrades_from: str | None
    ad_tracks: int
    porters: int
    outbound_slots: int
    inbound_slots: int
    control_point: bool
    passenger_facility: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Facility(Card):
    commodity: str
    car_types: tuple[str, ...]
    traffic: Literal["inbound", "outbound", "both"]
    inbound_boxes: int
    outbound_boxes: int
    lockouts: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FacilityModifier(Card):
    hosts: str | tuple[str, ...]
    grant: Literal["inboundBox", "outboundBox", "inboundSlot", "outboundSlot", "porter"]
    effect: str

    @property
    def passenger(self) -> bool:
        """A passenger Modifier is one whose host is an Office."""
        return self.hosts == "office"


@dataclass(frozen=True, slots=True)
class Consist:
    """The most cars of each category a train may take (a maximum, never a minimum)."""

    coach: int = 0
    freight: int = 0

    @property
    def cars(self) -> int:
        return self.coach + self.freight


CarCategory = Literal["coach", "freight"]


@dataclass(frozen=True, slots=True)
class Restriction:
    """A printed train restriction: its words, and the freight car types it
    limits the train to (empty when it limits no type)."""

    words: str
    car_types: tuple[str, ...]
    origin: Origin = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class TrainCard(Card):
    number: str
    service: Literal["timetabled", "extra"]
    speed: Literal["fast", "slow"]
    consist: Consist
    caboose: bool
    restrictions: tuple[str, ...]
    effect: str | None = None
    # The pack's car categories (supplies.yaml) and restriction wording
    # (trains.yaml), attached when the catalog is built so the consist rules
    # can judge a car from the card alone.
    car_categories: Mapping[str, CarCategory] = field(default_factory=dict, compare=False, repr=False)
    restriction_rules: Mapping[str, Restriction] = field(default_factory=dict, compare=False, repr=False)

    def category(self, car_type: str) -> CarCategory:
        """Which consist limit a car of this type counts against."""
        return self.car_categories[car_type]


@dataclass(frozen=True, slots=True, kw_only=True)
class Enhancement(Card):
    placement: Literal["district", "mainline"]
    effect: str
    answers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GradeCut:
    direction: Literal["uphill", "downhill"]
    stages: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MainlineModifier(Card):
    play_on: str | tuple[str, ...]
    effect: str
    requires: str | None = None
    crossing: GradeCut | None = None
    realign: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Maneuver(Card):
    effect: str
    hand_limit_bonus: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class SecondSection(Card):
    effect: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OpponentCard(Card):
    category: Literal["action", "spaceUse"]
    effect: str
    attacks: str | None = None
    answers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TrackSpeed:
    passenger: int
    freight: int


@dataclass(frozen=True, slots=True)
class CrossingRule:
    """How long a Mainline crossing takes (mainline.yaml's ``crossing``)."""

    stages_at_mph: tuple[tuple[int, int], ...]
    slow_train_adds: int
    fewest_stages: int
    origin: Origin = field(compare=False, repr=False)

    def stages_at(self, mph: int) -> int | None:
        """The Stages a card of this speed costs before any addition; None if
        the table does not list the speed."""
        return next((stages for speed, stages in self.stages_at_mph if speed == mph), None)


@dataclass(frozen=True, slots=True, kw_only=True)
class MainlineCard(Card):
    role: Literal["terrain", "divisionPoint"]
    end: Literal["east", "west"] | None = None
    speed_mph: TrackSpeed | None = None
    passing: bool = False
    yard: bool = False
    grade: bool = False
    effect: str | None = None
    # The pack's crossing rule, attached when the catalog is built so a
    # terrain card can be timed from the card alone.
    crossing_rule: CrossingRule | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Effect:
    id: str
    summary: str
    source: Source
    origin: Origin = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class HouseRuleOption:
    value: str | bool
    text: str


@dataclass(frozen=True, slots=True)
class HouseRule:
    id: str
    name: str
    default: str | bool
    options: tuple[HouseRuleOption, ...]
    text: str
    source: Source
    # Where the default comes from, when the rule's edition does not name one.
    default_source: Source | None
    origin: Origin = field(compare=False, repr=False)

    def allows(self, value: str | bool) -> bool:
        return any(o.value == value and type(o.value) is type(value) for o in self.options)


@dataclass(frozen=True, slots=True)
class Edition:
    version: str
    date: str | None


@dataclass(frozen=True, slots=True)
class TableConstants:
    hand_limit: int
    departments: int
    stages_per_day: int
    timetable_slots: int
    die_sides: int
    crew_tray_pieces: int
    cars_per_track: int
    game_days: int
    switch_moves: int


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points per scoring event (game.yaml's ``scoring``)."""

    load_worked: int
    load_delivered: int
    passengers_set_down: int
    paid_stop: int


@dataclass(frozen=True, slots=True)
class SetupSizes:
    department_cards: int


@dataclass(frozen=True, slots=True)
class TimetableRule:
    odd_numbers_head: Literal["east", "west"]

    def heading(self, number: str) -> Literal["east", "west"]:
        """The way a timetabled train with this (plain) number runs."""
        if int(number) % 2 == 1:
            return self.odd_numbers_head
        return "west" if self.odd_numbers_head == "east" else "east"


@dataclass(frozen=True, slots=True)
class GameInfo:
    title: str
    home_deck: Edition
    mainline: Edition
    table: TableConstants
    scoring: Scoring
    setup: SetupSizes
    timetable: TimetableRule
    # The published editions a ``source`` may name, by id.
    source_editions: Mapping[str, PublishedEdition]


@dataclass(frozen=True, slots=True)
class GameWords:
    """Words that explain the game and change nothing in play (game.yaml's
    ``scoringWords`` and ``glossary``): one source for the site and the
    terminal game alike."""

    # What each scoring event is, by its ``scoring`` key.
    scoring: Mapping[str, ScoringWords] = field(default_factory=dict)
    glossary: tuple[GlossaryEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoringWords:
    """A scoring event in words: what earns, and whose district scores."""

    earns: str
    to: str


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """One of the game's own words (``term``, and ``also`` other words that
    mean it is in use) explained in plain ``words``."""

    term: str
    words: str
    also: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FacilityStart:
    laborers: int
    pipeline: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SourcedValue:
    """A rule value that is not a card (a table constant, a scoring, setup or
    timetable value, a crossing value, a train restriction, a supply, an
    effect, a house rule or its default) with where it comes from. ``kind`` says
    what sort of value it is, ``key`` which one; ``origin`` points at the
    ``source`` written for it."""

    kind: str
    key: str
    source: Source
    origin: Origin = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Supplies:
    whistle_post_office: str
    whistle_posts: int
    limits_signs: int
    crew_trays: int
    cabooses: int
    cars: tuple[tuple[str, int], ...]
    car_categories: Mapping[str, CarCategory]


CardT = TypeVar("CardT", bound=Card)


@dataclass(frozen=True, slots=True)
class Catalog:
    """Everything in ``content/``, checked, in file order."""

    game: GameInfo
    supplies: Supplies
    facility_start: FacilityStart
    house_rules: tuple[HouseRule, ...]
    effects: Mapping[str, Effect]
    restrictions: Mapping[str, Restriction]
    crossing: CrossingRule | None
    cards: tuple[Card, ...]
    by_id: Mapping[str, Card]
    fingerprint: str
    # Every rule value outside the cards, with its source, in file order.
    value_sources: tuple[SourcedValue, ...] = ()
    words: GameWords = GameWords()

    def family(self, name: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.family == name)

    def of_type(self, kind: type[CardT]) -> tuple[CardT, ...]:
        return tuple(c for c in self.cards if isinstance(c, kind))

    def house_rule(self, rule_id: str) -> HouseRule:
        for rule in self.house_rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)
