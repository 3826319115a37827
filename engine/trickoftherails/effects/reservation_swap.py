"""A Reservation holds a lane slot until a stock trick's winning card takes
its place; the Reservation then leaves the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.trickoftherails.effects import on
from engine.trickoftherails.rules.events import WINNER_CARD_RESERVED

if TYPE_CHECKING:
    from engine.trickoftherails.content.model import Card
    from engine.trickoftherails.rules.context import RulesContext
    from engine.trickoftherails.rules.state import Trick


@on(WINNER_CARD_RESERVED, "reservation-swap")
def reservation_swap(game: RulesContext, trick: Trick, card: Card, index: int) -> bool:
    assert trick.winner is not None
    played = trick.card_of(trick.winner)
    game.state.lane[index] = played
    game.state.removed.append(card.id)
    game.log(f"{game.catalog.by_id[played].name} takes the place of a {card.name} in the lane, which leaves the game")
    return True
