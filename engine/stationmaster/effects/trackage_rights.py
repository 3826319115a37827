"""Trackage Rights: an Extra you played, standing at a rival's Office, runs
into that rival's district as if it were your own: to a track the rails
reach from the Office, where it couples everything standing there (a Pull,
by the Pull's rules). It takes none of the Switch option's moves: the card is
the turn's play. Nothing answers it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason, reasons_from
from engine.stationmaster.content.model import Card, TrainCard
from engine.stationmaster.effects import on
from engine.stationmaster.rules.actions import Attack
from engine.stationmaster.rules.events import ATTACK_PROPOSALS, ATTACK_REFUSALS, ATTACK_RESOLVED
from engine.stationmaster.rules.geometry import coords, key
from engine.stationmaster.rules.lookups import find_train
from engine.stationmaster.rules.switching import pull_refusals, reachable, train_district
from engine.stationmaster.rules.targets import named_train, train_name

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay

EFFECT = "trackage-rights"


def _may_switch(game: RulesContext, card_id: str) -> bool:
    card = game.catalog.by_id[card_id]
    return isinstance(card, TrainCard) and "mayNotSwitch" not in card.restrictions


@on(ATTACK_PROPOSALS, EFFECT)
def trackage_rights_targets(game: RulesContext, player: int, card: Card) -> list[Attack]:
    found = []
    for train in game.state.trains:
        district = train_district(game, train)
        if train.player != player or district is None or district.player == player or not _may_switch(game, train.card):
            continue
        for where in sorted(reachable(game, district)):
            if district.squares[where].cars:
                x, y = coords(where)
                found.append(Attack(player, card.id, rival=district.player, train=train.id, x=x, y=y))
    return found


@on(ATTACK_REFUSALS, EFFECT)
def trackage_rights_refusals(game: RulesContext, action: Attack, card: Card) -> list[str]:
    train, found = named_train(game, action, card)
    if train is None or action.rival is None:
        return found
    if train.player != action.player:
        found.append(Reason("not-your-extra", f"{train_name(game, train)} is not an Extra player {action.player} played"))
    district = train_district(game, train)
    if district is None or district.player != action.rival:
        return found + [Reason("not-at-their-office", f"{train_name(game, train)} is not standing at player {action.rival}'s Office")]
    if not _may_switch(game, train.card):
        found.append(Reason("may-not-switch", f"{game.catalog.by_id[train.card].name} 'may not switch'"))
    if action.x is None or action.y is None:
        return found + [Reason("needs-square", f"{card.name} runs the train to a track of the rival's district: give it (x, y)")]
    where = key(action.x, action.y)
    if where not in district.squares:
        return found + [Reason("no-rail", f"there is no rail at ({action.x}, {action.y}) of player {action.rival}'s district")]
    if where not in reachable(game, district):
        return found + [Reason("unreachable", f"({action.x}, {action.y}) cannot be reached from player {action.rival}'s Office")]
    card_of = game.catalog.by_id[train.card]
    assert isinstance(card_of, TrainCard)
    return found + reasons_from("coupling", pull_refusals(game, train, card_of, district, where))


@on(ATTACK_RESOLVED, EFFECT)
def trackage_rights(game: RulesContext, attack: AttackInPlay, card: Card) -> None:
    assert attack.train is not None and attack.rival is not None and attack.x is not None and attack.y is not None
    train = find_train(game, attack.train)
    assert train is not None
    square = game.state.districts[attack.rival].squares[key(attack.x, attack.y)]
    coupled = len(square.cars)
    train.cars.extend(square.cars)
    square.cars = []
    game.state.log.append(f"on its {card.name}, {train_name(game, train)} runs to ({attack.x}, {attack.y}) of player {attack.rival}'s district and couples {coupled} car(s)")
