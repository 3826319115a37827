"""A sweep's result as text for a terminal and as JSON for other tools (and,
later, the site page and its charts). Both are made from the result alone,
so equal results give equal bytes."""

from __future__ import annotations

import json
from typing import Any, Final

from engine.sim.intervals import CONFIDENCE, Interval, mean_interval, wilson
from engine.sim.pool import SEED_STRIDE
from engine.sim.seat_figures import text_table
from engine.sweep.differences import RULE_WORDS, number
from engine.sweep.figures import CellFigures
from engine.sweep.grid import shown
from engine.sweep.matrix import MATRIX_WORDS, STEP_WORDS, Matrix, is_matrix, matrix
from engine.sweep.run import SweepResult

FORMAT: Final = "sweep/2"

DEFINITIONS: Final = {
    "score": "every seat's final score of every game, pooled; quartiles interpolate linearly between the ordered scores",
    "drawn": "copies of the card entering a hand, over all the cell's games (the pack's simulate report says what counts)",
    "played": "draws of the card that were played",
    "dead": "draws of the card never played (discarded, or held when the game ended)",
    "drawnPerGame": "drawn / games",
    "drawnPerHand": "drawn / games / players: what the differences compare, so tables of different sizes compare fairly",
    "playRate": "played / drawn",
    "deadRate": "dead / drawn",
    "differences": RULE_WORDS,
    "baseline": "the cell every other is compared with: each swept house rule at its default (or its first value where the default is not swept), the first player count, the first bot",
    "gameSeeds": f"every cell plays the same games: game i (from 0) uses seed SEED * {SEED_STRIDE} + i",
    "measured": "the game's own measure (see measure), by row: the sum, count and sum of squares of the whole numbers it averages, their mean and its interval",
    "interval": f"a {CONFIDENCE:.0%} confidence interval [low, high]: Wilson's for a rate (deadRate, playRate), Student's t for a mean (score mean, measured mean)",
    "comparisons": "how many comparisons with the baseline the sweep made: each difference's interval is at 1 - 0.05 / comparisons confidence (Bonferroni)",
    "matrix": MATRIX_WORDS,
    "seatWins": "with rivals, each seat's wins by how many seats shared them: the first count alone, the second tied with one other, and so on",
}


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _interval(part: int, whole: int) -> list[float] | None:
    return wilson(part, whole).rounded() if whole else None


def _score(figures: CellFigures) -> dict[str, Any]:
    return {**figures.spread().to_dict(), "meanInterval": mean_interval(figures.score_moments()).rounded(), "count": figures.score_moments().count}


def rate_words(part: int, whole: int) -> str:
    """``45% (38–52%)``: a rate and its Wilson interval, for a table cell ("-" for no trials)."""
    if not whole:
        return "-"
    found = wilson(part, whole)
    return f"{found.value:.0%} ({100 * found.low:.0f}\N{EN DASH}{100 * found.high:.0f}%)"


def mean_words(interval: Interval, digits: int = 1) -> str:
    """``5.2 (4.1–6.3)``: a mean and its interval."""
    return f"{interval.value:.{digits}f} ({interval.range_words(digits)})"


def to_dict(result: SweepResult) -> dict[str, Any]:
    grid = result.grid
    cells = []
    for index, (cell, figures) in enumerate(zip(grid.cells, result.figures)):
        cells.append(
            {
                "index": index,
                "label": cell.label,
                **cell.to_dict(),
                "games": figures.games,
                "score": _score(figures),
                "scoreHistogram": [{"score": score, "count": times} for score, times in figures.scores],
                "measured": {
                    row: {"total": total, "count": count, "squares": squares, "mean": None if not count else round(total / count, 4), "interval": mean_interval(moments).rounded() if count else None}
                    for (row, total, count, squares), moments in zip(figures.measured, figures.moments().values())
                },
                "seatWins": [list(row) for row in figures.seat_wins],
                "cards": {
                    c.id: {
                        "name": c.name,
                        "drawn": c.drawn,
                        "played": c.played,
                        "dead": c.dead,
                        "drawnPerGame": round(c.drawn / figures.games, 4),
                        "drawnPerHand": round(c.drawn / (figures.games * cell.players), 4),
                        "playRate": _rate(c.played, c.drawn),
                        "deadRate": _rate(c.dead, c.drawn),
                        "playRateInterval": _interval(c.played, c.drawn),
                        "deadRateInterval": _interval(c.dead, c.drawn),
                    }
                    for c in figures.cards
                },
            }
        )
    return {
        "format": FORMAT,
        "game": result.game,
        "games": result.games,
        "seed": result.seed,
        "grid": {
            "houseRules": {key: list(values) for key, values in grid.rules},
            "players": list(grid.players),
            "bots": list(grid.bots),
            "order": "house rules in the order given, each rule's values as listed, then player counts, then bots; the last varies fastest",
        },
        "baseline": grid.baseline,
        "measure": None if result.measure is None else {"title": result.measure[0], "what": result.measure[1]},
        "cells": cells,
        "comparisons": result.comparisons,
        "differences": [d.to_dict() for d in result.differences],
        **({"matrix": _matrix_dict(matrix(grid, result.figures), grid.bots)} if is_matrix(grid) else {}),
        "definitions": DEFINITIONS,
    }


def _matrix_dict(found: Matrix, rungs: tuple[str, ...]) -> dict[str, Any]:
    return {
        "matchups": [m.to_dict() for m in found.matchups],
        "steps": [step.to_dict() for step in found.steps(rungs)],
        "firstSeat": [f.to_dict() for f in found.first_seats],
        "verdicts": found.comparisons,
        "verdictConfidence": round(found.confidence, 6),
    }


def to_json(result: SweepResult) -> str:
    return json.dumps(to_dict(result), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def to_text(result: SweepResult) -> str:
    grid = result.grid
    rules = "; ".join(f"{key} = {', '.join(shown(v) for v in values)}" for key, values in grid.rules) or "(none swept: every rule at its default)"
    lines = [
        f"{result.title} sweep: {len(grid.cells)} cell(s) of {result.games} game(s), seed {result.seed}; every cell plays the same games (game i uses seed {result.seed} * {SEED_STRIDE} + i)",
        f"house rules swept: {rules}",
        f"players: {', '.join(map(str, grid.players))}; bots: {', '.join(grid.bots)}",
        f"baseline: cell {grid.baseline + 1} ({grid.cells[grid.baseline].label})",
        "",
        "score spread by cell (every seat's score, pooled)",
    ]
    rows = []
    for index, (cell, figures) in enumerate(zip(grid.cells, result.figures)):
        s = figures.spread()
        mean = mean_interval(figures.score_moments())
        rows.append((f"{index + 1}. {cell.label}", str(s.minimum), number(s.lower_quartile), number(s.median), number(s.upper_quartile), str(s.maximum), mean_words(mean, 2)))
    lines += text_table(("cell", "min", "q1", "median", "q3", "max", f"mean ({CONFIDENCE:.0%} interval)"), rows)
    if result.measure is not None:
        moments = [figures.moments() for figures in result.figures]
        names = list(dict.fromkeys(row for by_row in moments for row in by_row))
        lines += ["", f"{result.measure[1]}, by cell, with {CONFIDENCE:.0%} intervals"]
        heads = ("", *(str(index + 1) for index in range(len(grid.cells))))
        lines += text_table(heads, [(row, *("-" if row not in by_row or not by_row[row].count else mean_words(mean_interval(by_row[row])) for by_row in moments)) for row in names])
    if is_matrix(grid):
        lines += ["", *matrix_lines(matrix(grid, result.figures), grid.bots)]
    else:
        lines += ["", f"differences from the baseline that matter ({result.comparisons} comparisons)", f"({RULE_WORDS})"]
        lines += [f"  {d.text}" for d in result.differences] or ["  none"]
    for index, (cell, figures) in enumerate(zip(grid.cells, result.figures)):
        if not figures.cards:
            continue
        lines += ["", f"cards in cell {index + 1} ({cell.label}): drawn, drawn per game, played % and dead % of draws ({CONFIDENCE:.0%} intervals)"]
        card_rows = [(c.name, str(c.drawn), f"{c.drawn / figures.games:.2f}", rate_words(c.played, c.drawn), rate_words(c.dead, c.drawn)) for c in figures.cards]
        lines += text_table(("card", "drawn", "per game", "played", "dead"), card_rows)
    return "\n".join(lines) + "\n"


def matrix_lines(found: Matrix, ladder: tuple[str, ...]) -> list[str]:
    """The matrix as a terminal shows it: one table per player count, then
    the ladder's steps."""
    lines = ["matchup matrix", f"({MATRIX_WORDS}; {found.comparisons} verdicts, each at {found.confidence:.2%})"]
    for players in dict.fromkeys(m.players for m in found.matchups):
        met = {bot for m in found.matchups if m.players == players for bot in (m.bot, m.against)}
        rungs = [bot for bot in ladder if bot in met]
        lines += ["", f"{players} players: the row bot's win share against the column bot (fair {1 / players:.0%}); * differs from fair"]
        rows = []
        for bot in rungs:
            cells = []
            for against in rungs:
                entry = found.entry(players, bot, against)
                cells.append("-" if entry is None else f"{entry.interval.percent_words()}{' *' if entry.sure else ''} n={entry.games}")
            rows.append((bot, *cells))
        lines += text_table(("", *rungs), rows)
    steps = found.steps(ladder)
    if steps:
        lines += ["", f"the ladder: each bot in one seat against the one before it, its win share less the fair share in points ({STEP_WORDS})"]
        lines += text_table(
            ("players", "step", "deals", "points over fair", "verdict"),
            [
                (
                    str(s.entry.players),
                    f"{s.entry.bot} over {s.entry.against}",
                    str(s.entry.deals),
                    f"{100 * s.difference.value:+.1f} ({100 * s.difference.low:+.1f} to {100 * s.difference.high:+.1f})",
                    s.verdict,
                )
                for s in steps
            ],
        )
    if found.first_seats:
        lines += ["", f"the first player's win share, the same bot in every seat ({CONFIDENCE:.0%} intervals); * differs from fair"]
        lines += text_table(
            ("players", "bot", "games", "win share", "fair"),
            [(str(f.players), f.bot, str(f.games), f"{f.interval.percent_words()}{' *' if f.sure else ''}", f"{f.fair:.0%}") for f in found.first_seats],
        )
    return lines
