"""Opponent-directed attacks resolved at the point of attack. None is dealt
yet, so no solitaire game gets here; the defences are built and tested so a
deck that deals the attacks finds them working."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.effects import load_handlers
from engine.stationmaster.events import BAD_ORDER_ANSWERED
from engine.stationmaster.lookups import district_enhancements
from engine.stationmaster.state import OFFICE_SQUARE, Train

if TYPE_CHECKING:
    from engine.stationmaster.game import Game


def resolve_bad_order(game: Game, player: int, train: Train) -> None:
    """A Bad Order played at ``player``'s district: the last car of a train
    standing there is set out, unless a card of the district answers it."""
    registry = load_handlers()
    for card in district_enhancements(game, player):
        answer = registry.get_handler(BAD_ORDER_ANSWERED, card.effect)
        if answer is not None and answer(game, player, train, card):
            return
    if train.cars:
        car = train.cars.pop()
        game.state.districts[player].squares[OFFICE_SQUARE].cars.append(car)
        game.state.log.append(f"the attack on its cars sets out a {car.type} from {game.catalog.by_id[train.card].name}")
