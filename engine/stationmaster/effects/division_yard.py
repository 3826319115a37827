"""Division Yard: the district's Office may make up Extras as a Division Point
does, whatever the extraStart house rule says. The core asks whether a
district carries an effect subscribed here before it applies the house rule."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import EXTRA_MADE_UP

if TYPE_CHECKING:
    from engine.stationmaster.rules.actions import Play
    from engine.stationmaster.rules.context import RulesContext


@on(EXTRA_MADE_UP, "division-yard")
def division_yard(game: RulesContext, action: Play, card: Card) -> None:
    game.state.log.append(f"an Extra is made up in player {action.player}'s {card.name}")
