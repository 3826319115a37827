"""The Switch option of Local Operations: Spot and Pull in a district, sorting
a train's cars, holding an Extra at an Office, and the held cards spent while
switching. A card's part is raised as an event for its effect's handler."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason, reasons_from
from engine.stationmaster.content.model import Card, TrainCard
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.actions import Action, FlyingSwitch, Hold, Pull, SortCars, Spot
from engine.stationmaster.rules.events import CARS_SORTED, HELD_CARD_REFUSALS, HELD_CARD_SPENT, SORT_REFUSALS
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.held import held_card, spends
from engine.stationmaster.rules.lookups import district_enhancements, effect_of, find_train, log, move_budget_reasons, train, use_move
from engine.stationmaster.rules.state import Train
from engine.stationmaster.rules.switching import pull_refusals, reachable, train_district

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def _cars(n: int) -> str:
    return f"{n} car" if n == 1 else f"{n} cars"


# Actions that spend one of the Switch option's moves.
SWITCH_MOVES = (Spot, Pull, SortCars, FlyingSwitch)


def crew_reasons(game: RulesContext, action: Action) -> list[Reason]:
    """A train waiting without a Crew Tray makes no move until it has one again."""
    moving = find_train(game, getattr(action, "train", ""))
    if moving is None or moving.crew_tray:
        return []
    return [Reason("no-crew-tray", f"{game.catalog.by_id[moving.card].name} is waiting without a Crew Tray and makes no move until one is free")]


def switch_reasons(game: RulesContext, action: Spot | Pull) -> list[Reason]:
    s = game.state
    moving = train(game, action.train)
    card = game.catalog.by_id[moving.card]
    assert isinstance(card, TrainCard)
    district = train_district(game, moving)
    found = move_budget_reasons(game) + crew_reasons(game, action)
    if district is None or district.player != action.player:
        return found + [Reason("not-at-your-office", f"{card.name} is not standing at player {action.player}'s Office")]
    if "mayNotSwitch" in card.restrictions:
        return found + [Reason("may-not-switch", f"{card.name} 'may not switch'")]
    where = key(action.x, action.y)
    if where not in district.squares:
        return found + [Reason("no-rail", f"there is no rail at ({action.x}, {action.y})")]
    if where not in reachable(game, district):
        found.append(Reason("unreachable", f"({action.x}, {action.y}) cannot be reached from the Office (no joined rail, a turnout to stop on, or standing cars in the way)"))
        return found
    square = district.squares[where]
    if isinstance(action, Spot):
        low = 0 if action.caboose else 1
        if not low <= action.cars <= len(moving.cars):
            found.append(Reason("car-count", f"{card.name} has {_cars(len(moving.cars))} to set out, not {action.cars}"))
        if action.caboose and not moving.caboose:
            found.append(Reason("no-caboose", f"{card.name} has no caboose to set out"))
        room = game.catalog.game.table.cars_per_track
        if len(square.cars) + action.cars > room:
            found.append(Reason("track-full", f"a track holds {room} cars, and {len(square.cars)} already stand there"))
        if square.caboose_of:
            found.append(Reason("caboose-in-the-way", "a caboose stands there"))
        # A caboose set out alone on an empty track can always be taken back
        # (Pull); with cars, or behind cars, a drop-only train could not.
        if action.caboose and action.cars:
            found.append(Reason("caboose-alone", "a caboose is set out on its own: set the cars out first, then the caboose"))
        if action.caboose and square.cars:
            found.append(Reason("caboose-on-empty-track", f"a caboose is set out only on an empty track, and {_cars(len(square.cars))} {'stands' if len(square.cars) == 1 else 'stand'} there"))
        if s.set_out_caboose(moving.id) is not None:
            found.append(Reason("caboose-set-out", f"the caboose of {card.name} stands in the district: the train takes it back before it sets out more"))
    else:
        found += reasons_from("coupling", pull_refusals(game, moving, card, district, where))
    return found


def perform_switch(game: RulesContext, action: Spot | Pull) -> None:
    s = game.state
    use_move(game)
    moving = train(game, action.train)
    district = train_district(game, moving)
    assert district is not None
    square = district.squares[key(action.x, action.y)]
    name = game.catalog.by_id[moving.card].name
    if isinstance(action, Spot):
        if action.cars:
            moved = moving.cars[-action.cars :]
            moving.cars = moving.cars[: -action.cars]
            square.cars.extend(moved)
        if action.caboose:
            moving.caboose = False
            square.caboose_of = moving.id
        log(
            s,
            f"{name} sets out {_cars(action.cars) if action.cars or not action.caboose else ''}{' and ' if action.cars and action.caboose else ''}{'its caboose' if action.caboose else ''} at ({action.x}, {action.y})",
        )
    else:
        moving.cars.extend(square.cars)
        log(s, f"{name} couples {_cars(len(square.cars)) if square.cars else 'its caboose'} at ({action.x}, {action.y})")
        square.cars = []
        if square.caboose_of == moving.id:
            square.caboose_of = None
            moving.caboose = True


# -- holding an Extra ------------------------------------------------------------


def hold_reasons(game: RulesContext, action: Hold) -> list[Reason]:
    held = train(game, action.train)
    found = []
    if held.player != action.player:
        found.append(Reason("not-your-extra", "only the player who played an Extra may hold it"))
    if train_district(game, held) is None:
        found.append(Reason("not-at-an-office", "a train is held at an Office, and this one is not standing at one"))
    if held.held:
        found.append(Reason("already-held", "that train is already held"))
    return found


def perform_hold(game: RulesContext, action: Hold) -> None:
    held = train(game, action.train)
    held.held += 1
    log(game.state, f"{game.catalog.by_id[held.card].name} is held at the Office through the next Mainline Phase")


# -- sorting a train's cars ------------------------------------------------------


def sort_source(game: RulesContext, sorting: Train) -> Card | None:
    """The card that lets ``sorting`` re-order its cars where it stands: an
    Enhancement of the district whose Office it stands at, or the Mainline
    card it stands on."""
    registry = load_handlers()
    district = train_district(game, sorting)
    if district is not None:
        for card in district_enhancements(game, district.player):
            if registry.get_handler(CARS_SORTED, card.effect) is not None:
                return card
    slot = game.state.mainline[sorting.position]
    if slot.kind == "terrain":
        land = game.catalog.by_id[game.state.slot_card(slot)]
        if registry.get_handler(CARS_SORTED, effect_of(land)) is not None:
            return land
    return None


def sort_reasons(game: RulesContext, action: SortCars) -> list[Reason]:
    found = move_budget_reasons(game) + crew_reasons(game, action)
    if list(action.order) == sorted(action.order):
        found.append(Reason("order-unchanged", "that order is the order the cars are already in"))
    sorting = find_train(game, action.train)
    if sorting is None:
        return found + [Reason("no-such-train", f"there is no train {action.train!r} on the Mainline")]
    source = sort_source(game, sorting)
    if source is None:
        registry = load_handlers()
        places = sorted({c.name for c in game.catalog.cards if registry.get_handler(CARS_SORTED, effect_of(c)) is not None})
        return found + [Reason("nothing-sorts-here", f"{game.catalog.by_id[sorting.card].name} is not standing where its cars may be sorted (the {' or the '.join(places)})")]
    refuse = load_handlers().get_handler(SORT_REFUSALS, effect_of(source))
    return found + (reasons_from(f"effect:{effect_of(source)}", refuse(game, action, source)) if refuse is not None else [])


def perform_sort(game: RulesContext, action: SortCars) -> None:
    use_move(game)
    source = sort_source(game, train(game, action.train))
    assert source is not None
    sort = load_handlers().get_handler(CARS_SORTED, effect_of(source))
    assert sort is not None
    sort(game, action, source)


# -- held cards spent by their own action ----------------------------------------


def spend_reasons(game: RulesContext, action: Action) -> list[Reason]:
    """Why the held card this kind of action spends cannot be spent now."""
    found: list[Reason] = move_budget_reasons(game) + crew_reasons(game, action) if isinstance(action, SWITCH_MOVES) else []
    kinds = spends(game, type(action))
    if not kinds:
        return found + [Reason("action-unbuilt", f"the {action.kind} action is not built yet")]
    card = held_card(game, action.player, type(action))
    if card is None:
        found.append(Reason("card-not-held", f"player {action.player} holds no {kinds[0].name}"))
    refuse = load_handlers().get_handler(HELD_CARD_REFUSALS, effect_of(card or kinds[0]))
    return found + (reasons_from(f"effect:{effect_of(card or kinds[0])}", refuse(game, action, card or kinds[0])) if refuse is not None else [])


def perform_spend(game: RulesContext, action: Action) -> None:
    """The held card goes to the Salvage Yard, then its handler acts."""
    s = game.state
    if isinstance(action, SWITCH_MOVES):
        use_move(game)
    card = held_card(game, action.player, type(action))
    assert card is not None
    s.hands[action.player].remove(card.id)
    s.salvage.append(card.id)
    spend = load_handlers().get_handler(HELD_CARD_SPENT, effect_of(card))
    assert spend is not None
    spend(game, action, card)
