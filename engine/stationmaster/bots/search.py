"""Station Master's guide for the shared search (``engine.search.ismcts``):
playouts by the greedy bot, a value from the score difference where a
playout stops, and a search only at the choices that shape a turn (how it
starts, and which card is played or let go after a Draw); the greedy bot
takes every other decision."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.search.ismcts import Budget, Guide, choose, value_of_margins
from engine.stationmaster.rules.actions import Action

if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game

# Points ahead that make a seat e times likelier to win than another: scores
# are small (a greedy game ends some 2 to 10 points each).
SPREAD = 1.5


def playout(game: Game) -> Action | None:
    from engine.stationmaster.bots import greedy_bot

    return greedy_bot(game)


def value(game: Game) -> Sequence[float]:
    return value_of_margins([float(s) for s in game.score()], SPREAD)


def turn_choice(game: Game) -> bool:
    """Whether this is one of the two choices that shape a turn: how it
    starts (a Draw, and from where, a switching move, a Hold, a Red Flag)
    or, after a Draw, which card is played or let go."""
    s = game.state
    if s.phase != "local":
        return False
    turn = s.turn
    fresh = not (turn.drawn or turn.played or turn.discarded or turn.switched)
    return fresh or (turn.drawn and not turn.played and not turn.discarded)


def choose_searching(game: Game, iterations: int, horizon: int) -> Action | None:
    """The search's action: ``iterations`` deals a decision, playouts of
    ``horizon`` greedy actions before the score difference is read."""
    action: Action | None = choose(game, Guide(playout, horizon, value, turn_choice), Budget(iterations))
    return action
