"""The differences between a cell and the baseline that a designer should
hear about, in plain words.

A sweep of a few hundred games a cell shows small wobbles everywhere, so a
change is listed only when its interval excludes zero, after a correction
for how many comparisons the sweep makes (Bonferroni: with ``m`` of them,
each interval is at ``1 - 0.05 / m`` confidence, so the chance that any
listed difference is luck alone stays under 5%). The comparisons, every
cell against the baseline:

- the mean score (every seat pooled): Welch's t interval;
- each row of the game's own measure, where it has one (a company's mean
  share value): Welch's t interval;
- each card's dead-draw rate (dead draws per draw), for a card drawn in
  both cells: Newcombe's interval for a difference of proportions;
- each card's draws per hand per game (draws / games / players, so a table
  of two is not said to draw everything twice as often): the normal
  approximation to two Poisson counts.

The median is shown beside the spread but not compared: it has no interval
as cheap and honest as the mean's. A card dealt in one cell and not the
other shows as its draws falling to or rising from nothing. Each line reads
``<what differs from the baseline>: <measure> <baseline> → <cell>
(<change>; interval <low> to <high>)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.sim.intervals import CONFIDENCE, Interval, family_confidence, mean_difference, proportion_difference, rate_difference
from engine.sweep.figures import CardCounts, CellFigures
from engine.sweep.grid import Cell, shown

RULE_WORDS: Final = (
    f"listed when the {CONFIDENCE:.0%} interval of the change excludes zero, each interval widened by the Bonferroni correction for the number of comparisons the sweep makes; "
    "compared: the mean score (Welch's t), the game's own measure row by row where it has one (Welch's t), "
    "each card's dead-draw rate (Newcombe's interval for two proportions) and draws per hand per game (two Poisson counts); the median is not compared"
)


@dataclass(frozen=True)
class Difference:
    cell: int  # the cell's place in the grid
    subject: str  # "score", a row of the game's measure (a company), or a card id
    measure: str  # "mean score", the game's measure ("mean share value"), "dead draws", "draws per hand"
    before: float
    after: float
    text: str
    interval: Interval = Interval(0.0, 0.0, 0.0)  # of after - before, at the corrected confidence

    def to_dict(self) -> dict[str, Any]:
        return {
            "cell": self.cell, "subject": self.subject, "measure": self.measure, "baseline": round(self.before, 4), "value": round(self.after, 4),
            "interval": self.interval.rounded(), "text": self.text,
        }  # fmt: skip


def number(value: float) -> str:
    """A figure to one decimal, without a trailing ``.0``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _relative(before: float, after: float) -> str:
    if before == 0:
        return "from nothing"
    change = round(100 * (after - before) / abs(before))
    return f"{'+' if change > 0 else '−' if change < 0 else ''}{abs(change)}%"


def _signed(value: float, digits: int = 1, scale: float = 1.0) -> str:
    text = f"{abs(value * scale):.{digits}f}"
    return ("−" if value < 0 and float(text) != 0 else "+" if value > 0 and float(text) != 0 else "") + text


def what_differs(cell: Cell, baseline: Cell) -> str:
    """The cell's settings that are not the baseline's, in grid order."""
    parts = [f"house rule {key}={shown(value)}" for (key, value), (_, base) in zip(cell.swept, baseline.swept) if value != base]
    if cell.players != baseline.players:
        parts.append(f"{cell.players} players")
    if cell.seats != baseline.seats:
        parts.append("seats " + ", ".join(cell.seats) if cell.seats is not None else f"{cell.bot} bot")
    elif cell.bot != baseline.bot:
        parts.append(f"{cell.bot} bot")
    return ", ".join(parts)


# A comparison not yet judged: (its order key, what it is about, and the
# interval of the change at a given confidence, with the words for it).
_Pending = tuple[tuple[str, str], Callable[[float], Difference]]


def comparisons(index: int, cell: Cell, figures: CellFigures, baseline: Cell, base: CellFigures, measured: str = "mean") -> list[_Pending]:
    """Every comparison between cell ``index`` and the baseline, each to be
    judged at the confidence the sweep's correction asks for."""
    where = what_differs(cell, baseline)
    found: list[_Pending] = []
    mine, theirs = figures.score_moments(), base.score_moments()

    def score(confidence: float) -> Difference:
        interval = mean_difference(theirs, mine, confidence)
        text = f"{where}: mean score {number(theirs.mean)} → {number(mine.mean)} ({_relative(theirs.mean, mine.mean)}; interval {_signed(interval.low)} to {_signed(interval.high)})"
        return Difference(index, "score", "mean score", theirs.mean, mine.mean, text, interval)

    found.append((("0", ""), score))
    base_moments = base.moments()
    for order, (row, after) in enumerate(figures.moments().items()):
        before = base_moments.get(row)
        if before is None or before.count < 2 or after.count < 2:
            continue

        def row_change(confidence: float, row: str = row, before: Any = before, after: Any = after) -> Difference:
            interval = mean_difference(before, after, confidence)
            text = f"{where}: {row}: {measured} {number(before.mean)} → {number(after.mean)} ({_relative(before.mean, after.mean)}; interval {_signed(interval.low)} to {_signed(interval.high)})"
            return Difference(index, row, measured, before.mean, after.mean, text, interval)

        found.append((("1", f"{order:06d}"), row_change))
    base_cards = {c.id: c for c in base.cards}
    hands, base_hands = figures.games * cell.players, base.games * baseline.players
    for card in figures.cards:
        found += _card_changes(index, where, base_cards.get(card.id, CardCounts(card.id, card.name, 0, 0, 0)), card, hands, base_hands)
    for card in base.cards:
        if all(c.id != card.id for c in figures.cards):
            found += _card_changes(index, where, card, CardCounts(card.id, card.name, 0, 0, 0), hands, base_hands)
    return found


def _card_changes(index: int, where: str, before: CardCounts, after: CardCounts, hands: int, base_hands: int) -> list[_Pending]:
    out: list[_Pending] = []
    if before.drawn or after.drawn:

        def draws(confidence: float) -> Difference:
            interval = rate_difference((before.drawn, base_hands), (after.drawn, hands), confidence)
            per_before, per_after = before.drawn / base_hands, after.drawn / hands
            text = (
                f"{where}: card {after.name}: draws per hand per game {per_before:.2f} → {per_after:.2f} "
                f"({_relative(per_before, per_after)}; interval {_signed(interval.low, 2)} to {_signed(interval.high, 2)})"
            )
            return Difference(index, after.id, "draws per hand", per_before, per_after, text, interval)

        out.append((("3", after.name), draws))
    if before.drawn and after.drawn:

        def dead(confidence: float) -> Difference:
            interval = proportion_difference((before.dead, before.drawn), (after.dead, after.drawn), confidence)
            rate_before, rate_after = before.dead / before.drawn, after.dead / after.drawn
            points = round(100 * (rate_after - rate_before))
            text = (
                f"{where}: card {after.name}: dead draws {rate_before:.0%} → {rate_after:.0%} "
                f"({'+' if points > 0 else '−' if points < 0 else ''}{abs(points)} points; interval {_signed(interval.low, 0, 100)} to {_signed(interval.high, 0, 100)} points)"
            )
            return Difference(index, after.id, "dead draws", rate_before, rate_after, text, interval)

        out.append((("2", after.name), dead))
    return out


def judge(pending: Sequence[_Pending], count: int) -> list[Difference]:
    """The comparisons whose interval, at the confidence ``count``
    comparisons call for, excludes zero: the score first, then the measure
    in the game's order, then the cards' dead draws, then their draws, each
    by the size of the change (largest first), then by name."""
    confidence = family_confidence(count)
    kept: list[tuple[tuple[str, float, str], Difference]] = []
    for (group, name), judged in pending:
        difference = judged(confidence)
        if difference.interval.excludes(0.0):
            size = -abs(difference.after - difference.before) if group in ("2", "3") else 0.0
            kept.append(((group, size, name), difference))
    return [d for _, d in sorted(kept, key=lambda item: item[0])]


def compare(index: int, cell: Cell, figures: CellFigures, baseline: Cell, base: CellFigures, measured: str = "mean", count: int | None = None) -> list[Difference]:
    """What differs between ``figures`` (cell ``index``) and the baseline's,
    judged with the correction for ``count`` comparisons (None: this cell's
    own, as if it were the only one compared)."""
    pending = comparisons(index, cell, figures, baseline, base, measured)
    return judge(pending, len(pending) if count is None else count)
