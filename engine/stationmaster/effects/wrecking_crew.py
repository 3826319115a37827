"""Wrecking Crew: held, and spent to answer a Derailment or a Washout aimed
at you; the line is cleared at once, and the train or the card runs on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import ATTACK_ANSWERED
from engine.stationmaster.rules.response import aimed_at

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay


@on(ATTACK_ANSWERED, "wrecking-crew")
def wrecking_crew(game: RulesContext, attack: AttackInPlay, player: int, card: Card) -> None:
    game.state.log.append(f"player {player}'s {card.name} clears the line at once: {aimed_at(game, attack)} runs as before")
