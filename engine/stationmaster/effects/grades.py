"""Grade cards (Brakeman, Air Brakes, Helpers): played onto a Heavy Grade,
they take Stages off a crossing in one direction; the crossing time reads them
from the Mainline position, so playing one is only placing it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card, MainlineModifier
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import CARD_PLAYED, PLAY_REFUSALS
from engine.stationmaster.rules.lookups import terrain_at

if TYPE_CHECKING:
    from engine.stationmaster.rules.actions import Play
    from engine.stationmaster.rules.context import RulesContext


def grade_refusals(game: RulesContext, action: Play, card: Card) -> list[str]:
    assert isinstance(card, MainlineModifier)
    land = terrain_at(game, action.slot)
    if land is None or action.slot is None:
        return [Reason("needs-terrain-slot", f"{card.name} is played onto a Mainline terrain card: give its position (slot)")]
    slot = game.state.mainline[action.slot]
    reasons: list[str] = []
    targets = card.play_on if isinstance(card.play_on, tuple) else ()
    if land.id not in targets:
        names = ", ".join(game.catalog.by_id[t].name for t in targets)
        reasons.append(Reason("wrong-terrain", f"{card.name} may only be played on {names}, not on {land.name}"))
    if card.requires and card.requires not in slot.modifiers:
        reasons.append(Reason("needs-earlier-card", f"{card.name} needs {game.catalog.by_id[card.requires].name} already on that card"))
    if card.id in slot.modifiers:
        reasons.append(Reason("already-on-card", f"that {land.name} already has {card.name}"))
    return reasons


def place_modifier(game: RulesContext, action: Play, card: Card) -> None:
    assert action.slot is not None
    game.state.mainline[action.slot].modifiers.append(card.id)
    game.state.log.append(f"{card.name} is played onto Mainline position {action.slot}")


for _effect in ("grade-brakeman", "grade-airbrakes", "grade-helpers"):
    on(PLAY_REFUSALS, _effect)(grade_refusals)
    on(CARD_PLAYED, _effect)(place_modifier)
