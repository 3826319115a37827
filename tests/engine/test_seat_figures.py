"""The seat figures every simulation report prints, with seats alone and in
sides (teams): who won, alone or shared, and by how much."""

from __future__ import annotations

import pytest

from engine.sim.seat_figures import SeatFigures


def test_seats_alone_a_tie_is_a_shared_win_with_no_margin() -> None:
    figures = SeatFigures(3)
    figures.add([10, 30, 30])
    figures.add([50, 20, 10])
    assert figures.wins == [1, 0, 0] and figures.shared_wins == [0, 1, 1] and figures.shared_games == 1
    assert figures.leads == [0, 30]


def test_a_sides_win_is_a_win_for_each_of_its_seats_and_the_margin_is_between_sides() -> None:
    figures = SeatFigures(4, sides=((0, 2), (1, 3)))
    figures.add([90, 60, 90, 60])
    figures.add([40, 40, 40, 40])
    assert figures.wins == [1, 0, 1, 0]
    assert figures.shared_wins == [1, 1, 1, 1] and figures.shared_games == 1
    assert figures.leads == [30, 0]
    assert figures.to_dict()["sides"] == [[0, 2], [1, 3]]


def test_sides_must_cover_each_seat_once_and_hold_one_score() -> None:
    with pytest.raises(ValueError, match="each of the 4 seats once"):
        SeatFigures(4, sides=((0, 1), (1, 3)))
    figures = SeatFigures(4, sides=((0, 2), (1, 3)))
    with pytest.raises(ValueError, match="side's score"):
        figures.add([90, 60, 80, 60])
