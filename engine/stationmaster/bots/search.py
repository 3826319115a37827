"""Station Master's guide for the shared search (``engine.search.ismcts``):
a search only where a turn starts (a Draw, and from where, a switching
move, a Hold, a Red Flag), among the greedy bot's few best actions, its own
pick standing unless the deals show another better; the greedy bot takes
every other decision. Playouts are the greedy bot's, on to the start of a
turn at least ``horizon`` actions later, and there a value from the score
difference.

Measured with ``bench/ladder.py`` (seed 26, 100 deals from both seats),
``ismcts-8`` plays about as well as greedy, not better: a few turns seldom
change the score, so the deals rarely tell the shortlisted actions apart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.search.ismcts import Budget, Guide, choose, value_of_margins
from engine.stationmaster.rules.actions import Action

if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game

# Actions a search weighs: the greedy bot's pick and its next best.
SHORTLIST = 3
# Points ahead that make a seat e times likelier to win than another: scores
# are small (a greedy game ends some 2 to 10 points each).
SPREAD = 1.5


def playout(game: Game) -> Action | None:
    from engine.stationmaster.bots import greedy_bot

    return greedy_bot(game)


def value(game: Game) -> Sequence[float]:
    return value_of_margins([float(s) for s in game.score()], SPREAD)


def shortlist(game: Game) -> list[Action]:
    """The greedy bot's own pick first (drawn from a copy's bot stream, so
    the game's is left to the search), then the next best of its ranks."""
    from engine.stationmaster.bots import greedy_bot, greedy_value
    from engine.stationmaster.bots.greedy import extra_loads
    from engine.stationmaster.rules.proposals import candidates

    first = greedy_bot(game.copy())
    if first is None:
        return []
    found = [first]
    ranked: dict[int, list[Action]] = {}
    for action in candidates(game) + extra_loads(game):
        ranked.setdefault(greedy_value(game, action), []).append(action)
    for value in sorted(ranked, reverse=True):
        for action in ranked[value]:
            if len(found) >= SHORTLIST:
                return found
            if action not in found and not game.check(action):
                found.append(action)
    return found


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
    action: Action | None = choose(game, Guide(playout, horizon, value, searched=turn_start, settled=turn_start, shortlist=shortlist), Budget(iterations))
    return action
