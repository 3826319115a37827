"""The Mainline's yards: where the cars off the districts stand, which of them
a train made up at a Mainline position draws on, and how the railroad beyond
the Division turns round the cars a train brings to a Division Point.

Every yard on the Mainline (both Division Points, a terrain card printed
with one, an Office whose district has a card that makes up Extras as a
Division Point does) stands for the one railroad beyond the Division. A train
made up in one takes its cars from that yard first, then from the others,
nearest first, so no yard drains for good while another fills, and a yard
that holds no cars of its own still makes up a train. An Office without such
a card keeps no cars: an Extra made up there leaves light. A car brought to a
Division Point is turned round there (``turn_round``), so loads and empties,
and coaches of riders, keep coming back to the Division.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Facility, MainlineCard, TrainCard
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.consist import Wanted
from engine.stationmaster.rules.events import EXTRA_MADE_UP
from engine.stationmaster.rules.industry import works
from engine.stationmaster.rules.lookups import district_enhancements
from engine.stationmaster.rules.state import Car

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def has_yard(game: RulesContext, position: int) -> bool:
    """Whether a train may be made up with cars at this Mainline position."""
    slot = game.state.mainline[position]
    if slot.kind == "office":
        registry = load_handlers()
        return slot.player is not None and any(registry.get_handler(EXTRA_MADE_UP, card.effect) for card in district_enhancements(game, slot.player))
    card = game.catalog.by_id[game.state.slot_card(slot)]
    return isinstance(card, MainlineCard) and card.yard


def yards_for(game: RulesContext, position: int) -> list[list[Car]]:
    """The yards a train made up at ``position`` draws on, in the order it
    takes from them: its own, then every other yard by distance along the
    Mainline (the western first of two as near). None for a position without
    a yard."""
    if not has_yard(game, position):
        return []
    mainline = game.state.mainline
    others = sorted((i for i in range(len(mainline)) if i != position and has_yard(game, i)), key=lambda i: (abs(i - position), i))
    return [mainline[i].yard for i in (position, *others)]


def cars_for(game: RulesContext, position: int) -> list[Car]:
    """Every car a train made up at ``position`` could take now, in the order
    it comes to them."""
    return [car for yard in yards_for(game, position) for car in yard]


def take_from(yards: Sequence[list[Car]], taken: Sequence[Car]) -> None:
    """Remove the cars a train took (these very cars) from the yards they stood in."""
    gone = {id(car) for car in taken}
    for yard in yards:
        yard[:] = [car for car in yard if id(car) not in gone]


def wanted_on_run(game: RulesContext, card: TrainCard, start: int, heading: str) -> list[Wanted]:
    """What a yard puts on ``card`` for the industries of the districts its
    run comes to (not one it is made up at: it leaves that Office at once),
    in the order it reaches them: as many cars for each industry as its track
    has room for, one industry after another, round by round (none for a
    train that may not set cars out)."""
    if "mayNotSwitch" in card.restrictions:
        return []
    s = game.state
    step = 1 if heading == "east" else -1
    room = game.catalog.game.table.cars_per_track
    places: list[tuple[Facility, int, int]] = []
    for i in range(start + step, len(s.mainline) if step > 0 else -1, step):
        slot = s.mainline[i]
        if slot.kind != "office" or slot.player is None:
            continue
        for _, square in sorted(s.districts[slot.player].squares.items()):
            facility = game.catalog.by_id[square.card]
            if square.kind == "facility" and isinstance(facility, Facility) and room > len(square.cars):
                places.append((facility, slot.player, room - len(square.cars)))
    return [_works_at(facility, player) for turn in range(room) for facility, player, free in places if turn < free]


def _works_at(facility: Facility, player: int) -> Wanted:
    return lambda car: works(facility, car, player)


def turn_round(game: RulesContext, cars: Sequence[Car]) -> None:
    """Cars reaching a Division Point at the end of a run leave the Division,
    and the railroad beyond sends each back as traffic from off the map (no
    shipper, no commodity): a freight car that came loaded (its load
    delivered) goes back empty, one that came empty goes back loaded; a coach
    goes back full (its riders get off, riders for the Division get on)."""
    categories = game.catalog.supplies.car_categories
    for car in cars:
        car.loaded = True if categories.get(car.type) == "coach" else not car.loaded
        car.shipper = None
        car.commodity = None
