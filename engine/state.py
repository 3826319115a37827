"""The game state: plain data that serialises to JSON.

Only the Game mutates it, and only through ``Game.apply``; everything a rule
needs to know is here, so two games with equal states behave identically.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Heading = Literal["east", "west"]


@dataclass
class Car:
    type: str
    loaded: bool


@dataclass
class Train:
    """A train on the Mainline (or waiting in a yard to leave)."""

    id: str
    card: str
    player: int | None  # who played it (Extras); None for timetabled trains
    heading: Heading
    position: int  # index into GameState.mainline
    cars: list[Car]
    caboose: bool
    remaining: int = 0  # Stages left on the terrain card it is crossing; 0 = standing at a node
    held: int = 0  # Mainline Phases it must still stand (Red Flag)
    sequence: int = 0  # order of entry onto its current card, to tell leader from follower


@dataclass
class MainlineSlot:
    """One position of the Division, west to east: a Division Point, a terrain
    card or a district's Office."""

    kind: Literal["divisionPoint", "terrain", "office"]
    card: str  # the card id it shows now (an Office slot shows its district's tier)
    player: int | None = None  # the district, for an Office slot
    printed: str | None = None  # the terrain card dealt here, if Realignment changed it
    uphill: Heading | None = None  # for a graded card, once chosen
    modifiers: list[str] = field(default_factory=list)  # grade cards and Realignment played here
    abs_signals: bool = False
    yard: list[Car] = field(default_factory=list)


@dataclass
class ExtraOrder:
    card: str
    player: int
    start: int
    heading: Heading


@dataclass
class TurnState:
    """What the current player has done this turn."""

    drawn: bool = False
    played: bool = False
    discarded: bool = False


@dataclass
class GameState:
    players: int
    day: int = 1
    stage: int = 1
    phase: Literal["setup", "local", "over"] = "setup"
    current: int = 0
    turn: TurnState = field(default_factory=TurnState)
    deck: list[str] = field(default_factory=list)  # top of the deck is the end of the list
    departments: list[list[str]] = field(default_factory=list)
    salvage: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    offices: list[str] = field(default_factory=list)  # each district's Office tier
    office_cards: list[list[str]] = field(default_factory=list)  # upgrade cards played, per district
    timetable: list[str | None] = field(default_factory=list)  # slot i runs at Stage i + 1
    extras_queue: list[ExtraOrder] = field(default_factory=list)
    second_sections: list[str] = field(default_factory=list)  # trains ordered a Second Section this Stage
    trains: list[Train] = field(default_factory=list)
    mainline: list[MainlineSlot] = field(default_factory=list)
    pending_grades: list[int] = field(default_factory=list)  # slots still needing an uphill choice
    crew_trays_free: int = 0
    cabooses_free: int = 0
    scores: list[int] = field(default_factory=list)
    serial: int = 0
    log: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
