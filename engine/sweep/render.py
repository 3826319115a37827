"""A sweep's result as text for a terminal and as JSON for other tools (and,
later, the site page and its charts). Both are made from the result alone,
so equal results give equal bytes."""

from __future__ import annotations

import json
from typing import Any, Final

from engine.sim.pool import SEED_STRIDE
from engine.sim.seat_figures import text_table
from engine.sweep.differences import RULE_WORDS, number
from engine.sweep.grid import shown
from engine.sweep.run import SweepResult

FORMAT: Final = "sweep/1"

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
    "measured": "the game's own measure (see measure), by row: the sum and count of the whole numbers it averages, and their mean",
}


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


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
                "score": figures.spread().to_dict(),
                "scoreHistogram": [{"score": score, "count": times} for score, times in figures.scores],
                "measured": {row: {"total": total, "count": count, "mean": None if not count else round(total / count, 4)} for row, total, count in figures.measured},
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
        "differences": [d.to_dict() for d in result.differences],
        "definitions": DEFINITIONS,
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
        rows.append((f"{index + 1}. {cell.label}", str(s.minimum), number(s.lower_quartile), number(s.median), number(s.upper_quartile), str(s.maximum), f"{s.mean:.2f}"))
    lines += text_table(("cell", "min", "q1", "median", "q3", "max", "mean"), rows)
    if result.measure is not None:
        means = [figures.means() for figures in result.figures]
        names = list(dict.fromkeys(row for by_row in means for row in by_row))
        lines += ["", f"{result.measure[1]}, by cell"]
        heads = ("", *(str(index + 1) for index in range(len(grid.cells))))
        lines += text_table(heads, [(row, *("-" if by_row.get(row) is None else f"{by_row[row]:.1f}" for by_row in means)) for row in names])
    lines += ["", "differences from the baseline that matter", f"({RULE_WORDS})"]
    lines += [f"  {d.text}" for d in result.differences] or ["  none"]
    for index, (cell, figures) in enumerate(zip(grid.cells, result.figures)):
        if not figures.cards:
            continue
        lines += ["", f"cards in cell {index + 1} ({cell.label}): drawn per game, played % and dead % of draws"]
        card_rows = []
        for c in figures.cards:
            play, dead = c.play_rate(), c.dead_rate()
            card_rows.append((c.name, f"{c.drawn / figures.games:.2f}", "-" if play is None else f"{play:.0%}", "-" if dead is None else f"{dead:.0%}"))
        lines += text_table(("card", "per game", "played", "dead"), card_rows)
    return "\n".join(lines) + "\n"
