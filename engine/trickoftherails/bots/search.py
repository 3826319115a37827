"""Trick of the Rails' guide for the shared search (``engine.search.ismcts``):
the search weighs the greedy bot's few best actions, a playout lets the
greedy bot finish the trick at hand, and there every seat is judged as the
greedy bot judges its own standing.

Measured with ``bench/ladder.py`` (seed 26, 50 deals from every seat), the
rungs this makes play about as well as greedy, not better: a judgement of
the position after one trick is greedy's own, so the search mostly agrees
with it, and deeper playouts cost more than the rungs may spend."""

from __future__ import annotations

from collections.abc import Sequence

from engine.search.ismcts import Budget, Guide, choose, value_of_margins
from engine.trickoftherails.bots import Outlook, _after, _best, _play_values, greedy_bot
from engine.trickoftherails.rules.actions import Action, Play
from engine.trickoftherails.rules.game import Game

# Actions a search weighs: the greedy bot's pick and its next best.
SHORTLIST = 3
# UCB1's exploration: the values of a trick's plays differ by a few points of
# standing, a few hundredths of a win share.
EXPLORATION = 0.2
# Points of standing that make one seat e times likelier to win than another.
SPREAD = 12.0


def playout(game: Game) -> Action | None:
    """The greedy bot: the search's playouts only finish the trick at hand,
    and a rival that plays as greedy does is the likeliest model of one."""
    return greedy_bot(game)


def value(game: Game) -> Sequence[float]:
    """Each seat's standing as the greedy bot judges its own (the worth of
    the companies it holds shares in, against the others' average), turned
    into shares of the win."""
    outlook = Outlook(game, game.to_act or 0)
    return value_of_margins([outlook.standing(p) for p in range(game.state.players)], SPREAD)


def settled(game: Game) -> bool:
    """No trick half played: the cards still to come would decide it."""
    return not game.state.trick.plays or game.state.phase != "play"


def shortlist(game: Game) -> list[Action]:
    """The greedy bot's pick first (on a copy, so the game's bot stream is
    left to the search), then its next best by the same values."""
    legal = game.legal_actions()
    if len(legal) <= 1:
        return legal
    twin = game.copy()
    me = legal[0].player
    values = _play_values(twin, me, legal) if isinstance(legal[0], Play) else [_after(twin, me, action) for action in legal]
    first = _best(twin.bot, legal, values)
    ranked = sorted(range(len(legal)), key=lambda i: -values[i])
    return [first, *[legal[i] for i in ranked if legal[i] != first][: SHORTLIST - 1]]


def choose_searching(game: Game, iterations: int, horizon: int = 0) -> Action:
    """The search's action, with ``iterations`` deals a decision and playouts
    of at least ``horizon`` greedy actions before the value is read."""
    action: Action = choose(game, Guide(playout, horizon, value, settled=settled, shortlist=shortlist), Budget(iterations, EXPLORATION))
    return action
