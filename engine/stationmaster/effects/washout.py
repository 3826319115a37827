"""Washout: an unoccupied Mainline terrain card washes out, and no train
starts onto it until it is repaired, a Day later (as many Mainline Phases as
a Day has Stages). It is aimed at no one player: every rival may answer it,
and Wrecking Crew does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.actions import Attack
from engine.stationmaster.rules.events import ATTACK_PROPOSALS, ATTACK_REFUSALS, ATTACK_RESOLVED, LINE_CLOSED
from engine.stationmaster.rules.lasting import in_force
from engine.stationmaster.rules.lookups import occupied, terrain_at
from engine.stationmaster.rules.state import Lasting

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay

EFFECT = "washout"


@on(ATTACK_PROPOSALS, EFFECT)
def washout_targets(game: RulesContext, player: int, card: Card) -> list[Attack]:
    return [Attack(player, card.id, slot=i) for i, slot in enumerate(game.state.mainline) if slot.kind == "terrain"]


@on(ATTACK_REFUSALS, EFFECT)
def washout_refusals(game: RulesContext, action: Attack, card: Card) -> list[str]:
    land = terrain_at(game, action.slot)
    if land is None or action.slot is None:
        return [Reason("needs-terrain-slot", f"{card.name} is played on a Mainline terrain card: give its position (slot)")]
    found: list[str] = []
    if occupied(game, action.slot):
        found.append(Reason("occupied", f"a train is on the {land.name} at Mainline position {action.slot}"))
    if in_force(game, card.id, slot=action.slot) is not None:
        found.append(Reason("already-washed-out", f"the {land.name} at Mainline position {action.slot} is washed out already"))
    return found


@on(ATTACK_RESOLVED, EFFECT)
def washout(game: RulesContext, attack: AttackInPlay, card: Card) -> None:
    assert attack.slot is not None
    phases = game.catalog.game.table.stages_per_day
    game.state.lasting.append(Lasting(card.id, attack.attacker, None, slot=attack.slot, left=phases))
    land = terrain_at(game, attack.slot)
    assert land is not None
    game.state.log.append(f"the {land.name} at Mainline position {attack.slot} washes out: no train starts onto it for the next {phases} Mainline Phases")


@on(LINE_CLOSED, EFFECT)
def washed_out(game: RulesContext, lasting: Lasting, card: Card) -> str | None:
    land = terrain_at(game, lasting.slot)
    name = land.name if land is not None else "card"
    return f"the {name} at Mainline position {lasting.slot} is washed out until it is repaired"
