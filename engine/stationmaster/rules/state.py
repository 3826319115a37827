"""The game state: plain data that serialises to JSON.

Only the Game mutates it, and only through ``Game.apply``; everything a rule
needs to know is here, so two games with equal states behave identically.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from engine.stationmaster.rules.geometry import key

OFFICE_SQUARE = key(0, 0)  # every district's Office stands here

Heading = Literal["east", "west"]


@dataclass
class Car:
    type: str
    loaded: bool
    shipper: int | None = None  # the district that loaded it, paid when it reaches a Division Point
    commodity: str | None = None  # what an industry loaded it with; None for loads from off the map


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
    held: int = 0  # Mainline Phases it must still stand (Red Flag, or held at an Office)
    moved: bool = True  # moved during the last Mainline Phase (for trains that pay for stopping)
    sequence: int = 0  # order of entry onto its current card, to tell leader from follower
    crew_tray: bool = True  # holds a Crew Tray; False while it waits without one (it makes no move then)


@dataclass
class MainlineSlot:
    """One position of the Division, west to east: a Division Point, a terrain
    card or a district's Office."""

    kind: Literal["divisionPoint", "terrain", "office"]
    card: str  # the card id it shows now; "" for an Office slot, whose card is its district's tier (GameState.slot_card)
    player: int | None = None  # the district, for an Office slot
    printed: str | None = None  # the terrain card dealt here, if Realignment changed it
    uphill: Heading | None = None  # for a graded card, once chosen
    modifiers: list[str] = field(default_factory=list)  # grade cards and Realignment played here
    abs_signals: bool = False
    yard: list[Car] = field(default_factory=list)


@dataclass
class Square:
    """One square of a district: what card stands there and what is on it."""

    card: str
    kind: Literal["track", "facility", "office", "modifier"]
    rotation: int = 0  # 0 or 180: a card turns end for end, never over
    cars: list[Car] = field(default_factory=list)
    enhancement: str | None = None
    caboose_of: str | None = None  # a train's caboose set out here
    laborers: int = 0
    pipeline: list[int] = field(default_factory=list)  # loads in the MEN, AT, WORK boxes
    waiting: int = 0  # loads made and waiting for a car (outbound)
    modifies: str | None = None  # for a Modifier: the square key of its host


@dataclass
class District:
    """A player's district: squares keyed "x,y"; row 0 is the Running Track,
    which runs from the west Limits sign to the east one."""

    player: int
    squares: dict[str, Square] = field(default_factory=dict)
    west_limit: int = -1
    east_limit: int = 1
    paid_stops: list[str] = field(default_factory=list)  # trains already paid for stopping here
    revision: int = 0  # bumped whenever a card is placed, so derived views can be cached


@dataclass
class ExtraOrder:
    card: str
    player: int
    start: int
    heading: Heading
    load: tuple[str, ...] | None = None  # the cars the player chose, front to back; None: the yard's choice


@dataclass
class TurnState:
    """What the current player has done this turn."""

    drawn: bool = False
    played: bool = False
    discarded: bool = False
    switched: bool = False


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
    districts: list[District] = field(default_factory=list)
    moves_left: int = 0  # switching moves left in this turn's Switch option
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
    attack: AttackInPlay | None = None  # the opponent-directed card last played: its response window, open or closed
    lasting: list[Lasting] = field(default_factory=list)  # what attacks left in force

    def office(self, player: int) -> str:
        """The Office tier of ``player``'s district. It is kept in one place,
        the district's (0, 0) square, which an upgrade replaces; the Mainline
        shows it through ``slot_card``."""
        return self.districts[player].squares[OFFICE_SQUARE].card

    def set_out_caboose(self, train_id: str) -> Square | None:
        """The square where ``train_id`` has set its caboose out, if any."""
        for district in self.districts:
            for square in district.squares.values():
                if square.caboose_of == train_id:
                    return square
        return None

    def slot_card(self, slot: MainlineSlot) -> str:
        """The card a Mainline position shows: an Office slot shows its
        district's Office tier."""
        if slot.kind == "office" and slot.player is not None:
            return self.office(slot.player)
        return slot.card

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class AttackInPlay:
    """An opponent-directed card played at a rival, as the attacker aimed it.

    While ``waiting`` is not empty its response window is open: the first
    player listed answers with a held defence or declines, and nothing else
    happens until the list is empty (the attack then resolves) or someone
    answers (it then does nothing). Once closed it stays here until the next
    attack, so an answer that comes too late can be told why."""

    card: str
    attacker: int
    rival: int | None = None  # the player aimed at; None: every rival (a Mainline card)
    x: int | None = None
    y: int | None = None
    train: str | None = None
    slot: int | None = None
    waiting: list[int] = field(default_factory=list)  # who still answers, in order; the first is on the spot
    answered_by: int | None = None
    answer: str | None = None  # the defence card that answered it


@dataclass
class Lasting:
    """What an attack left in force on a rival's square or on a Mainline
    position, until it lifts (``engine.stationmaster.rules.lasting``)."""

    card: str  # the attack card, whose handler says what it does
    attacker: int
    player: int | None  # the district it acts on; None: the Mainline
    square: str | None = None  # a square of that district ("x,y")
    slot: int | None = None  # a Mainline position
    left: int | None = None  # the district player's turns (on the Mainline: Mainline Phases) still to run; None: for good
