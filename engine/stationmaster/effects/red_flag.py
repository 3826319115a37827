"""Red Flag: held (it raises the hand limit, read from the card), and spent
by its own action to hold a train where it stands for a Mainline Phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.actions import Action, RedFlag
from engine.stationmaster.rules.events import HELD_CARD_REFUSALS, HELD_CARD_SPENT
from engine.stationmaster.rules.lookups import find_train

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


@on(HELD_CARD_REFUSALS, "red-flag", kind=RedFlag)
def red_flag_refusals(game: RulesContext, action: Action, card: Card) -> list[str]:
    assert isinstance(action, RedFlag)
    if find_train(game, action.train) is None:
        return [Reason("no-such-train", f"there is no train {action.train!r} on the Mainline")]
    return []


@on(HELD_CARD_SPENT, "red-flag", kind=RedFlag)
def red_flag(game: RulesContext, action: Action, card: Card) -> None:
    assert isinstance(action, RedFlag)
    train = find_train(game, action.train)
    assert train is not None
    train.held += 1
    game.state.log.append(f"a {card.name} holds {game.catalog.by_id[train.card].name} where it stands for a Mainline Phase")
