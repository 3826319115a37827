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
so the shares of a game's seats add up to 1. An entry's interval is
paired by deal: game ``i`` of every seating is the same deal, so A's shares
in the N seatings of one deal are averaged first and the interval is
Student's t over those deal means. Averaging over the seats takes out most
of what the deal and the seat do (a deal that favours seat 0 favours A
exactly as often as B), so the interval is far narrower than one that
counts the games as unrelated trials. The first seat's rate, from the
self-play cells, is Wilson's. The verdicts (a rung differs from fair, the
first seat is favoured) are corrected for how many of them the matrix
makes (Bonferroni, ``engine.sim.intervals``); a *step* of the ladder (a
rung against the one below it) is a claim made in advance, judged alone
at 95% (``Matrix.steps``).

With ``steps`` the grid holds only the steps, the stronger rung in one
seat, and no self-play cell: what proving a ladder needs and no more, since
a search rung's games cost seconds each. An ordinary sweep of the same bots
plays the self-play cells (the cells are the same, and so are their keys).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidActionError, UsageError
from engine.pack import AnyPack, Configuration
from engine.sim.intervals import CONFIDENCE, Interval, Moments, family_confidence, mean_interval, wilson
from engine.sweep.figures import CellFigures
from engine.sweep.grid import Cell, Grid


def matrix_grid(pack: AnyPack, catalog: Any, rungs: Sequence[str], players: Sequence[int], *, steps: bool = False) -> Grid:
    """The cells of the matrix of ``rungs`` (in ladder order, weakest first)
    at each of ``players``, every house rule at its default: per count, each
    rung's self-play cell, then its matchups against every other rung. With
    ``steps``, per count only each rung in one seat against the rung below
    it in the others. UsageError for an unknown bot, fewer than two rungs,
    a solitaire count, or a count the game cannot seat."""
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
        for position, rung in enumerate(rungs):
            if not steps:
                cells.append(Cell(count, rung, rules, ()))
            for other in rungs:
                if other == rung or (steps and (position == 0 or other != rungs[position - 1])):
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
    interval: Interval  # on the win share, paired by deal, at CONFIDENCE
    sure: bool  # the corrected interval excludes the fair share

    @property
    def deals(self) -> int:
        """Deals played, each once from every seat."""
        return self.games // self.players

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

    def steps(self, rungs: Sequence[str]) -> tuple[Step, ...]:
        """Each rung against the one below it, at every player count the
        matrix played that matchup."""
        found = []
        for players in dict.fromkeys(m.players for m in self.matchups):
            for lower, upper in zip(rungs, rungs[1:]):
                entry = self.entry(players, upper, lower)
                if entry is not None:
                    found.append(Step(entry))
        return tuple(found)


@dataclass(frozen=True)
class Step:
    """A step of the ladder: the upper rung in one seat against the lower in
    the rest. Judged alone at CONFIDENCE, as a claim made before the games
    were played: the step is real when the interval on the upper rung's win
    share lies wholly above the fair share."""

    entry: Matchup

    @property
    def difference(self) -> Interval:
        """The upper rung's win share less the fair share, with its interval."""
        fair, found = self.entry.fair, self.entry.interval
        return Interval(found.value - fair, found.low - fair, found.high - fair)

    @property
    def verdict(self) -> str:
        """``stronger``, ``weaker`` or ``unproven``."""
        low, high = self.difference.low, self.difference.high
        return "stronger" if low > 0 else ("weaker" if high < 0 else "unproven")

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.entry.players, "upper": self.entry.bot, "lower": self.entry.against, "deals": self.entry.deals,
            "difference": round(self.difference.value, 4), "interval": self.difference.rounded(), "verdict": self.verdict,
        }  # fmt: skip


# A variance this small is rounding, not spread (deal means are multiples of 1/N!).
_NO_SPREAD = 1e-12


def paired_interval(deals: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The interval on a win share from its deal means: Student's t, kept
    within 0..1. Deals that all came out alike leave t nothing to measure
    (its interval would be a point, "certain" after two deals), so then
    each deal counts as one trial of Wilson's interval instead."""
    moments = Moments(len(deals), math.fsum(deals), math.fsum(d * d for d in deals))
    if moments.variance < _NO_SPREAD:
        return wilson(moments.total, moments.count, confidence)
    found = mean_interval(moments, confidence)
    return Interval(found.value, max(0.0, found.low), min(1.0, found.high))


def matrix(grid: Grid, figures: Sequence[CellFigures]) -> Matrix:
    """The matrix's entries and first-seat rates, from its cells' figures."""
    # Per (players, bot, against): the bot's win shares game by game, one list a seating.
    seatings: dict[tuple[int, str, str], list[list[float]]] = {}
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
            seatings.setdefault((cell.players, bot, rivals.pop()), []).append(found.share(cell.seats.index(bot)))
    comparisons = len(seatings) + len(first)
    confidence = family_confidence(comparisons)
    matchups = []
    for players in grid.players:
        for bot in grid.bots:
            for against in grid.bots:
                shares = seatings.get((players, bot, against))
                if shares is None:
                    continue
                deals = [sum(by_seat) / len(shares) for by_seat in zip(*shares)]
                sure = paired_interval(deals, confidence).excludes(1 / players)
                points = math.fsum(map(math.fsum, shares))
                matchups.append(Matchup(players, bot, against, points, sum(map(len, shares)), paired_interval(deals), sure))
    seats = tuple(FirstSeat(n, bot, points, games, wilson(points, games), wilson(points, games, confidence).excludes(1 / n)) for n, bot, points, games in first)
    return Matrix(tuple(matchups), seats, tuple(self_play), comparisons, confidence)


MATRIX_WORDS = (
    "an entry is the row bot's win share in one seat against the column bot in every other, its seat going round the table; "
    "a win alone counts 1 and a win tied among k seats 1/k; fair is 1/players; "
    f"intervals are {CONFIDENCE:.0%} Student's t intervals over the deals, each deal's shares averaged over its seatings first; "
    "a verdict (differs from fair) holds with the Bonferroni correction over every verdict the matrix makes"
)
STEP_WORDS = f"each step judged alone: real when its {CONFIDENCE:.0%} interval lies above zero"
