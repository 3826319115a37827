"""Arbitration: held, and spent to answer a Strike aimed at you; the Laborer
stays at work."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import ATTACK_ANSWERED

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay


@on(ATTACK_ANSWERED, "arbitration")
def arbitration(game: RulesContext, attack: AttackInPlay, player: int, card: Card) -> None:
    game.state.log.append(f"{card.name}: the Laborer at ({attack.x}, {attack.y}) of player {player}'s district stays at work")
