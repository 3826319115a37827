"""A Station begins its company's railway at setup."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.trickoftherails.effects import on
from engine.trickoftherails.rules.events import RAILWAY_STARTED

if TYPE_CHECKING:
    from engine.trickoftherails.content.model import Card
    from engine.trickoftherails.rules.context import RulesContext


@on(RAILWAY_STARTED, "railway-start")
def railway_start(game: RulesContext, card: Card) -> None:
    assert card.company is not None
    game.state.railways[card.company] = [card.id]
