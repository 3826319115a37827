"""Small pieces of the Station Master screen: cards, trains, squares and
Mainline positions by name, and the grid's short labels."""

from __future__ import annotations

from collections.abc import Sequence

from command.words import counted
from engine.stationmaster.content.model import TrackShape
from engine.stationmaster.rules.consist import car_label
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car, Square

# Track cards carry their own grid label (track.yaml); any other card is
# abbreviated from its name to this width (see ``short_label``).
LABEL_WIDTH = 9


# How a card's family is named in the hand.
FAMILY_WORDS = {
    "track": "track",
    "facilities": "facility",
    "modifiers": "facility modifier",
    "enhancements": "enhancement",
    "maneuvers": "maneuver",
    "mainline-modifiers": "Mainline modifier",
    "offices": "Office upgrade",
    "opponent": "played against a rival",
}


# What a Facility Modifier's grant adds to the card it stands beside.
GRANT_WORDS = {
    "inboundBox": "an inbound box",
    "outboundBox": "an outbound box",
    "inboundSlot": "an inbound slot",
    "outboundSlot": "an outbound slot",
    "porter": "a Porter",
}


TRAFFIC_WORDS = {"inbound": "receives", "outbound": "ships", "both": "ships and receives"}


def card_name(game: Game, card_id: str | None) -> str:
    """A card's printed name; an unknown id is shown as itself, never raises."""
    if card_id is None:
        return "nothing"
    card = game.catalog.by_id.get(card_id)
    return card.name if card is not None else repr(card_id)


def load_words(load: Sequence[str]) -> str:
    """An Extra's chosen load, as the text view says it."""
    return f", taking {', '.join(load)}" if load else ", leaving light"


def a_or_an(words: str) -> str:
    """``words`` with its indefinite article: 'an empty boxcar', 'a loaded reefer'."""
    return f"{'an' if words[:1].lower() in 'aeiou' else 'a'} {words}"


def describe_cars(cars: Sequence[Car]) -> str:
    if not cars:
        return "no cars"
    return f"{counted(len(cars), 'car')} ({', '.join(car_label(c) for c in cars)})"


def or_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def and_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def slot_name(game: Game, index: int | None) -> str:
    """A Mainline position by what stands there: 'Heavy Grade [3]'."""
    mainline = game.state.mainline
    if index is None or not 0 <= index < len(mainline):
        return f"Mainline position {index}"
    slot = mainline[index]
    if slot.kind == "office":
        return f"the Office of district {slot.player} [{index}]"
    return f"{card_name(game, slot.card)} [{index}]"


def train_number(game: Game, train_id: str | None) -> int | None:
    """A train's number in the Mainline's list of trains (from 1), which the
    keys h1 and r1 name; None for a train not on the Mainline."""
    for n, train in enumerate(game.state.trains, start=1):
        if train.id == train_id:
            return n
    return None


def train_label(game: Game, train_id: str | None) -> str:
    number = train_number(game, train_id)
    if number is None:
        return repr(train_id)
    return f"{card_name(game, game.state.trains[number - 1].card)} (train {number})"


def department_top(game: Game, department: int) -> str:
    piles = game.state.departments
    if not 1 <= department <= len(piles):
        return "no such Department"
    pile = piles[department - 1]
    return card_name(game, pile[-1]) if pile else "empty"


def short_label(game: Game, square: Square) -> str:
    """A square's card in at most nine characters, for the grid: a track
    card's own label, else its name, cut at a word where it must be."""
    card = game.catalog.by_id.get(square.card)
    label = card.label if isinstance(card, TrackShape) else None
    if label is None:
        name = card_name(game, square.card)
        name = name.replace(" (left)", "-L").replace(" (right)", "-R")
        label = _abbreviate(name, LABEL_WIDTH)
    return label


def _abbreviate(name: str, width: int) -> str:
    """``name`` in at most ``width`` characters: whole words while they fit,
    then the next word cut short with a full stop if two or more of its
    letters fit ('Power Pl.'), never a stop after a space."""
    if len(name) <= width:
        return name
    shown = ""
    for word in name.split():
        joined = f"{shown} {word}" if shown else word
        if len(joined) <= width:
            shown = joined
            continue
        room = width - len(shown) - (1 if shown else 0) - 1
        if room >= 2 or not shown:
            cut = word[: max(room, 1)].rstrip(" .'")
            shown = f"{shown} {cut}." if shown else f"{cut}."
        break
    return shown


def grid_cell(game: Game, square: Square) -> str:
    text = short_label(game, square)
    if square.rotation == 180:
        text += "~"
    if square.enhancement:
        text += "*"
    if square.cars:
        text += f" {len(square.cars)}c"
    if square.caboose_of:
        text += " +cab"
    return text


def car_types(types: Sequence[str]) -> str:
    return or_list([f"{t}s" for t in types])
