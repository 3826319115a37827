"""Strike: the Laborer of a rival's Facility walks off for a turn. At the end
of its player's next turn the Facility does no work at all (its pipeline
stands still, and it loads and unloads nothing); then the Laborer is back.
Arbitration answers it."""

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

EFFECT = "strike"
TURNS = 1  # the struck district's turns: one working lost


@on(ATTACK_PROPOSALS, EFFECT)
def strike_targets(game: RulesContext, player: int, card: Card) -> list[Attack]:
    return [Attack(player, card.id, rival=rival, x=x, y=y) for rival, x, y, _ in rival_facilities(game, player)]


@on(ATTACK_REFUSALS, EFFECT)
def strike_refusals(game: RulesContext, action: Attack, card: Card) -> list[str]:
    square, facility, found = facility_target(game, action, card)
    if square is None or facility is None:
        return found
    if square.laborers <= 0:
        found.append(Reason("no-laborer-at-work", f"player {action.rival}'s {facility.name} has no Laborer at work to walk off"))
    if in_force(game, card.id, player=action.rival, square=key(action.x or 0, action.y or 0)) is not None:
        found.append(Reason("already-struck", f"player {action.rival}'s {facility.name} is on strike already"))
    return found


@on(ATTACK_RESOLVED, EFFECT)
def strike(game: RulesContext, attack: AttackInPlay, card: Card) -> None:
    assert attack.rival is not None and attack.x is not None and attack.y is not None
    where = key(attack.x, attack.y)
    game.state.lasting.append(Lasting(card.id, attack.attacker, attack.rival, square=where, left=TURNS))
    name = game.catalog.by_id[game.state.districts[attack.rival].squares[where].card].name
    game.state.log.append(f"the Laborer of player {attack.rival}'s {name} walks off: it does no work at the end of player {attack.rival}'s next turn")


@on(WORK_HALTED, EFFECT)
def struck(game: RulesContext, lasting: Lasting, card: Card) -> str | None:
    return "work"
