"""Station Master's guide for the shared search (``engine.search.ismcts``):
a search only where a turn starts (a Draw, and from where, a switching
move, a Hold, a Red Flag), the greedy bot taking every other decision;
playouts by the greedy bot, on to the start of a turn at least ``horizon``
actions later, and there a value from the score difference."""

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


def turn_start(game: Game) -> bool:
    """Whether a turn is about to start: nothing drawn, played, let go or
    moved yet in the local phase."""
    s = game.state
    if s.phase != "local":
        return False
    turn = s.turn
    return not (turn.drawn or turn.played or turn.discarded or turn.switched)


def choose_searching(game: Game, iterations: int, horizon: int) -> Action | None:
    """The search's action: ``iterations`` deals a decision, playouts of
    ``horizon`` greedy actions before the score difference is read."""
    action: Action | None = choose(game, Guide(playout, horizon, value, searched=turn_start, settled=turn_start), Budget(iterations))
    return action
