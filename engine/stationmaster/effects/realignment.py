"""Realignment: an unoccupied Mainline card becomes the terrain its map names."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card, MainlineModifier
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import CARD_PLAYED, PLAY_REFUSALS
from engine.stationmaster.rules.lookups import occupied, terrain_at

if TYPE_CHECKING:
    from engine.stationmaster.rules.actions import Play
    from engine.stationmaster.rules.context import RulesContext


@on(PLAY_REFUSALS, "realignment")
def realign_refusals(game: RulesContext, action: Play, card: Card) -> list[str]:
    assert isinstance(card, MainlineModifier)
    land = terrain_at(game, action.slot)
    if land is None or action.slot is None:
        return [Reason("needs-terrain-slot", f"{card.name} is played onto a Mainline terrain card: give its position (slot)")]
    reasons: list[str] = []
    sources = dict(card.realign)
    if land.id not in sources:
        names = ", ".join(game.catalog.by_id[t].name for t in sources)
        reasons.append(Reason("wrong-terrain", f"{card.name} only changes {names}; {land.name} is not one of them"))
    if occupied(game, action.slot):
        reasons.append(Reason("occupied", f"{card.name} needs an unoccupied card, and a train is on {land.name}"))
    return reasons


@on(CARD_PLAYED, "realignment")
def realign(game: RulesContext, action: Play, card: Card) -> None:
    assert isinstance(card, MainlineModifier) and action.slot is not None
    slot = game.state.mainline[action.slot]
    before = slot.card
    slot.printed = slot.printed or before
    slot.card = dict(card.realign)[before]
    slot.modifiers.append(card.id)
    game.state.log.append(f"{card.name}: {game.catalog.by_id[before].name} becomes {game.catalog.by_id[slot.card].name}")
