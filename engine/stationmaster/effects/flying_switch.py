"""Flying Switch: spent while switching, a train standing at your Office cuts
off its rearmost car on the move, and the car rolls down the other leg of a
turnout the train has just run through."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card, TrainCard
from engine.stationmaster.effects import on
from engine.stationmaster.rules.actions import Action, FlyingSwitch
from engine.stationmaster.rules.events import HELD_CARD_REFUSALS, HELD_CARD_SPENT
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.lookups import find_train
from engine.stationmaster.rules.switching import reachable, train_district

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


@on(HELD_CARD_REFUSALS, "flying-switch", kind=FlyingSwitch)
def flying_switch_refusals(game: RulesContext, action: Action, card: Card) -> list[str]:
    assert isinstance(action, FlyingSwitch)
    train = find_train(game, action.train)
    if train is None:
        return [Reason("no-such-train", f"there is no train {action.train!r} on the Mainline")]
    reasons: list[str] = []
    card_of = game.catalog.by_id[train.card]
    district = train_district(game, train)
    if district is None or district.player != action.player:
        return [Reason("not-at-your-office", f"{card_of.name} is not standing at player {action.player}'s Office")]
    if isinstance(card_of, TrainCard) and "mayNotSwitch" in card_of.restrictions:
        reasons.append(Reason("may-not-switch", f"{card_of.name} 'may not switch'"))
    if not train.cars:
        reasons.append(Reason("no-car-to-cut-off", f"{card_of.name} has no car to cut off"))
    where = key(action.x, action.y)
    if where not in reachable(game, district, kick=True):
        reasons.append(Reason("not-down-the-other-leg", f"({action.x}, {action.y}) is not down the other leg of a turnout the train can run through"))
    elif len(district.squares[where].cars) >= game.catalog.game.table.cars_per_track:
        reasons.append(Reason("track-full", f"a track holds {game.catalog.game.table.cars_per_track} cars, and that one is full"))
    return reasons


@on(HELD_CARD_SPENT, "flying-switch", kind=FlyingSwitch)
def flying_switch(game: RulesContext, action: Action, card: Card) -> None:
    assert isinstance(action, FlyingSwitch)
    train = find_train(game, action.train)
    assert train is not None
    car = train.cars.pop()
    game.state.districts[action.player].squares[key(action.x, action.y)].cars.append(car)
    game.state.log.append(f"a {card.name}: {game.catalog.by_id[train.card].name} cuts off a {car.type}, which rolls to ({action.x}, {action.y})")
