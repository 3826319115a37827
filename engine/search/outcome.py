"""How a finished game's result turns into each seat's share of the win:
the value every search rung of every pack plays for, and the figure the
ladder bench compares rungs by. Nothing here names a game."""

from __future__ import annotations

from collections.abc import Sequence


def win_shares(scores: Sequence[int]) -> list[float]:
    """Each seat's share of the win: the top score wins, and seats tied on it
    share the win equally."""
    top = max(scores)
    winners = sum(1 for s in scores if s == top)
    return [1.0 / winners if s == top else 0.0 for s in scores]
