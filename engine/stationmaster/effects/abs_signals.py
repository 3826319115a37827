"""ABS Signals: played onto a Mainline card, where trains cannot rear-end
each other (the Mainline Phase reads the slot's flag)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import CARD_PLAYED, PLAY_REFUSALS
from engine.stationmaster.rules.lookups import terrain_at

if TYPE_CHECKING:
    from engine.stationmaster.rules.actions import Play
    from engine.stationmaster.rules.context import RulesContext


@on(PLAY_REFUSALS, "abs-signals")
def abs_refusals(game: RulesContext, action: Play, card: Card) -> list[str]:
    land = terrain_at(game, action.slot)
    if land is None or action.slot is None:
        return [Reason("needs-terrain-slot", f"{card.name} goes onto a Mainline terrain card: give its position (slot)")]
    if game.state.mainline[action.slot].abs_signals:
        return [Reason("already-on-card", f"{land.name} already has {card.name}")]
    return []


@on(CARD_PLAYED, "abs-signals")
def abs_signals(game: RulesContext, action: Play, card: Card) -> None:
    assert action.slot is not None
    game.state.mainline[action.slot].abs_signals = True
    game.state.mainline[action.slot].modifiers.append(card.id)
    game.state.log.append(f"{card.name} guard Mainline position {action.slot}")
