"""The differences between a cell and the baseline that a designer should
hear about, in plain words.

A sweep of a few hundred games a cell shows small wobbles everywhere, so a
change is listed only when it is both large relative to where it started
and large in absolute terms (each rule below); under both bars it is noise
more often than not, and a list that names everything names nothing.

- score (median and mean, every seat pooled): a change of at least
  ``RELATIVE`` (10%) of the baseline's figure and at least ``SCORE_POINTS``
  (1 point);
- a card's dead-draw rate (dead draws per draw): at least ``RATE_POINTS``
  (10 percentage points) and ``RELATIVE`` of the baseline's rate, the card
  drawn at least ``MIN_DRAWS`` (20) times in both cells;
- a card's draws per hand per game (draws / games / players, so a table of
  two is not said to draw everything twice as often): at least
  ``DRAWS_PER_HAND`` (0.25) and ``RELATIVE``, with the same ``MIN_DRAWS``;
- a row of the game's own measure, where it has one (a company's mean
  share value): at least ``MEASURE_UNITS`` (1) and ``RELATIVE``.

A card dealt in one cell and not the other shows as its draws falling to or
rising from nothing. Each line reads
``<what differs from the baseline>: <measure> <baseline> → <cell> (<change>)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.sweep.figures import CardCounts, CellFigures
from engine.sweep.grid import Cell, shown

RELATIVE: Final = 0.10
SCORE_POINTS: Final = 1.0
RATE_POINTS: Final = 0.10
DRAWS_PER_HAND: Final = 0.25
MIN_DRAWS: Final = 20
MEASURE_UNITS: Final = 1.0

RULE_WORDS: Final = (
    f"listed when the change is at least {RELATIVE:.0%} of the baseline's figure and at least: {SCORE_POINTS:g} point of median or mean score; "
    f"{MEASURE_UNITS:g} unit of the game's own measure, row by row, where it has one; "
    f"{RATE_POINTS * 100:g} percentage points of a card's dead-draw rate; {DRAWS_PER_HAND:g} of a card's draws per hand per game "
    f"(card figures only for a card drawn at least {MIN_DRAWS} times in both cells, or not at all in one of them)"
)


@dataclass(frozen=True)
class Difference:
    cell: int  # the cell's place in the grid
    subject: str  # "score", a row of the game's measure (a company), or a card id
    measure: str  # "median score", "mean score", the game's measure ("mean share value"), "dead draws", "draws per hand"
    before: float
    after: float
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"cell": self.cell, "subject": self.subject, "measure": self.measure, "baseline": round(self.before, 4), "value": round(self.after, 4), "text": self.text}


def number(value: float) -> str:
    """A figure to one decimal, without a trailing ``.0``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _relative(before: float, after: float) -> str:
    if before == 0:
        return "from nothing"
    change = round(100 * (after - before) / abs(before))
    return f"{'+' if change > 0 else '−' if change < 0 else ''}{abs(change)}%"


def _enough(before: float, after: float, absolute: float) -> bool:
    change = abs(after - before)
    return change >= absolute - 1e-9 and (before == 0 or change >= RELATIVE * abs(before) - 1e-9)


def what_differs(cell: Cell, baseline: Cell) -> str:
    """The cell's settings that are not the baseline's, in grid order."""
    parts = [f"house rule {key}={shown(value)}" for (key, value), (_, base) in zip(cell.swept, baseline.swept) if value != base]
    if cell.players != baseline.players:
        parts.append(f"{cell.players} players")
    if cell.bot != baseline.bot:
        parts.append(f"{cell.bot} bot")
    return ", ".join(parts)


def compare(index: int, cell: Cell, figures: CellFigures, baseline: Cell, base: CellFigures, measured: str = "mean") -> list[Difference]:
    """What differs enough between ``figures`` (cell ``index``) and the
    baseline's: the score first, then the game's own measure (``measured``
    names it, "mean share value") by row in the game's order, then the
    cards' dead draws, then their draws, each by the size of the change
    (largest first), then by name."""
    where = what_differs(cell, baseline)
    found: list[Difference] = []
    mine, theirs = figures.spread(), base.spread()
    for measure, before, after in (("median score", theirs.median, mine.median), ("mean score", theirs.mean, mine.mean)):
        if _enough(before, after, SCORE_POINTS):
            found.append(Difference(index, "score", measure, before, after, f"{where}: {measure} {number(before)} → {number(after)} ({_relative(before, after)})"))
    base_means = base.means()
    for row, after_mean in figures.means().items():
        before_mean = base_means.get(row)
        if before_mean is not None and after_mean is not None and _enough(before_mean, after_mean, MEASURE_UNITS):
            text = f"{where}: {row}: {measured} {number(before_mean)} → {number(after_mean)} ({_relative(before_mean, after_mean)})"
            found.append(Difference(index, row, measured, before_mean, after_mean, text))
    cards: list[tuple[str, float, str, Difference]] = []
    base_cards = {c.id: c for c in base.cards}
    hands, base_hands = figures.games * cell.players, base.games * baseline.players
    for card in figures.cards:
        other = base_cards.get(card.id, CardCounts(card.id, card.name, 0, 0, 0))
        cards += _card_changes(index, where, other, card, hands, base_hands)
    for card in base.cards:
        if all(c.id != card.id for c in figures.cards):
            cards += _card_changes(index, where, card, CardCounts(card.id, card.name, 0, 0, 0), hands, base_hands)
    return found + [d for *_, d in sorted(cards, key=lambda t: t[:3])]


def _card_changes(index: int, where: str, before: CardCounts, after: CardCounts, hands: int, base_hands: int) -> list[tuple[str, float, str, Difference]]:
    """The card's changes as (order of the measure, minus the size, name, difference)."""
    out: list[tuple[str, float, str, Difference]] = []
    per_before, per_after = before.drawn / base_hands, after.drawn / hands
    absent = before.drawn == 0 or after.drawn == 0
    if (absent or min(before.drawn, after.drawn) >= MIN_DRAWS) and _enough(per_before, per_after, DRAWS_PER_HAND):
        text = f"{where}: card {after.name}: draws per hand per game {per_before:.2f} → {per_after:.2f} ({_relative(per_before, per_after)})"
        out.append(("2", -abs(per_after - per_before), after.name, Difference(index, after.id, "draws per hand", per_before, per_after, text)))
    dead_before, dead_after = before.dead_rate(), after.dead_rate()
    if dead_before is not None and dead_after is not None and min(before.drawn, after.drawn) >= MIN_DRAWS and _enough(dead_before, dead_after, RATE_POINTS):
        points = round(100 * (dead_after - dead_before))
        text = f"{where}: card {after.name}: dead draws {dead_before:.0%} → {dead_after:.0%} ({'+' if points > 0 else '−'}{abs(points)} points)"
        out.append(("1", -abs(dead_after - dead_before), after.name, Difference(index, after.id, "dead draws", dead_before, dead_after, text)))
    return out
