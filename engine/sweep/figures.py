"""What a sweep keeps of one cell's simulation: the number of games, how
many times each score was reached, each card's draw, play and dead-draw
counts, and the totals behind the pack's own measure, if it has one
(``engine.pack.SweepMeasure``: each company's share value, say), and with
rivals how each seat won (alone, or tied with how many) and how the seat
that moved first did.

Counts only, never a rounded rate: a cell read back from the cache is then
the very same value as one just played, and the text and JSON made from it
the same bytes. The score counts are a histogram, which is also what a
chart of the spread will draw.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.pack import SimulationReport, SweepMeasure
from engine.sim.intervals import Moments


@dataclass(frozen=True)
class CardCounts:
    """One card over a cell's games (the pack's report says what each counts)."""

    id: str
    name: str
    drawn: int
    played: int
    dead: int

    def play_rate(self) -> float | None:
        """Plays per draw (None when never drawn)."""
        return self.played / self.drawn if self.drawn else None

    def dead_rate(self) -> float | None:
        """Dead draws per draw (None when never drawn)."""
        return self.dead / self.drawn if self.drawn else None


@dataclass(frozen=True)
class Spread:
    """The score spread: every seat's score of every game, pooled.
    Quartiles by linear interpolation between the ordered scores (the
    ``inclusive`` method of Python's ``statistics.quantiles``)."""

    minimum: int
    lower_quartile: float
    median: float
    upper_quartile: float
    maximum: int
    mean: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "min": self.minimum,
            "q1": round(self.lower_quartile, 4),
            "median": round(self.median, 4),
            "q3": round(self.upper_quartile, 4),
            "max": self.maximum,
            "mean": round(self.mean, 4),
        }


@dataclass(frozen=True)
class CellFigures:
    games: int
    scores: tuple[tuple[int, int], ...]  # (score, times reached), lowest score first
    cards: tuple[CardCounts, ...]  # in the report's order
    # The pack's measure by row, in its order: (row, sum, how many, sum of squares).
    measured: tuple[tuple[str, int, int, int], ...] = ()
    # With rivals: each seat's wins by how many seats shared them (the
    # first count alone, the second tied with one other, ...), and the same
    # for whichever seat moved first in each game. Empty for solitaire.
    seat_wins: tuple[tuple[int, ...], ...] = ()
    first_wins: tuple[int, ...] = ()
    # With rivals, game by game: the seats on the top score as a bit mask
    # (seat s is bit s). A matchup's games are paired across its seatings
    # by game number (``engine.sweep.matrix``), which the totals above lose.
    winners: tuple[int, ...] = ()

    @classmethod
    def from_report(cls, report: SimulationReport, measure: SweepMeasure | None = None, players: int = 1) -> CellFigures:
        """What a sweep keeps of ``report`` (of ``players`` seats); with the
        pack's ``measure``, its totals too."""
        values = list(report.score_values())
        counted = Counter(values)
        cards = tuple(CardCounts(c.id, c.name, c.drawn, c.played, c.dead) for c in report.cards.values())
        measured = () if measure is None else tuple((row, *totals) for row, totals in measure.totals(report).items())
        seat_wins: tuple[tuple[int, ...], ...] = ()
        first_wins: tuple[int, ...] = ()
        winners: list[int] = []
        if players > 1:
            seats = [[0] * players for _ in range(players)]
            first = [0] * players
            for game, mover in zip(range(0, len(values), players), report.first_seats()):
                scores = values[game : game + players]
                top = max(scores)
                tied = scores.count(top)
                winners.append(sum(1 << seat for seat, score in enumerate(scores) if score == top))
                for seat, score in enumerate(scores):
                    if score == top:
                        seats[seat][tied - 1] += 1
                if scores[mover] == top:
                    first[tied - 1] += 1
            seat_wins, first_wins = tuple(tuple(row) for row in seats), tuple(first)
        return cls(report.games, tuple(sorted(counted.items())), cards, measured, seat_wins, first_wins, tuple(winners))

    def share(self, seat: int) -> list[float]:
        """The seat's win share game by game: 1 for a win alone, 1/k for a
        win tied among k seats, 0 for a loss."""
        return [1 / mask.bit_count() if mask >> seat & 1 else 0.0 for mask in self.winners]

    def means(self) -> dict[str, float | None]:
        """The measure's mean by row (None for a row with nothing counted)."""
        return {row: total / count if count else None for row, total, count, _ in self.measured}

    def moments(self) -> dict[str, Moments]:
        """The measure's count, sum and sum of squares by row, for its intervals."""
        return {row: Moments(count, total, squares) for row, total, count, squares in self.measured}

    def score_moments(self) -> Moments:
        """Every seat's score of every game, as count, sum and sum of squares."""
        return Moments(sum(times for _, times in self.scores), math.fsum(score * times for score, times in self.scores), math.fsum(score * score * times for score, times in self.scores))

    def score_list(self) -> list[int]:
        return [score for score, times in self.scores for _ in range(times)]

    def spread(self) -> Spread:
        values = self.score_list()
        if len(values) < 2:
            q1 = median = q3 = float(values[0])
        else:
            q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return Spread(values[0], q1, median, q3, values[-1], math.fsum(values) / len(values))

    def to_dict(self) -> dict[str, Any]:
        """Plain data, for the cache: ``from_dict`` gives back an equal value."""
        return {
            "games": self.games,
            "scores": [[score, times] for score, times in self.scores],
            "cards": [[c.id, c.name, c.drawn, c.played, c.dead] for c in self.cards],
            "measured": [[row, total, count, squares] for row, total, count, squares in self.measured],
            "seatWins": [list(row) for row in self.seat_wins],
            "firstWins": list(self.first_wins),
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: Any) -> CellFigures:
        """The value ``to_dict`` gave; ValueError (saying what) for anything
        else, or for figures no simulation could have counted (a score
        listed twice or out of order, a count out of bounds, a card played
        or drawn dead more often than drawn). ``consistent`` checks them
        against the cell they stand for."""
        if not isinstance(data, dict) or set(data) != {"games", "scores", "cards", "measured", "seatWins", "firstWins", "winners"}:
            raise ValueError("not a cell's figures")
        games = data["games"]
        if not _whole(games) or not 1 <= games <= MAX_COUNT:
            raise ValueError("a bad game count")
        scores = data["scores"]
        if not isinstance(scores, list) or not scores or not all(isinstance(s, list) and len(s) == 2 and _whole(s[0]) and abs(s[0]) <= MAX_SCORE and _count(s[1]) and s[1] > 0 for s in scores):
            raise ValueError("bad score counts")
        if any(scores[i][0] >= scores[i + 1][0] for i in range(len(scores) - 1)):
            raise ValueError("score counts out of order or listed twice")
        cards = data["cards"]
        if not isinstance(cards, list) or not all(_card_row(row) for row in cards):
            raise ValueError("bad card counts")
        if len({row[0] for row in cards}) != len(cards):
            raise ValueError("a card listed twice")
        measured = data["measured"]
        if not isinstance(measured, list) or not all(_measured_row(row) for row in measured):
            raise ValueError("bad measure totals")
        if len({row[0] for row in measured}) != len(measured):
            raise ValueError("a measure row listed twice")
        seat_wins, first_wins = data["seatWins"], data["firstWins"]
        if not isinstance(seat_wins, list) or not all(isinstance(row, list) and len(row) == len(seat_wins) and all(_count(n) for n in row) for row in seat_wins):
            raise ValueError("bad seat wins")
        if not isinstance(first_wins, list) or len(first_wins) != len(seat_wins) or not all(_count(n) for n in first_wins):
            raise ValueError("bad first-seat wins")
        winners = data["winners"]
        if not isinstance(winners, list) or not all(_whole(mask) and 0 < mask < 1 << len(seat_wins) for mask in winners):
            raise ValueError("bad winners")
        return cls(
            games,
            tuple((s[0], s[1]) for s in scores),
            tuple(CardCounts(*row) for row in cards),
            tuple((r[0], r[1], r[2], r[3]) for r in measured),
            tuple(tuple(row) for row in seat_wins),
            tuple(first_wins),
            tuple(winners),
        )

    def inconsistency(self, games: int, players: int) -> str | None:
        """Why these figures cannot be ``games`` games of ``players`` seats
        (None when they can): every seat of every game has one score, and no
        card is drawn, or a measure counted, more often than the games
        allow. A cell read back from the cache, or handed back by a worker,
        is used only when this says nothing."""
        if self.games != games:
            return f"{self.games:,} games, not the {games:,} asked for"
        pooled = sum(times for _, times in self.scores)
        if pooled != games * players:
            return f"{pooled:,} scores for {games:,} games of {players} seats (there should be {games * players:,})"
        ceiling = games * PER_GAME
        for card in self.cards:
            if card.drawn > ceiling:
                return f"card {card.id!r} drawn {card.drawn:,} times in {games:,} games"
        if self.seat_wins and len(self.seat_wins) != players:
            return f"wins for {len(self.seat_wins)} seats in games of {players}"
        if any(sum(row) > games for row in self.seat_wins) or sum(self.first_wins) > games:
            return f"a seat won more than the {games:,} games"
        if self.seat_wins and len(self.winners) != games:
            return f"winners of {len(self.winners):,} games, not {games:,}"
        for seat, wins in enumerate(self.seat_wins):
            by_ties = [0] * players
            for mask in self.winners:
                if mask >> seat & 1:
                    by_ties[mask.bit_count() - 1] += 1
            if tuple(by_ties) != wins:
                return f"seat {seat}'s wins do not match the games' winners"
        for row, total, count, squares in self.measured:
            if count > ceiling or abs(total) > MAX_SCORE * max(count, 1) or squares < 0:
                return f"the measure's row {row!r} counts {count:,} (total {total:,}) in {games:,} games"
        return None


# Bounds far past anything a simulation counts, far below what would make
# the figures' arithmetic slow (a count of 10**300 expanded into a list).
MAX_COUNT = 10**9  # games in a cell, or times a count was reached
MAX_SCORE = 10**12  # the size of one score, or of one measured value
PER_GAME = 100_000  # draws of one card, or measured values, in one game


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: object) -> bool:
    return _whole(value) and 0 <= value <= MAX_COUNT * PER_GAME  # type: ignore[operator]


def _measured_row(row: object) -> bool:
    return (
        isinstance(row, list) and len(row) == 4 and isinstance(row[0], str) and _whole(row[1]) and abs(row[1]) <= MAX_COUNT * MAX_SCORE and _count(row[2])
        and _whole(row[3]) and 0 <= row[3] <= MAX_COUNT * MAX_SCORE * MAX_SCORE
    )  # fmt: skip


def _card_row(row: object) -> bool:
    if not (isinstance(row, list) and len(row) == 5 and isinstance(row[0], str) and isinstance(row[1], str) and all(_count(n) for n in row[2:])):
        return False
    drawn, played, dead = row[2:]
    return bool(played + dead <= drawn)
