"""Trick of the Rails' guide for the shared search (``engine.search.ismcts``):
how a playout plays, and what a position is worth to each seat when the
playout stops before the end."""

from __future__ import annotations

from collections.abc import Sequence

from engine.search.ismcts import Budget, Guide, choose, value_of_margins
from engine.trickoftherails.bots import Outlook
from engine.trickoftherails.rules.actions import Action
from engine.trickoftherails.rules.game import Game

# Points of standing that make one seat e times likelier to win than another.
SPREAD = 12.0


def playout(game: Game) -> Action | None:
    return game.random_legal_action()


def value(game: Game) -> Sequence[float]:
    """Each seat's standing as the greedy bot judges its own (the worth of
    the companies it holds shares in, against the others' average), turned
    into shares of the win."""
    outlook = Outlook(game, game.to_act or 0)
    return value_of_margins([outlook.standing(p) for p in range(game.state.players)], SPREAD)


def settled(game: Game) -> bool:
    """No trick half played: the cards still to come would decide it."""
    return not game.state.trick.plays or game.state.phase != "play"


def choose_searching(game: Game, iterations: int, horizon: int = 0) -> Action:
    """The search's action, with ``iterations`` deals a decision and playouts
    of ``horizon`` random actions before the value is read."""
    action: Action = choose(game, Guide(playout, horizon, value, settled=settled), Budget(iterations))
    return action
