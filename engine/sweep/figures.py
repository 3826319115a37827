"""What a sweep keeps of one cell's simulation: the number of games, how
many times each score was reached, each card's draw, play and dead-draw
counts, and the totals behind the pack's own measure, if it has one
(``engine.pack.SweepMeasure``: each company's share value, say).

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
    # The pack's measure by row, in its order: (row, sum, how many).
    measured: tuple[tuple[str, int, int], ...] = ()

    @classmethod
    def from_report(cls, report: SimulationReport, measure: SweepMeasure | None = None) -> CellFigures:
        """What a sweep keeps of ``report``; with the pack's ``measure``, its totals too."""
        counted = Counter(report.score_values())
        cards = tuple(CardCounts(c.id, c.name, c.drawn, c.played, c.dead) for c in report.cards.values())
        measured = () if measure is None else tuple((row, total, count) for row, (total, count) in measure.totals(report).items())
        return cls(report.games, tuple(sorted(counted.items())), cards, measured)

    def means(self) -> dict[str, float | None]:
        """The measure's mean by row (None for a row with nothing counted)."""
        return {row: total / count if count else None for row, total, count in self.measured}

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
            "measured": [[row, total, count] for row, total, count in self.measured],
        }

    @classmethod
    def from_dict(cls, data: Any) -> CellFigures:
        """The value ``to_dict`` gave; ValueError (saying what) for anything else."""
        if not isinstance(data, dict) or set(data) != {"games", "scores", "cards", "measured"}:
            raise ValueError("not a cell's figures")
        games = data["games"]
        if not _whole(games) or games < 1:
            raise ValueError("a bad game count")
        scores = data["scores"]
        if not isinstance(scores, list) or not scores or not all(isinstance(s, list) and len(s) == 2 and all(map(_whole, s)) and s[1] > 0 for s in scores):
            raise ValueError("bad score counts")
        cards = data["cards"]
        if not isinstance(cards, list) or not all(_card_row(row) for row in cards):
            raise ValueError("bad card counts")
        measured = data["measured"]
        if not isinstance(measured, list) or not all(_measured_row(row) for row in measured):
            raise ValueError("bad measure totals")
        return cls(games, tuple((s[0], s[1]) for s in scores), tuple(CardCounts(*row) for row in cards), tuple((r[0], r[1], r[2]) for r in measured))


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _measured_row(row: object) -> bool:
    return isinstance(row, list) and len(row) == 3 and isinstance(row[0], str) and _whole(row[1]) and _whole(row[2]) and row[2] >= 0


def _card_row(row: object) -> bool:
    return isinstance(row, list) and len(row) == 5 and isinstance(row[0], str) and isinstance(row[1], str) and all(_whole(n) and n >= 0 for n in row[2:])
