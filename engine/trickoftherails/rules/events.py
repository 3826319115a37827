"""Trick of the Rails' events: the hook points its rules raise for card
effects. The core reads the effect a card carries in the content, asks the
registry for that effect's handler of the event, and calls it; it never
names an effect itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from engine.effects.registry import Event

if TYPE_CHECKING:
    from engine.trickoftherails.content.model import Card
    from engine.trickoftherails.rules.context import RulesContext
    from engine.trickoftherails.rules.state import Trick


class RailwayStarted(Protocol):
    """At setup, a card begins its company's railway (before the starting track)."""

    def __call__(self, game: RulesContext, card: Card) -> None: ...


class LaneCardWon(Protocol):
    """A trick is won while ``card`` is the leftmost lane card: it decides
    what the trick is for. The core has taken it off the lane."""

    def __call__(self, game: RulesContext, trick: Trick, card: Card) -> None: ...


class WinnerCardReserved(Protocol):
    """A stock trick's winning card meets ``card``, the leftmost Reservation
    still in the lane; the handler says whether it took the card."""

    def __call__(self, game: RulesContext, trick: Trick, card: Card, index: int) -> bool: ...


class LocomotiveFollows(Protocol):
    """A locomotive that brings ``card`` was placed by ``player``; ``card``
    goes where its rule says (or is queued for that player to place)."""

    def __call__(self, game: RulesContext, player: int, card: Card) -> None: ...


RAILWAY_STARTED: Event[RailwayStarted] = Event("railway-started")
LANE_CARD_WON: Event[LaneCardWon] = Event("lane-card-won")
WINNER_CARD_RESERVED: Event[WinnerCardReserved] = Event("winner-card-reserved")
LOCOMOTIVE_FOLLOWS: Event[LocomotiveFollows] = Event("brought-locomotive")
