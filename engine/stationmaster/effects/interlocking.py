"""Interlocking: a train arriving at a full Office is held at the Limits until
an A/D track frees, instead of colliding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import OFFICE_FULL

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import Train


@on(OFFICE_FULL, "interlocking")
def interlocking(game: RulesContext, train: Train, player: int, card: Card) -> bool:
    game.state.log.append(f"player {player}'s {card.name} holds {game.catalog.by_id[train.card].name} at the Limits until an A/D track frees")
    return True
