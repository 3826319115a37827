"""Classification Yard: at the end of its player's turn, the cars standing on
each track of the district are sorted into blocks by destination. Loads are
bound out to a Division Point and empties to an industry that loads them, so
on every track the loads are put ahead of the empties (each block keeping its
order). A train that couples the track then has its empties at the rear,
where a Spot sets cars out first. Cars at an industry or at the Office are
left where the industry and the Office put them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import DISTRICT_WORKED
from engine.stationmaster.rules.geometry import coords

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


@on(DISTRICT_WORKED, "classification-yard")
def classification_yard(game: RulesContext, player: int, card: Card) -> None:
    for where, square in sorted(game.state.districts[player].squares.items()):
        if square.kind != "track" or len(square.cars) < 2:
            continue
        blocked = [car for car in square.cars if car.loaded] + [car for car in square.cars if not car.loaded]
        if blocked != square.cars:
            square.cars = blocked
            x, y = coords(where)
            game.state.log.append(f"player {player}'s {card.name} sorts the cars at ({x}, {y}) into blocks: loads ahead of empties")
