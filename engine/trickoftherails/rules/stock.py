"""A stock trick, shared by every lane card that is a share prize (an
Exchange, or a Railway card a Reservation left in the lane): the winner takes
the lane card as a share; the winner's own card fills the leftmost
Reservation, or leaves the game; everyone else keeps their card as a share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.trickoftherails.effects import load_handlers
from engine.trickoftherails.rules.events import WINNER_CARD_RESERVED

if TYPE_CHECKING:
    from engine.trickoftherails.content.model import Card
    from engine.trickoftherails.rules.context import RulesContext
    from engine.trickoftherails.rules.state import Trick


def stock_trick(game: RulesContext, trick: Trick, card: Card) -> None:
    s = game.state
    won_by = trick.winner
    assert won_by is not None
    s.shares[won_by].append(card.id)
    played = trick.card_of(won_by)
    registry = load_handlers()
    holds = registry.subscribed(WINNER_CARD_RESERVED)
    by_id = game.catalog.by_id
    taken = False
    for index, lane_id in enumerate(s.lane):
        lane_card = by_id[lane_id]
        if lane_card.effect in holds:
            reserve = registry.get_handler(WINNER_CARD_RESERVED, lane_card.effect)
            assert reserve is not None
            taken = reserve(game, trick, lane_card, index)
            break
    if not taken:
        s.removed.append(played)
        game.log(f"{game.catalog.by_id[played].name} leaves the game")
    for player, other in trick.plays:
        if player != won_by:
            s.shares[player].append(other)
    game.log(f"player {won_by} takes {card.name} as a share; the others keep their cards as shares")
