"""Bots for Trick of the Rails: each picks one legal action through the
game's own API, drawing any chance from the game's bot stream, so a bot's
game replays from its seed."""

from __future__ import annotations

from collections.abc import Callable

from engine.trickoftherails.actions import Action
from engine.trickoftherails.game import Game

Bot = Callable[[Game], Action]


def random_bot(game: Game) -> Action:
    """Any legal action, uniformly."""
    action = game.random_legal_action()
    assert action is not None, "a game that is not over always has a legal action"
    return action


BOT_FUNCTIONS: dict[str, Bot] = {"random": random_bot}
BOTS: tuple[str, ...] = tuple(BOT_FUNCTIONS)
