"""Effect handlers, registered by effect id.

Each handler is a plain function ``(game, action, card)``; its refusal
function returns every reason it cannot run now. A handler is only
registered once the rule behind it really works: the registry is what the
rules site's Status column reports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.stationmaster.actions import FlyingSwitch, Play, RedFlag, SortCars
from engine.stationmaster.content.model import Enhancement, FacilityModifier, MainlineCard, MainlineModifier, SecondSection, TrainCard
from engine.stationmaster.effects import handler
from engine.stationmaster.state import District, Train

if TYPE_CHECKING:
    from engine.stationmaster.game import Game


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
    land = game.catalog.by_id[s.slot_card(slot)]
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


@handler("small-yard", refusals=lambda game, action, card: _yard_sort_refusals(game, action))
def small_yard(game: Game, action: SortCars, card: Any) -> None:
    train = next(t for t in game.state.trains if t.id == action.train)
    train.cars = [train.cars[i] for i in action.order]
    game.state.log.append(f"{game.catalog.by_id[train.card].name} re-orders its consist in the Small Yard")


def _yard_sort_refusals(game: Game, action: SortCars) -> list[str]:
    train = next((t for t in game.state.trains if t.id == action.train), None)
    if train is None:
        return [f"there is no train {action.train!r} on the Mainline"]
    from engine.stationmaster.switching import train_district

    reasons = []
    district = train_district(game, train)
    if district is None or district.player != action.player:
        reasons.append(f"{game.catalog.by_id[train.card].name} is not standing at player {action.player}'s Office")
    if sorted(action.order) != list(range(len(train.cars))):
        reasons.append(f"the new order must list each of the train's {len(train.cars)} car positions once")
    return reasons


# -- district cards placed by handlers ------------------------------------------------


@handler("add-capacity")
def add_capacity(game: Game, action: Play, card: FacilityModifier) -> None:
    """A Modifier takes its square; its grant counts wherever capacity is read."""
    from engine.stationmaster.district import place

    assert action.x is not None and action.y is not None
    place(game, action.player, card, action.x, action.y, 0)


# -- trains that pay for stopping -----------------------------------------------------


@handler("pays-for-stopping")
def pays_for_stopping(game: Game, train: Train, district: District) -> None:
    """A whole Mainline Phase stopped in an Office Area, fully loaded: a point
    for that district, once per district for each train."""
    card = game.catalog.by_id[train.card]
    assert isinstance(card, TrainCard)
    if train.id in district.paid_stops:
        return
    if len(train.cars) < card.consist.cars or not all(c.loaded for c in train.cars):
        game.state.log.append(f"{card.name} stood at player {district.player}'s Office but is short or not fully loaded: it earns nothing")
        return
    district.paid_stops.append(train.id)
    game.state.scores[district.player] += 1
    game.state.log.append(f"{card.name} stood a whole Mainline Phase in player {district.player}'s Office Area, fully loaded: player {district.player} scores 1")


@handler("interlocking")
def interlocking(game: Game, train: Train, player: int) -> None:
    game.state.log.append(f"player {player}'s Interlocking holds {game.catalog.by_id[train.card].name} at the Limits until an A/D track frees")


@handler("division-yard")
def division_yard(game: Game, action: Play, card: Any) -> None:
    game.state.log.append(f"an Extra is made up in player {action.player}'s Division Yard")


@handler("yard-office")
def yard_office(game: Game, player: int, train: Train) -> bool:
    """At the point of attack: a Bad Order against this district is answered,
    the car repaired where it stands. Returns True when the attack is stopped."""
    game.state.log.append(f"player {player}'s Yard Office repairs the car: the Bad Order is answered")
    return True


def resolve_bad_order(game: Game, player: int, train: Train) -> None:
    """A Bad Order played at ``player``'s district: the last car of a train
    standing there is set out, unless the district's Yard Office answers it.
    Opponent-directed cards are never dealt, so no solitaire game gets here."""
    from engine.stationmaster.rules import _has_enhancement

    if _has_enhancement(game, player, "yard-office"):
        if yard_office(game, player, train):
            return
    if train.cars:
        car = train.cars.pop()
        game.state.districts[player].squares["0,0"].cars.append(car)
        game.state.log.append(f"a Bad Order sets out a {car.type} from {game.catalog.by_id[train.card].name}")


# -- Flying Switch ------------------------------------------------------------------------


def _flying_switch_refusals(game: Game, action: FlyingSwitch, card: Any) -> list[str]:
    from engine.stationmaster.geometry import key
    from engine.stationmaster.rules import _move_budget_reasons
    from engine.stationmaster.switching import reachable, train_district

    s = game.state
    reasons = _move_budget_reasons(game)
    if "flying-switch" not in s.hands[action.player]:
        reasons.append(f"player {action.player} holds no Flying Switch")
    train = next((t for t in s.trains if t.id == action.train), None)
    if train is None:
        return reasons + [f"there is no train {action.train!r} on the Mainline"]
    card_of = game.catalog.by_id[train.card]
    district = train_district(game, train)
    if district is None or district.player != action.player:
        return reasons + [f"{card_of.name} is not standing at player {action.player}'s Office"]
    if isinstance(card_of, TrainCard) and "mayNotSwitch" in card_of.restrictions:
        reasons.append(f"{card_of.name} 'may not switch'")
    if not train.cars:
        reasons.append(f"{card_of.name} has no car to cut off")
    where = key(action.x, action.y)
    if where not in reachable(game, district, kick=True):
        reasons.append(f"({action.x}, {action.y}) is not down the other leg of a turnout the train can run through")
    elif len(district.squares[where].cars) >= game.catalog.game.table.cars_per_track:
        reasons.append(f"a track holds {game.catalog.game.table.cars_per_track} cars, and that one is full")
    return reasons


@handler("flying-switch", refusals=_flying_switch_refusals)
def flying_switch(game: Game, action: FlyingSwitch, card: Any) -> None:
    s = game.state
    train = next(t for t in s.trains if t.id == action.train)
    district = s.districts[action.player]
    car = train.cars.pop()
    district.squares[f"{action.x},{action.y}"].cars.append(car)
    s.hands[action.player].remove("flying-switch")
    s.salvage.append("flying-switch")
    s.log.append(f"a Flying Switch: {game.catalog.by_id[train.card].name} cuts off a {car.type}, which rolls to ({action.x}, {action.y})")
