"""Input that names nothing real, refused as InvalidActionError before any
rule is asked: an unknown card, a square or slot off the board, a word not
in the list, a load naming no car."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.errors import InvalidActionError
from engine.stationmaster.rules.actions import Action, Discard, Draw, Play
from engine.stationmaster.rules.consist import parse_car
from engine.stationmaster.rules.state import Car, Heading

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext

HEADINGS: tuple[Heading, ...] = ("east", "west")


def check_well_formed(game: RulesContext, action: Action) -> None:
    """InvalidActionError for input that names nothing real, in any phase."""
    s = game.state
    if not 0 <= action.player < s.players:
        raise InvalidActionError(f"{action}: there is no player {action.player} (players are 0 to {s.players - 1})")
    card = getattr(action, "card", None)
    if isinstance(card, str) and card not in game.catalog.by_id:
        raise InvalidActionError(f"{action}: unknown card {card!r}")
    slot = getattr(action, "slot", None)
    if isinstance(slot, int) and not 0 <= slot < len(s.mainline):
        raise InvalidActionError(f"{action}: there is no Mainline position {slot} (0 to {len(s.mainline) - 1})")
    for name in ("heading", "uphill"):
        value = getattr(action, name, None)
        if value is not None and value not in HEADINGS:
            raise InvalidActionError(f"{action}: {name} must be 'east' or 'west'")
    if isinstance(action, Draw) and action.source != "deck" and action.source not in {str(i + 1) for i in range(len(s.departments))}:
        raise InvalidActionError(f"{action}: source must be 'deck' or a Department number 1 to {len(s.departments)}")
    if isinstance(action, Discard) and not 1 <= action.department <= len(s.departments):
        raise InvalidActionError(f"{action}: department must be 1 to {len(s.departments)}")
    rotation = getattr(action, "rotation", None)
    if rotation not in (None, 0, 180):
        raise InvalidActionError(f"{action}: rotation must be 0 or 180 (a card turns end for end, never over)")
    if isinstance(action, Play) and action.load is not None:
        chosen_load(game, action)


def as_heading(word: str | None) -> Heading:
    """An action's heading (or a grade's uphill) as the state keeps it. An
    action carries it as plain text, but ``check_well_formed`` refuses any
    word but these before a rule runs, so a rule that carries the action out
    always finds one; InvalidActionError should anything else get this far."""
    for heading in HEADINGS:
        if word == heading:
            return heading
    raise InvalidActionError(f"{word!r} is no heading: 'east' or 'west'")


def named_cars(game: RulesContext, names: Sequence[str]) -> list[Car]:
    types = [kind for kind, _ in game.catalog.supplies.cars]
    return [parse_car(name, types) for name in names]


def chosen_load(game: RulesContext, action: Play) -> list[Car] | None:
    """The cars an Extra's load names, or None when the yard is to choose;
    InvalidActionError for a name that is no car."""
    if action.load is None:
        return None
    try:
        return named_cars(game, action.load)
    except ValueError as exc:
        raise InvalidActionError(f"{action}: load: {exc}") from None
