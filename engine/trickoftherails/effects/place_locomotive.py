"""A Locomotive in the lane makes the trick an operating trick: the winner
puts it at the head of a railway that has none yet, then every played card
is laid. With every railway already pulled, it leaves the game unplaced."""

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


@on(LANE_CARD_WON, "place-locomotive")
def place_locomotive(game: RulesContext, trick: Trick, card: Card) -> None:
    assert trick.winner is not None
    s = game.state
    lays = lay_queue(game, trick)
    if len(s.locomotives) == len(s.railways):
        s.removed.append(card.id)
        game.log(f"every railway has a locomotive: {card.name} leaves the game")
        s.pending = lays
        return
    s.pending = [Pending(trick.winner, card.id, "locomotive"), *lays]
