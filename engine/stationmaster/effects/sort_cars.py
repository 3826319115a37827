"""The Interchange's sort cars: a train standing on the card (the one Mainline
card with a yard) may re-order its cars there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import CARS_SORTED, SORT_REFUSALS
from engine.stationmaster.rules.lookups import train

if TYPE_CHECKING:
    from engine.stationmaster.rules.actions import SortCars
    from engine.stationmaster.rules.context import RulesContext


@on(SORT_REFUSALS, "sort-cars")
def sort_refusals(game: RulesContext, action: SortCars, card: Card) -> list[str]:
    cars = train(game, action.train).cars
    if sorted(action.order) != list(range(len(cars))):
        return [Reason("not-a-permutation", f"the new order must list each of the train's {len(cars)} car positions once")]
    return []


@on(CARS_SORTED, "sort-cars")
def sort_cars(game: RulesContext, action: SortCars, card: Card) -> None:
    sorting = train(game, action.train)
    sorting.cars = [sorting.cars[i] for i in action.order]
    game.state.log.append(f"{game.catalog.by_id[sorting.card].name} sorts its cars on the {card.name}")
