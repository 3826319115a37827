"""The actions of Trick of the Rails, as small immutable values that save as
JSON (``{"kind": "play", ...}``): a game is its seed plus its actions.

Playing a card to the trick is one action; an operating trick then asks its
players for placements, each an action of its own, so a person, a bot and a
replay all go through ``check`` and ``apply`` alike."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from engine.errors import InvalidActionError

ENDS = ("left", "right")  # the ends of a railway, as the table lays it out (its Station at the left to begin with)


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = ""
    player: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **{k: v for k, v in asdict(self).items() if v is not None}}

    def __str__(self) -> str:
        parts = [f"{k}={v}" for k, v in self.to_json().items() if k != "kind"]
        return f"{self.kind}({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card from the hand to the trick (the lead, or a follow)."""

    kind: ClassVar[str] = "play"
    card: str = ""


@dataclass(frozen=True, slots=True)
class PlaceCity(Action):
    """The winner of a City trick adds the City to an end of a company's railway."""

    kind: ClassVar[str] = "placeCity"
    company: str = ""
    end: str = "right"


@dataclass(frozen=True, slots=True)
class PlaceLocomotive(Action):
    """The winner of a Locomotive trick puts it at the head of a railway without one."""

    kind: ClassVar[str] = "placeLocomotive"
    company: str = ""


@dataclass(frozen=True, slots=True)
class LayTrack(Action):
    """After an operating trick, a player lays the card they played on an end
    of that card's own company's railway."""

    kind: ClassVar[str] = "layTrack"
    end: str = "right"


KINDS: dict[str, type[Action]] = {cls.kind: cls for cls in (Play, PlaceCity, PlaceLocomotive, LayTrack)}


def from_json(data: object) -> Action:
    """An action from its JSON form, or InvalidActionError naming what is wrong."""
    if not isinstance(data, dict):
        raise InvalidActionError(f"an action is a JSON object, not {data!r:.60}")
    kind = data.get("kind")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidActionError(f"unknown action kind {kind!r}; the kinds are: {', '.join(KINDS)}")
    names = {f.name: f for f in fields(cls)}
    extra = sorted(set(data) - set(names) - {"kind"})
    if extra:
        raise InvalidActionError(f"{kind}: unknown field(s) {', '.join(extra)}")
    if "player" not in data:
        raise InvalidActionError(f"{kind}: 'player' is missing")
    values: dict[str, Any] = {}
    for name in names:
        if name not in data:
            continue
        value = data[name]
        want = int if name == "player" else str
        if not isinstance(value, want) or isinstance(value, bool):
            raise InvalidActionError(f"{kind}: '{name}' must be {'a whole number' if want is int else 'text'}, not {value!r:.40}")
        values[name] = value
    return cls(**values)
