"""The Small Yard: a train standing at its district's Office may re-order its
consist, one switching move, for the district's own player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import CARS_SORTED, SORT_REFUSALS
from engine.stationmaster.rules.lookups import train
from engine.stationmaster.rules.switching import train_district

if TYPE_CHECKING:
    from engine.stationmaster.rules.actions import SortCars
    from engine.stationmaster.rules.context import RulesContext


@on(SORT_REFUSALS, "small-yard")
def small_yard_refusals(game: RulesContext, action: SortCars, card: Card) -> list[str]:
    sorting = train(game, action.train)
    reasons: list[str] = []
    district = train_district(game, sorting)
    if district is None or district.player != action.player:
        reasons.append(Reason("not-at-your-office", f"{game.catalog.by_id[sorting.card].name} is not standing at player {action.player}'s Office"))
    if sorted(action.order) != list(range(len(sorting.cars))):
        reasons.append(Reason("not-a-permutation", f"the new order must list each of the train's {len(sorting.cars)} car positions once"))
    return reasons


@on(CARS_SORTED, "small-yard")
def small_yard(game: RulesContext, action: SortCars, card: Card) -> None:
    sorting = train(game, action.train)
    sorting.cars = [sorting.cars[i] for i in action.order]
    game.state.log.append(f"{game.catalog.by_id[sorting.card].name} re-orders its consist in the {card.name}")
