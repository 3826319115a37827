"""The [∞]: it comes into play the moment the locomotive that brings it is
placed. In the basic game it goes to the one railway still without a
locomotive; in the Expert game (or should more than one railway be free)
the player who placed the other chooses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.trickoftherails.effects import on
from engine.trickoftherails.rules.events import LOCOMOTIVE_FOLLOWS
from engine.trickoftherails.rules.state import Pending

if TYPE_CHECKING:
    from engine.trickoftherails.content.model import Card
    from engine.trickoftherails.rules.context import RulesContext


@on(LOCOMOTIVE_FOLLOWS, "locomotive-follows")
def locomotive_follows(game: RulesContext, player: int, card: Card) -> None:
    s = game.state
    free = [company for company in s.railways if company not in s.locomotives]
    if not free:
        s.removed.append(card.id)
        game.log(f"every railway has a locomotive: {card.name} leaves the game")
    elif len(free) == 1 and game.rules["variant"] != "expert":
        s.locomotives[free[0]] = card.id
        game.log(f"{card.name} goes at once to the {game.catalog.company(free[0]).name} railway, the last without a locomotive")
    else:
        s.pending.insert(0, Pending(player, card.id, "locomotive"))
