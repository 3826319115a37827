"""Station Master's bots: functions from a game to the action they take.

A bot chooses only from the game's bot stream (``game.bot``), never from the
rules' stream, so a bot's game is exactly its seed plus its recorded actions.

- ``random``: uniform among the legal actions (``Game.random_legal_action``).
- ``greedy``: ranks every proposed action with a fixed heuristic (see
  :func:`greedy_value`) and takes a legal one of the best rank, ties broken
  uniformly from ``game.bot``.
- ``paired-N``: at every decision of the local phase, greedy's pick and its
  next best of other cards or kinds raced on up to N shared deals of the
  hidden cards, greedy playouts read by each seat's potential; greedy's pick
  stands unless another is clearly better
  (``engine.stationmaster.bots.search``). The rungs and their budgets are
  ``SEARCH_RUNGS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from engine.stationmaster.bots.search import Rung
from engine.stationmaster.rules.actions import Action

# The rules engine is imported where it is used: ``stationmaster`` builds the
# ``simulate`` parser (which lists the bots) without loading the game.
if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game


Bot = Callable[["Game"], "Action | None"]


def random_bot(game: Game) -> Action | None:
    """Uniform among the legal actions, drawn from the game's bot stream."""
    return game.random_legal_action()


def greedy_value(game: Game, action: Action) -> int:
    """The greedy bot's rank of ``action`` (``engine.stationmaster.bots.greedy``)."""
    from engine.stationmaster.bots.greedy import greedy_value as value

    return value(game, action)


def greedy_bot(game: Game) -> Action | None:
    """The legal action of the best :func:`greedy_value`, ties broken
    uniformly from ``game.bot`` (proposals of one rank are drawn at random and
    checked until one is legal, as ``random_legal_action`` does)."""
    from engine.stationmaster.bots.greedy import choose

    return choose(game)


def searching(name: str) -> Bot:
    """The search bot (``engine.stationmaster.bots.search``), at the budget
    ``SEARCH_RUNGS`` gives the rung ``name`` (read at each decision)."""

    def bot(game: Game) -> Action | None:
        from engine.stationmaster.bots.search import choose_searching

        return choose_searching(game, SEARCH_RUNGS[name])

    return bot


# The search rungs and their budgets (engine.stationmaster.bots.search):
# deals of the hidden cards at most a decision, and how long a playout runs.
# paired-8 costs 5.5 CPU-s a 2-player game with it in both seats, deep-6
# (6 deals, playouts of 24 actions) 8.1 (bench/ladder.py). More deals bought
# nothing (16 over 8 on 200 deals: -0.006 [-0.026, +0.014]); longer
# playouts did. The Simulation page proves each step on its own deals
# (SITE_MATRIX in generator/stationmaster/simulation.py).
SEARCH_RUNGS: Final[dict[str, Rung]] = {"paired-8": Rung(8), "deep-6": Rung(6, horizon=24)}
BOT_FUNCTIONS: Final[dict[str, Bot]] = {"random": random_bot, "greedy": greedy_bot, **{name: searching(name) for name in SEARCH_RUNGS}}
# The skill ladder, weakest first: each rung beats the one below (bench/ladder.py).
LADDER: Final = ("random", "greedy", *SEARCH_RUNGS)
BOTS: Final = tuple(BOT_FUNCTIONS)
