"""The actions a player can take, as small immutable values.

Each action serialises to a JSON object (``{"kind": "draw", ...}``) so a game
saves as its seed plus its list of actions. ``from_json`` refuses anything
malformed with an InvalidActionError that names the offending input.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from engine.errors import InvalidActionError


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = ""
    player: int

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in asdict(self).items() if v is not None}
        for key, value in data.items():
            if isinstance(value, tuple):
                data[key] = list(value)
        return {"kind": self.kind, **data}

    def __str__(self) -> str:
        parts = [f"{k}={v}" for k, v in self.to_json().items() if k not in ("kind",)]
        return f"{self.kind}({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Local Operations, first option: take the deck's top card, or a Department's."""

    kind: ClassVar[str] = "draw"
    source: str = "deck"  # "deck" or a Department number, counted from "1"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card from hand; the fields a card needs depend on the card."""

    kind: ClassVar[str] = "play"
    card: str = ""
    slot: int | None = None  # a Mainline position: where the card goes, or where an Extra starts
    heading: str | None = None  # "east" or "west": which way an Extra runs from its start
    train: str | None = None  # the train a Second Section follows
    x: int | None = None  # a district square, for cards built in a district
    y: int | None = None
    rotation: int | None = None  # 0 or 180, for track
    load: tuple[str, ...] | None = None  # an Extra's cars, front to back ("loaded boxcar", "empty coach"); None: the yard makes it up


@dataclass(frozen=True, slots=True)
class Discard(Action):
    kind: ClassVar[str] = "discard"
    card: str = ""
    department: int = 1


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    kind: ClassVar[str] = "endTurn"


@dataclass(frozen=True, slots=True)
class ChooseGrade(Action):
    """The placing player's choice of which way a Heavy Grade climbs."""

    kind: ClassVar[str] = "chooseGrade"
    slot: int = 0
    uphill: str = "east"


@dataclass(frozen=True, slots=True)
class RedFlag(Action):
    """Spend a held Red Flag to hold a train where it stands for one Mainline Phase."""

    kind: ClassVar[str] = "redFlag"
    train: str = ""


@dataclass(frozen=True, slots=True)
class SortCars(Action):
    """Re-order a train's cars where a card allows it (the Interchange's yard)."""

    kind: ClassVar[str] = "sortCars"
    train: str = ""
    order: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Spot(Action):
    """Switching: run a train standing at your Office to a square and set out
    its rearmost ``cars`` there (with ``caboose``, its caboose too)."""

    kind: ClassVar[str] = "spot"
    train: str = ""
    x: int = 0
    y: int = 0
    cars: int = 1
    caboose: bool = False


@dataclass(frozen=True, slots=True)
class Pull(Action):
    """Switching: run a train standing at your Office to a square and couple
    everything standing there (coupling is mandatory)."""

    kind: ClassVar[str] = "pull"
    train: str = ""
    x: int = 0
    y: int = 0


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """Keep an Extra you played standing at the Office it is at through the
    next Mainline Phase (how a train that pays for stopping earns)."""

    kind: ClassVar[str] = "hold"
    train: str = ""


@dataclass(frozen=True, slots=True)
class FlyingSwitch(Action):
    """Spend a Flying Switch: a train standing at your Office cuts off its
    rearmost car on the move, and the car rolls down the other leg of a
    turnout the train has just run through.

    The car comes to rest on the square (x, y)."""

    kind: ClassVar[str] = "flyingSwitch"
    train: str = ""
    x: int = 0
    y: int = 0


ACTION_TYPES: dict[str, type[Action]] = {cls.kind: cls for cls in (Draw, Play, Discard, EndTurn, ChooseGrade, RedFlag, SortCars, Spot, Pull, Hold, FlyingSwitch)}


def from_json(data: object) -> Action:
    """An action from its JSON form, or InvalidActionError naming what is wrong."""
    if not isinstance(data, dict):
        raise InvalidActionError(f"an action is a JSON object, not {type(data).__name__}: {data!r:.80}")
    kind = data.get("kind")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidActionError(f"unknown action kind {kind!r}; known: {', '.join(ACTION_TYPES)}")
    allowed = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "kind":
            continue
        if key not in allowed:
            raise InvalidActionError(f"{kind}: unknown field {key!r}; fields: {', '.join(allowed)}")
        values[key] = value
    if "player" not in values:
        raise InvalidActionError(f"{kind}: the field 'player' is required")
    for key, value in values.items():
        expected = _FIELD_TYPES.get(key)
        if expected is not None and not _is(value, expected):
            raise InvalidActionError(f"{kind}: field {key!r} must be {expected}, not {value!r:.40}")
    for name in ("order", "load"):
        if isinstance(values.get(name), list):
            values[name] = tuple(values[name])
    return cls(**values)


_FIELD_TYPES = {
    "player": "int",
    "source": "str",
    "card": "str",
    "slot": "int",
    "heading": "str",
    "train": "str",
    "department": "int",
    "uphill": "str",
    "order": "list[int]",
    "load": "list[str]",
    "x": "int",
    "y": "int",
    "rotation": "int",
    "cars": "int",
    "caboose": "bool",
}


def _is(value: object, expected: str) -> bool:
    if expected == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if expected == "str":
        return isinstance(value, str) and len(value) <= 100
    if expected == "bool":
        return isinstance(value, bool)
    if expected == "list[str]":
        return isinstance(value, list) and len(value) <= 16 and all(isinstance(v, str) and len(v) <= 40 for v in value)
    if expected == "list[int]":
        return isinstance(value, list) and len(value) <= 16 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    return False


# -- opponent-directed cards ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Play an opponent-directed card at a rival (the turn's one play). The
    attacker names the target as the card's ``attacks`` says: ``rival`` is
    the player aimed at (left out for a Mainline card, which every rival may
    defend); then a square (x, y) of that rival's district, a train, or a
    Mainline position (slot)."""

    kind: ClassVar[str] = "attack"
    card: str = ""
    rival: int | None = None
    x: int | None = None
    y: int | None = None
    train: str | None = None
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class Answer(Action):
    """In an attack's response window: answer it with a defence card held in
    hand; the attack then does nothing."""

    kind: ClassVar[str] = "answer"
    card: str = ""


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """In an attack's response window: let the attack stand (the next player
    it is aimed at is asked, or it resolves)."""

    kind: ClassVar[str] = "decline"


ACTION_TYPES.update({cls.kind: cls for cls in (Attack, Answer, Decline)})
_FIELD_TYPES["rival"] = "int"
