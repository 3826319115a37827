"""Deed of Title: held, and spent to answer an Eminent Domain aimed at you;
the square stays yours, free to build on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import ATTACK_ANSWERED

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay


@on(ATTACK_ANSWERED, "deed-of-title")
def deed_of_title(game: RulesContext, attack: AttackInPlay, player: int, card: Card) -> None:
    game.state.log.append(f"player {player}'s {card.name}: ({attack.x}, {attack.y}) stays player {player}'s to build on")
