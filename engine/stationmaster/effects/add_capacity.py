"""Facility Modifiers: the card takes its square beside a host; its grant is
counted wherever the host's capacity is read (``district.capacity``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.district import place
from engine.stationmaster.rules.events import CARD_PLAYED

if TYPE_CHECKING:
    from engine.stationmaster.rules.actions import Play
    from engine.stationmaster.rules.context import RulesContext


@on(CARD_PLAYED, "add-capacity")
def add_capacity(game: RulesContext, action: Play, card: Card) -> None:
    assert action.x is not None and action.y is not None
    place(game, action.player, card, action.x, action.y, 0)
