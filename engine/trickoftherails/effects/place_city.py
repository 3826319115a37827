"""A City in the lane makes the trick an operating trick: the winner adds the
City to an end of any railway, then every played card is laid."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.trickoftherails.effects import on
from engine.trickoftherails.rules.dispatch import lay_queue
from engine.trickoftherails.rules.events import LANE_CARD_WON
from engine.trickoftherails.rules.state import Pending

if TYPE_CHECKING:
    from engine.trickoftherails.content.model import Card
    from engine.trickoftherails.rules.context import RulesContext
    from engine.trickoftherails.rules.state import Trick


@on(LANE_CARD_WON, "place-city")
def place_city(game: RulesContext, trick: Trick, card: Card) -> None:
    assert trick.winner is not None
    game.state.pending = [Pending(trick.winner, card.id, "city"), *lay_queue(game, trick)]
