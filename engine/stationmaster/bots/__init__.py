"""Station Master's bots: functions from a game to the action they take.

A bot chooses only from the game's bot stream (``game.bot``), never from the
rules' stream, so a bot's game is exactly its seed plus its recorded actions.

- ``random``: uniform among the legal actions (``Game.random_legal_action``).
- ``greedy``: ranks every proposed action with a fixed heuristic (see
  :func:`greedy_value`) and takes a legal one of the best rank, ties broken
  uniformly from ``game.bot``.
- ``lookahead``: at the choices that shape a turn, tries the greedy bot's few
  best actions on copies of the game with the hidden cards dealt afresh and
  played out by the greedy bot, and takes the best on average
  (``engine.stationmaster.bots.lookahead``; far slower than the others).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from engine.stationmaster.rules.actions import Action

# The rules engine is imported where it is used: ``stationmaster`` builds the
# ``simulate`` parser (which lists the bots) without loading the game.
if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game

BOTS: Final = ("random", "greedy", "lookahead")
# The skill ladder, weakest first: the bots the Simulation page's matchup
# matrix plays against each other. Lookahead is left off: at some 80 CPU
# seconds a two-player game it is too slow to simulate with.
LADDER: Final = ("random", "greedy")

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


def lookahead_bot(game: Game) -> Action | None:
    """Monte Carlo over determinized hidden information (``engine.stationmaster.bots.lookahead``)."""
    from engine.stationmaster.bots.lookahead import choose

    return choose(game)


BOT_FUNCTIONS: Final[dict[str, Bot]] = {"random": random_bot, "greedy": greedy_bot, "lookahead": lookahead_bot}
