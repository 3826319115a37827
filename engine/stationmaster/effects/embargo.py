"""Embargo: a rival's Facility that takes in loads takes in none for a Day
(its player's next turns, as many as a Day has Stages); it still ships, and
its pipeline still moves. Nothing answers it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.actions import Attack
from engine.stationmaster.rules.events import ATTACK_PROPOSALS, ATTACK_REFUSALS, ATTACK_RESOLVED, WORK_HALTED
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.lasting import in_force
from engine.stationmaster.rules.state import Lasting
from engine.stationmaster.rules.targets import facility_target, rival_facilities

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay

EFFECT = "embargo"
_TAKES_IN = ("inbound", "both")


@on(ATTACK_PROPOSALS, EFFECT)
def embargo_targets(game: RulesContext, player: int, card: Card) -> list[Attack]:
    return [Attack(player, card.id, rival=rival, x=x, y=y) for rival, x, y, facility in rival_facilities(game, player) if facility.traffic in _TAKES_IN]


@on(ATTACK_REFUSALS, EFFECT)
def embargo_refusals(game: RulesContext, action: Attack, card: Card) -> list[str]:
    square, facility, found = facility_target(game, action, card)
    if square is None or facility is None:
        return found
    if facility.traffic not in _TAKES_IN:
        found.append(Reason("takes-in-nothing", f"player {action.rival}'s {facility.name} only ships: it takes in no loads to embargo"))
    if in_force(game, card.id, player=action.rival, square=key(action.x or 0, action.y or 0)) is not None:
        found.append(Reason("already-embargoed", f"player {action.rival}'s {facility.name} is under an embargo already"))
    return found


@on(ATTACK_RESOLVED, EFFECT)
def embargo(game: RulesContext, attack: AttackInPlay, card: Card) -> None:
    assert attack.rival is not None and attack.x is not None and attack.y is not None
    where = key(attack.x, attack.y)
    turns = game.catalog.game.table.stages_per_day
    game.state.lasting.append(Lasting(card.id, attack.attacker, attack.rival, square=where, left=turns))
    name = game.catalog.by_id[game.state.districts[attack.rival].squares[where].card].name
    game.state.log.append(f"player {attack.rival}'s {name} takes in no loads for a Day (player {attack.rival}'s next {turns} turns)")


@on(WORK_HALTED, EFFECT)
def embargoed(game: RulesContext, lasting: Lasting, card: Card) -> str | None:
    return "inbound"
