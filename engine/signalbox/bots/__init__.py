"""Signal Box's bots: only a random one."""

from __future__ import annotations

from collections.abc import Callable

from engine.signalbox.rules.game import Game, Take

Bot = Callable[[Game], Take]


def random_bot(game: Game) -> Take:
    """Any legal action, uniformly, from the game's bot stream."""
    return game.bot.choice(game.legal_actions())


BOT_FUNCTIONS: dict[str, Bot] = {"random": random_bot}
BOTS: tuple[str, ...] = tuple(BOT_FUNCTIONS)
