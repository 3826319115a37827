"""Bad Order: the rear car of a train standing at a rival's Office is found
bad order and set out where the train stands, on the Office's track. A Yard
Office standing in that district answers it at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.actions import Attack
from engine.stationmaster.rules.events import ATTACK_PROPOSALS, ATTACK_REFUSALS, ATTACK_RESOLVED
from engine.stationmaster.rules.lookups import find_train
from engine.stationmaster.rules.state import OFFICE_SQUARE
from engine.stationmaster.rules.switching import train_district
from engine.stationmaster.rules.targets import named_train, train_name

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay

EFFECT = "bad-order"


@on(ATTACK_PROPOSALS, EFFECT)
def bad_order_targets(game: RulesContext, player: int, card: Card) -> list[Attack]:
    found = []
    for train in game.state.trains:
        district = train_district(game, train)
        if district is not None and district.player != player and train.cars:
            found.append(Attack(player, card.id, rival=district.player, train=train.id))
    return found


@on(ATTACK_REFUSALS, EFFECT)
def bad_order_refusals(game: RulesContext, action: Attack, card: Card) -> list[str]:
    train, found = named_train(game, action, card)
    if train is None or action.rival is None:
        return found
    district = train_district(game, train)
    if district is None or district.player != action.rival:
        found.append(Reason("not-at-their-office", f"{train_name(game, train)} is not standing at player {action.rival}'s Office"))
    if not train.cars:
        found.append(Reason("no-car", f"{train_name(game, train)} has no car to set out"))
    room = game.catalog.game.table.cars_per_track
    if len(game.state.districts[action.rival].squares[OFFICE_SQUARE].cars) >= room:
        found.append(Reason("track-full", f"the track at player {action.rival}'s Office holds {room} cars already"))
    return found


@on(ATTACK_RESOLVED, EFFECT)
def bad_order(game: RulesContext, attack: AttackInPlay, card: Card) -> None:
    assert attack.train is not None and attack.rival is not None
    train = find_train(game, attack.train)
    assert train is not None
    car = train.cars.pop()
    game.state.districts[attack.rival].squares[OFFICE_SQUARE].cars.append(car)
    game.state.log.append(f"a {car.type} of {train_name(game, train)} is bad order: it is set out at player {attack.rival}'s Office")
