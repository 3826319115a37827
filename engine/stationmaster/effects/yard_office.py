"""Yard Office: standing in a district, it answers a Bad Order played there
at once (the content says what it answers): the car is repaired on the spot
and stays in its train."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import ATTACK_ANSWERED

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay


@on(ATTACK_ANSWERED, "yard-office")
def yard_office(game: RulesContext, attack: AttackInPlay, player: int, card: Card) -> None:
    game.state.log.append(f"player {player}'s {card.name} repairs the car on the spot: it stays in its train")
