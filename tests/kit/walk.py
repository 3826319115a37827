"""A game walked forward at random, for tests of any pack that need a
position somewhere in the middle of play."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar


class Walkable(Protocol):
    def is_over(self) -> bool: ...

    def random_legal_action(self) -> object: ...

    # Any: each pack's apply takes its own Action type, and the walk only hands
    # back what random_legal_action gave.
    def apply(self, action: Any, /) -> object: ...


W = TypeVar("W", bound=Walkable)


def random_walk(game: W, steps: int) -> W:
    """``game`` after up to ``steps`` uniformly random legal actions (fewer
    if it ends first), each drawn from the game's own bot stream."""
    for _ in range(steps):
        if game.is_over():
            break
        action = game.random_legal_action()
        assert action is not None
        game.apply(action)
    return game
