"""Effect handlers, registered by effect id.

Each handler is a plain function ``(game, action, card)``; its refusal
function returns every reason it cannot run now. A handler is only
registered once the rule behind it really works: the registry is what the
rules site's Status column reports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Play, RedFlag, SortCars
from engine.content.model import MainlineCard, MainlineModifier, SecondSection
from engine.effects.registry import handler

if TYPE_CHECKING:
    from engine.game import Game


def _slot_terrain(game: Game, action: Play) -> tuple[int, MainlineCard] | None:
    if action.slot is None:
        return None
    slot = game.state.mainline[action.slot]
    if slot.kind != "terrain":
        return None
    card = game.catalog.by_id[slot.card]
    assert isinstance(card, MainlineCard)
    return action.slot, card


def _occupied(game: Game, index: int) -> bool:
    return any(t.position == index for t in game.state.trains)


# -- grade cards ---------------------------------------------------------------


def _grade_refusals(game: Game, action: Play, card: MainlineModifier) -> list[str]:
    found = _slot_terrain(game, action)
    if found is None:
        return [f"{card.name} is played onto a Mainline terrain card: give its position (slot)"]
    index, land = found
    slot = game.state.mainline[index]
    reasons = []
    targets = card.play_on if isinstance(card.play_on, tuple) else ()
    if land.id not in targets:
        names = ", ".join(game.catalog.by_id[t].name for t in targets)
        reasons.append(f"{card.name} may only be played on {names}, not on {land.name}")
    if card.requires and card.requires not in slot.modifiers:
        reasons.append(f"{card.name} needs {game.catalog.by_id[card.requires].name} already on that card")
    if card.id in slot.modifiers:
        reasons.append(f"that {land.name} already has {card.name}")
    return reasons


def _place_modifier(game: Game, action: Play, card: MainlineModifier) -> None:
    assert action.slot is not None
    game.state.mainline[action.slot].modifiers.append(card.id)
    game.state.log.append(f"{card.name} is played onto Mainline position {action.slot}")


for _effect in ("grade-brakeman", "grade-airbrakes", "grade-helpers"):
    handler(_effect, refusals=_grade_refusals)(_place_modifier)


# -- Realignment -----------------------------------------------------------------


def _realign_refusals(game: Game, action: Play, card: MainlineModifier) -> list[str]:
    found = _slot_terrain(game, action)
    if found is None:
        return [f"{card.name} is played onto a Mainline terrain card: give its position (slot)"]
    index, land = found
    reasons = []
    sources = dict(card.realign)
    if land.id not in sources:
        names = ", ".join(game.catalog.by_id[t].name for t in sources)
        reasons.append(f"{card.name} only changes {names}; {land.name} is not one of them")
    if _occupied(game, index):
        reasons.append(f"{card.name} needs an unoccupied card, and a train is on {land.name}")
    return reasons


@handler("realignment", refusals=_realign_refusals)
def realign(game: Game, action: Play, card: MainlineModifier) -> None:
    assert action.slot is not None
    slot = game.state.mainline[action.slot]
    before = slot.card
    slot.printed = slot.printed or before
    slot.card = dict(card.realign)[before]
    slot.modifiers.append(card.id)
    game.state.log.append(f"{card.name}: {game.catalog.by_id[before].name} becomes {game.catalog.by_id[slot.card].name}")


# -- ABS Signals -----------------------------------------------------------------


def _abs_refusals(game: Game, action: Play, card: Any) -> list[str]:
    found = _slot_terrain(game, action)
    if found is None:
        return [f"{card.name} goes onto a Mainline terrain card: give its position (slot)"]
    if game.state.mainline[found[0]].abs_signals:
        return [f"{found[1].name} already has ABS Signals"]
    return []


@handler("abs-signals", refusals=_abs_refusals)
def abs_signals(game: Game, action: Play, card: Any) -> None:
    assert action.slot is not None
    game.state.mainline[action.slot].abs_signals = True
    game.state.mainline[action.slot].modifiers.append(card.id)
    game.state.log.append(f"ABS Signals guard Mainline position {action.slot}")


# -- Red Flag ------------------------------------------------------------------------


def _red_flag_refusals(game: Game, action: RedFlag, card: Any) -> list[str]:
    reasons = []
    if "red-flag" not in game.state.hands[action.player]:
        reasons.append(f"player {action.player} holds no Red Flag")
    if not any(t.id == action.train for t in game.state.trains):
        reasons.append(f"there is no train {action.train!r} on the Mainline")
    return reasons


@handler("red-flag", refusals=_red_flag_refusals)
def red_flag(game: Game, action: RedFlag, card: Any) -> None:
    s = game.state
    s.hands[action.player].remove("red-flag")
    s.salvage.append("red-flag")
    train = next(t for t in s.trains if t.id == action.train)
    train.held += 1
    s.log.append(f"a Red Flag holds {game.catalog.by_id[train.card].name} where it stands for a Mainline Phase")


# -- the Second Section --------------------------------------------------------------


def _second_section_refusals(game: Game, action: Play, card: SecondSection) -> list[str]:
    s = game.state
    due = s.timetable[s.stage - 1]
    reasons = []
    if action.train is None or action.train != due:
        name = game.catalog.by_id[due].name if due else "none"
        reasons.append(f"a Second Section follows the train due out this Stage (Stage {s.stage}: {name})")
    if action.train in s.second_sections:
        reasons.append("that train already has a Second Section")
    trays_needed = 1 + len(s.second_sections) + (1 if due else 0)
    if s.crew_trays_free < trays_needed:
        reasons.append(f"the Second Section needs a Crew Tray of its own: {s.crew_trays_free} free, {trays_needed} needed")
    return reasons


@handler("second-section", refusals=_second_section_refusals)
def second_section(game: Game, action: Play, card: SecondSection) -> None:
    assert action.train is not None
    game.state.second_sections.append(action.train)
    game.state.salvage.append(card.id)
    game.state.log.append(f"a Second Section is ordered behind {game.catalog.by_id[action.train].name}")


# -- the Interchange's sort cars --------------------------------------------------------


def _sort_refusals(game: Game, action: SortCars, card: Any) -> list[str]:
    s = game.state
    train = next((t for t in s.trains if t.id == action.train), None)
    if train is None:
        return [f"there is no train {action.train!r} on the Mainline"]
    reasons = []
    slot = s.mainline[train.position]
    land = game.catalog.by_id[slot.card]
    if not (slot.kind == "terrain" and isinstance(land, MainlineCard) and land.effect == "sort-cars"):
        reasons.append(f"{game.catalog.by_id[train.card].name} is not standing on the Interchange, where cars may be sorted")
    if sorted(action.order) != list(range(len(train.cars))):
        reasons.append(f"the new order must list each of the train's {len(train.cars)} car positions once")
    return reasons


@handler("sort-cars", refusals=_sort_refusals)
def sort_cars(game: Game, action: SortCars, card: Any) -> None:
    train = next(t for t in game.state.trains if t.id == action.train)
    train.cars = [train.cars[i] for i in action.order]
    game.state.log.append(f"{game.catalog.by_id[train.card].name} sorts its cars on the Interchange")
