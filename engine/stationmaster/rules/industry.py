"""What a district's industries and Office do at the end of its player's turn,
and the points they earn.

Scoring (the sources name what earns; how much is game.yaml's ``scoring``):
a load that works its way through an industry's pipeline earns its
district; a car an industry loaded earns its shipper when it reaches a
Division Point; a coach of passengers set down at a Passenger Facility
earns that district.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Facility, OfficeTier, TrainCard
from engine.stationmaster.rules.district import capacity
from engine.stationmaster.rules.lasting import halted_work
from engine.stationmaster.rules.state import OFFICE_SQUARE, Car, District

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def works(facility: Facility, car: Car, player: int) -> bool:
    """Whether an industry of ``player``'s district works this car as it is:
    a load it takes in, or an empty it loads. The yards ask the same question
    when they choose cars for an industry (``engine.stationmaster.rules.yards``).

    A load is taken in only if it is this industry's commodity (or came from
    off the map) and was not loaded in this very district: no traffic runs in
    circles inside one Office Area."""
    if car.type not in facility.car_types:
        return False
    if car.loaded:
        return facility.traffic in ("inbound", "both") and car.commodity in (None, facility.commodity) and car.shipper != player
    return facility.traffic in ("outbound", "both")


def work_district(game: RulesContext, player: int) -> None:
    s = game.state
    district = s.districts[player]
    # Only Facilities work (most squares are track): the rest are left out
    # before the sort, which orders the Facilities by square as before.
    for square_key, square in sorted((k, sq) for k, sq in district.squares.items() if sq.kind == "facility"):
        card = game.catalog.by_id[square.card]
        if not isinstance(card, Facility) or square.laborers <= 0:
            continue
        halted = halted_work(game, player, square_key)  # attacks in force on it (engine.stationmaster.rules.lasting)
        if "work" in halted:
            continue
        done = square.pipeline[-1]
        if done:
            points = done * game.catalog.game.scoring.load_worked
            s.scores[player] += points
            s.log.append(f"{card.name}: {done} {'load' if done == 1 else 'loads'} worked through; player {player} scores {points}")
        square.pipeline = [0] + square.pipeline[:-1]
        if card.traffic in ("inbound", "both") and "inbound" not in halted:
            room = card.inbound_boxes + capacity(game, district, square_key, "inboundBox")
            for car in square.cars:
                if room <= 0:
                    break
                if car.loaded and works(card, car, player):
                    car.loaded = False
                    car.shipper = None
                    car.commodity = None
                    square.pipeline[0] += 1
                    room -= 1
        if card.traffic in ("outbound", "both"):
            boxes = card.outbound_boxes + capacity(game, district, square_key, "outboundBox")
            if square.waiting < boxes:
                square.waiting += 1
            for car in square.cars:
                if square.waiting <= 0:
                    break
                if not car.loaded and works(card, car, player):
                    car.loaded = True
                    car.shipper = player
                    car.commodity = card.commodity
                    square.waiting -= 1
    _passengers(game, player, district)


def _passengers(game: RulesContext, player: int, district: District) -> None:
    s = game.state
    office = game.catalog.by_id[s.office(player)]
    if not isinstance(office, OfficeTier) or not office.passenger_facility:
        return
    # Only trains standing at this Office are served: most turns there are
    # none, and the Office's slots (a walk over the district) are not needed.
    standing = [t for t in s.trains if not t.remaining and s.mainline[t.position].kind == "office" and s.mainline[t.position].player == player]
    if not standing:
        return
    points = game.catalog.game.scoring.passengers_set_down
    categories = game.catalog.supplies.car_categories
    porters = office.porters + capacity(game, district, OFFICE_SQUARE, "porter")
    down = min(office.inbound_slots + capacity(game, district, OFFICE_SQUARE, "inboundSlot"), porters)
    up = min(office.outbound_slots + capacity(game, district, OFFICE_SQUARE, "outboundSlot"), porters)
    for train in standing:
        card = game.catalog.by_id[train.card]
        if isinstance(card, TrainCard) and "mayNotSwitch" in card.restrictions:
            continue  # nothing is set down or taken up from a train that may not switch
        for car in train.cars:
            if categories.get(car.type) != "coach":
                continue
            if car.loaded and car.shipper != player and down > 0:
                car.loaded, car.shipper = False, None
                down -= 1
                s.scores[player] += points
                s.log.append(f"a {car.type} of passengers is set down at player {player}'s {office.name}; player {player} scores {points}")
            elif not car.loaded and up > 0:
                car.loaded, car.shipper = True, player
                up -= 1


def deliver(game: RulesContext, cars: list, where: str) -> None:  # type: ignore[type-arg]
    """Loads an industry shipped pay their shipper on reaching a Division Point."""
    points = game.catalog.game.scoring.load_delivered
    categories = game.catalog.supplies.car_categories
    for car in cars:
        if car.loaded and car.shipper is not None and categories.get(car.type) == "freight":
            game.state.scores[car.shipper] += points
            game.state.log.append(f"a {car.type} loaded by player {car.shipper} reaches {where}; player {car.shipper} scores {points}")
            car.shipper = None
