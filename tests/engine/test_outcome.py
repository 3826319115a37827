"""Shares of the win (engine.search.outcome)."""

from __future__ import annotations

from engine.search.outcome import win_shares


def test_the_top_score_wins_and_ties_share_the_win() -> None:
    assert win_shares([3, 5, 4]) == [0.0, 1.0, 0.0]
    assert win_shares([3, 5, 5]) == [0.0, 0.5, 0.5]
    assert win_shares([2, 2, 2, 2]) == [0.25, 0.25, 0.25, 0.25]
