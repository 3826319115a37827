"""A matchup matrix: bots of a ladder played against each other, for any
game, through the sweep's own cells (so it caches, resumes, and runs on a
Dask cluster like any sweep).

For each player count N and each rung A:

- a *self-play* cell: A in every seat. It gives the first-player win rate
  at that rung (how often the seat that moved first won), and the rung's
  card and measure figures (dead draws, share values), which say which
  findings hold as the players get better;
- for each other rung B, N *matchup* cells: A in one seat and B in every
  other, A's seat going round the table (seat 0, then 1, ...), every cell
  playing the same seeded games. A's win share over the N cells, against
  the fair share 1/N, is the matrix's entry (A, B). At two players the
  cells of (A, B) and (B, A) are the same ones, played once.

A win share counts a win alone as 1 and a win tied among k seats as 1/k,
so the shares of a game's seats add up to 1; its interval is Wilson's,
counting the share as successes in games. The verdicts (a rung beats
another, the first seat is favoured) are corrected for how many of them
the matrix makes (Bonferroni, ``engine.sim.intervals``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidActionError, UsageError
from engine.pack import AnyPack, Configuration
from engine.sim.intervals import CONFIDENCE, Interval, family_confidence, wilson
from engine.sweep.figures import CellFigures
from engine.sweep.grid import Cell, Grid


def matrix_grid(pack: AnyPack, catalog: Any, rungs: Sequence[str], players: Sequence[int]) -> Grid:
    """The cells of the matrix of ``rungs`` (in ladder order, weakest first)
    at each of ``players``, every house rule at its default: per count, each
    rung's self-play cell, then its matchups against every other rung.
    UsageError for an unknown bot, fewer than two rungs, a solitaire count,
    or a count the game cannot seat."""
    if len(rungs) < 2:
        raise UsageError("a matchup matrix needs at least two bots")
    for bot in rungs:
        if bot not in pack.bots:
            raise UsageError(f"--bot {bot}: game '{pack.id}' has no such bot; its bots: {', '.join(pack.bots)}")
    rules = tuple(sorted(pack.house_rules(catalog, {}).items()))
    cells: list[Cell] = []
    seen: set[tuple[str, ...]] = set()
    for count in players:
        if count < 2:
            raise UsageError(f"--players {count}: a matchup needs rivals (2 players or more)")
        try:
            pack.new_game(catalog, Configuration(count, dict(rules), f"{count} players"), 0)
        except InvalidActionError as exc:
            raise UsageError(f"the matrix at {count} players cannot be played: {exc}") from None
        for rung in rungs:
            cells.append(Cell(count, rung, rules, ()))
            for other in rungs:
                if other == rung:
                    continue
                for seat in range(count):
                    seats = tuple(rung if place == seat else other for place in range(count))
                    if seats not in seen:
                        seen.add(seats)
                        cells.append(Cell(count, rung, rules, (), seats))
    return Grid((), tuple(players), tuple(rungs), tuple(cells), 0)


def is_matrix(grid: Grid) -> bool:
    """Whether ``grid`` is a matchup matrix (its cells seat different bots)."""
    return any(cell.seats is not None for cell in grid.cells)


def win_points(figures: CellFigures, seat: int) -> float:
    """The seat's win share summed over the cell's games (a tie among k counts 1/k)."""
    return sum(count / (tied + 1) for tied, count in enumerate(figures.seat_wins[seat]))


@dataclass(frozen=True)
class Matchup:
    """Rung ``bot`` in one seat against ``against`` in every other, at ``players``."""

    players: int
    bot: str
    against: str
    points: float  # win shares summed over every game of every seating
    games: int  # games in all (the seatings' together)
    interval: Interval  # at CONFIDENCE
    sure: bool  # the corrected interval excludes the fair share

    @property
    def fair(self) -> float:
        return 1 / self.players

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players, "bot": self.bot, "against": self.against, "winShare": round(self.interval.value, 4),
            "interval": self.interval.rounded(), "games": self.games, "fairShare": round(self.fair, 4), "differsFromFair": self.sure,
        }  # fmt: skip


@dataclass(frozen=True)
class FirstSeat:
    """At ``players``, ``bot`` in every seat: how the seat that moved first did."""

    players: int
    bot: str
    points: float
    games: int
    interval: Interval
    sure: bool

    @property
    def fair(self) -> float:
        return 1 / self.players

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players, "bot": self.bot, "winShare": round(self.interval.value, 4), "interval": self.interval.rounded(),
            "games": self.games, "fairShare": round(self.fair, 4), "differsFromFair": self.sure,
        }  # fmt: skip


@dataclass(frozen=True)
class Matrix:
    matchups: tuple[Matchup, ...]  # by player count, then rung, then opponent, in ladder order
    first_seats: tuple[FirstSeat, ...]  # by player count, then rung
    self_play: tuple[tuple[int, str, int], ...]  # (players, rung, the cell's index) of each self-play cell
    comparisons: int  # verdicts the matrix makes, what the correction divides by
    confidence: float  # each verdict's corrected confidence

    def entry(self, players: int, bot: str, against: str) -> Matchup | None:
        return next((m for m in self.matchups if (m.players, m.bot, m.against) == (players, bot, against)), None)


def matrix(grid: Grid, figures: Sequence[CellFigures]) -> Matrix:
    """The matrix's entries and first-seat rates, from its cells' figures."""
    shares: dict[tuple[int, str, str], list[float]] = {}
    first: list[tuple[int, str, float, int]] = []
    self_play: list[tuple[int, str, int]] = []
    for index, (cell, found) in enumerate(zip(grid.cells, figures)):
        if not found.seat_wins:
            continue
        if cell.seats is None:
            self_play.append((cell.players, cell.bot, index))
            first.append((cell.players, cell.bot, sum(count / (tied + 1) for tied, count in enumerate(found.first_wins)), found.games))
            continue
        for bot in set(cell.seats):
            rivals = {seat for seat in cell.seats if seat != bot}
            if cell.seats.count(bot) != 1 or len(rivals) != 1:
                continue
            total = shares.setdefault((cell.players, bot, rivals.pop()), [0.0, 0])
            total[0] += win_points(found, cell.seats.index(bot))
            total[1] += found.games
    comparisons = len(shares) + len(first)
    confidence = family_confidence(comparisons)
    matchups = []
    for players in grid.players:
        for bot in grid.bots:
            for against in grid.bots:
                found_share = shares.get((players, bot, against))
                if found_share is None:
                    continue
                points, games = found_share[0], int(found_share[1])
                sure = wilson(points, games, confidence).excludes(1 / players)
                matchups.append(Matchup(players, bot, against, points, games, wilson(points, games), sure))
    seats = tuple(FirstSeat(n, bot, points, games, wilson(points, games), wilson(points, games, confidence).excludes(1 / n)) for n, bot, points, games in first)
    return Matrix(tuple(matchups), seats, tuple(self_play), comparisons, confidence)


MATRIX_WORDS = (
    "an entry is the row bot's win share in one seat against the column bot in every other, its seat going round the table; "
    "a win alone counts 1 and a win tied among k seats 1/k; fair is 1/players; "
    f"intervals are Wilson {CONFIDENCE:.0%} intervals; a verdict (differs from fair) holds with the Bonferroni correction over every verdict the matrix makes"
)
