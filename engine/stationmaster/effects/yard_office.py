"""Yard Office: a Bad Order played against the district is answered, the car
repaired where it stands. Bad Order is never dealt, so only a test reaches it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.events import BAD_ORDER_ANSWERED

if TYPE_CHECKING:
    from engine.stationmaster.game import Game
    from engine.stationmaster.state import Train


@on(BAD_ORDER_ANSWERED, "yard-office")
def yard_office(game: Game, player: int, train: Train, card: Card) -> bool:
    game.state.log.append(f"player {player}'s {card.name} repairs the car: the attack on it is answered")
    return True
