"""What the rules and the effect handlers read of a game, in one small public module.

Handlers live apart from the core and must not reach into its private
functions; the few questions both ask (which train is this, which card is
on that Mainline position, what Enhancements does a district carry, may the
Switch option still move) are answered here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import InvalidActionError, Reason
from engine.stationmaster.content.model import Card, Enhancement, MainlineCard, OpponentCard
from engine.stationmaster.rules.state import GameState, Train

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def log(state: GameState, message: str) -> None:
    state.log.append(message)


def terrain(game: RulesContext, slot: int) -> MainlineCard:
    """The card a Mainline position shows, which must be terrain or a Division Point."""
    card = game.catalog.by_id[game.state.slot_card(game.state.mainline[slot])]
    assert isinstance(card, MainlineCard)
    return card


def find_train(game: RulesContext, train_id: str) -> Train | None:
    return next((t for t in game.state.trains if t.id == train_id), None)


def train(game: RulesContext, train_id: str) -> Train:
    """The train ``train_id``, or InvalidActionError: the action names nothing real."""
    found = find_train(game, train_id)
    if found is None:
        raise InvalidActionError(f"there is no train {train_id!r} on the Mainline")
    return found


def effect_of(card: Card) -> str | None:
    """The effect id a card carries in the content, if any."""
    effect = getattr(card, "effect", None)
    return effect if isinstance(effect, str) else None


def answers_of(card: Card) -> tuple[str, ...]:
    """The attacks a defence answers, as its content says (a card held in
    hand, or an Enhancement standing in a district); empty for any other card."""
    return card.answers if isinstance(card, (Enhancement, OpponentCard)) else ()


def district_enhancements(game: RulesContext, player: int) -> list[Enhancement]:
    """The Enhancements standing in ``player``'s district, in square order."""
    found = []
    for square in game.state.districts[player].squares.values():
        if square.enhancement:
            card = game.catalog.by_id[square.enhancement]
            if isinstance(card, Enhancement):
                found.append(card)
    return found


def move_budget_reasons(game: RulesContext) -> list[Reason]:
    """Switching moves (and sorting cars) are the Switch option of Local
    Operations, a limited number a turn."""
    s = game.state
    if s.turn.drawn or s.turn.played:
        return [Reason("switch-option-closed", "switching is the Switch option of Local Operations; this turn has already " + ("drawn" if s.turn.drawn else "played"))]
    if s.turn.switched and s.moves_left <= 0:
        return [Reason("switch-moves-used", f"the Switch option allows {game.catalog.game.table.switch_moves} moves a turn, and they are used")]
    return []


def use_move(game: RulesContext) -> None:
    """Take the Switch option (if not yet taken) and spend one of its moves."""
    s = game.state
    if not s.turn.switched:
        s.turn.switched = True
        s.moves_left = game.catalog.game.table.switch_moves
    s.moves_left -= 1


def terrain_at(game: RulesContext, slot: int | None) -> MainlineCard | None:
    """The terrain card at Mainline position ``slot``, or None when there is
    no slot or it is an Office or a Division Point."""
    if slot is None or game.state.mainline[slot].kind != "terrain":
        return None
    card = game.catalog.by_id[game.state.mainline[slot].card]
    assert isinstance(card, MainlineCard)
    return card


def occupied(game: RulesContext, slot: int) -> bool:
    """Whether any train is on Mainline position ``slot``."""
    return any(t.position == slot for t in game.state.trains)
