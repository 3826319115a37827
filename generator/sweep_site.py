"""A small fixed sweep on a pack's Simulation page, drawn as charts.

The pack names its plan (:class:`SitePlan`: the rules, player counts and
bots to sweep, the games and the seed); this module plays it through the
sweep itself (``engine.sweep.run.sweep``, one process, no cache: the site's
stamp already keeps it from being played again) and lays out the page's
context: the command that reproduces it, the charts, and the differences
that matter. A pack's own measure (``engine.pack.SweepMeasure``, say each
company's share value), kept with each cell, is drawn as a grid too.

Laying out (:func:`lay_out`) is apart from playing, so a test can hand it a
small made-up sweep.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from engine.pack import AnyPack
from engine.sim.intervals import mean_interval, wilson
from engine.sweep.differences import RULE_WORDS, what_differs
from engine.sweep.figures import CellFigures
from engine.sweep.grid import Cell, build_grid, shown
from engine.sweep.run import SweepResult, sweep
from engine.sweep.runner import pool_runner
from engine.sweep.store import CellStore
from generator.charts import BoxRow, box_plot_svg, figure, grid_svg
from generator.tableset import Context


@dataclass(frozen=True)
class SitePlan:
    """The sweep a page shows: ``rules`` as ``--rule`` takes them
    (``KEY=V1,V2``), the player counts, the bots, ``games`` a cell, ``seed``;
    the dead-draw chart shows at most ``top_cards`` cards (None: every card
    drawn, as a designer asks "what about this card?" of any of them)."""

    rules: tuple[str, ...]
    players: tuple[int, ...]
    bots: tuple[str, ...]
    games: int
    seed: int
    top_cards: int | None = None


def command_line(pack_id: str, plan: SitePlan, content: str | None = None) -> str:
    """The ``stationmaster sweep`` command that plays the same sweep (on
    ``content``, a folder, where it is not the game's own), quoted for a shell."""
    parts = ["stationmaster", "sweep", "--game", pack_id]
    if content is not None:
        parts += ["--content", content]
    for rule in plan.rules:
        parts += ["--rule", rule]
    parts += ["--players", ",".join(map(str, plan.players)), "--bot", ",".join(plan.bots), "--games", str(plan.games), "--seed", str(plan.seed)]
    return shlex.join(parts)


def play(pack: AnyPack, catalog: Any, plan: SitePlan) -> SweepResult:
    """Play the plan's sweep in this process, every cell (no cache)."""
    grid = build_grid(pack, catalog, plan.rules, plan.players, plan.bots)
    runner = pool_runner(pack, catalog, plan.games, plan.seed, 1, None)
    return sweep(pack, catalog, grid, plan.games, plan.seed, CellStore(None, lambda line: None), runner)


def short_label(cell: Cell, bots: int) -> str:
    """A cell as a chart row says it: the swept values, the players, and
    the bot only where more than one is swept."""
    parts = [shown(value) for _, value in cell.swept]
    parts.append(f"{cell.players} player{'s' if cell.players != 1 else ''}")
    if bots > 1:
        parts.append(cell.bot)
    return ", ".join(parts)


def _dead_chart(result: SweepResult, numbers: list[str], top: int | None) -> tuple[str | None, int, int]:
    """The dead-draw grid (cards by cells, % of draws), the number of cards
    it shows and of cards drawn in all; None where the game counts no cards."""
    names: dict[str, str] = {}
    rates: dict[str, list[float | None]] = {}
    spans: dict[tuple[str, int], str] = {}  # each rate's 95% interval and count, for the words
    for index, figures in enumerate(result.figures):
        for card in figures.cards:
            names.setdefault(card.id, card.name)
            rate = card.dead_rate()
            if rate is not None:
                rates.setdefault(card.id, [None] * len(result.figures))[index] = 100 * rate
                interval = wilson(card.dead, card.drawn)
                spans[card.id, index] = f" ({figure(100 * interval.low)}\N{EN DASH}{figure(100 * interval.high)}%, {card.drawn} draws)"
    if not rates:
        return None, 0, 0
    # Highest dead-draw rate in any cell first, then name and id: a total order.
    columns = [n.split(".")[0] for n in numbers]
    order = sorted(rates, key=lambda c: (-max(v for v in rates[c] if v is not None), names[c], c))
    shown_cards = order if top is None else order[:top]
    which = f"every card drawn ({len(shown_cards)})" if len(shown_cards) == len(order) else f"the {len(shown_cards)} cards"
    description = (
        f"Dead draws as a percentage of each card's draws, for {which}, highest rate in any configuration first, "
        f"one column for each configuration ({', '.join(numbers)}); a dash where the card was never drawn; each rate with its 95% interval. "
        + "; ".join(f"{names[c]}: " + ", ".join(f"{n} {'not drawn' if v is None else figure(v) + '%' + spans[c, i]}" for i, (n, v) in enumerate(zip(columns, rates[c]))) for c in shown_cards)
        + "."
    )
    svg = grid_svg(
        [names[c] for c in shown_cards],
        columns,
        [rates[c] for c in shown_cards],
        "Dead draws by card and configuration (% of draws)",
        description,
        lambda v: f"{v:.0f}%",
        highest=100.0,
    )
    return svg, len(shown_cards), len(rates)


def _measure_chart(result: SweepResult, numbers: list[str]) -> str | None:
    """The pack's measure as a grid of rows by cells; None without one."""
    if result.measure is None:
        return None
    title, what = result.measure
    columns = [n.split(".")[0] for n in numbers]
    means = [figures.means() for figures in result.figures]
    rows: list[str] = []
    for by_row in means:
        rows += [row for row in by_row if row not in rows]
    if not rows:
        return None
    values = [[by_row.get(row) for by_row in means] for row in rows]
    description = (
        f"{what[0].upper()}{what[1:]}, one column for each configuration ({', '.join(numbers)}). "
        + "; ".join(f"{row}: " + ", ".join(f"{n} {'-' if v is None else figure(v)}" for n, v in zip(columns, line)) for row, line in zip(rows, values))
        + "."
    )
    return grid_svg(rows, columns, values, title, description, lambda v: f"{v:.1f}")


def _grouped(result: SweepResult) -> list[Context]:
    """The differences that matter, under the cell they were found in (grid
    order, the baseline left out), each line without the cell's own words
    at its head: the group's heading already says them."""
    grid = result.grid
    base = grid.cells[grid.baseline]
    groups = []
    for index, cell in enumerate(grid.cells):
        if index == grid.baseline:
            continue
        head = what_differs(cell, base) + ": "
        lines = [d.text[len(head) :] if d.text.startswith(head) else d.text for d in result.differences if d.cell == index]
        groups.append({"number": index + 1, "label": cell.label, "lines": lines})
    return groups


def lay_out(pack_id: str, plan: SitePlan, result: SweepResult, score_unit: str = "points") -> Context:
    """The Simulation page's context for ``plan``'s sweep."""
    return lay_out_sweep(command_line(pack_id, plan), result, score_unit, plan.top_cards)


def lay_out_sweep(command: str, result: SweepResult, score_unit: str, top_cards: int | None = None) -> Context:
    """Any sweep's charts and differences as a page lays them out, with
    ``command``, the one that reproduces it: a Simulation page's fixed
    sweep or a designer's own (``stationmaster sweep --format markdown``)."""
    grid = result.grid
    labels = [short_label(cell, len(grid.bots)) for cell in grid.cells]
    numbers = [f"{i + 1}. {label}" for i, label in enumerate(labels)]
    rows = []
    for number, figures in zip(numbers, result.figures):
        s = figures.spread()
        rows.append(BoxRow(number, s.minimum, s.lower_quartile, s.median, s.upper_quartile, s.maximum, s.mean))
    score_chart = box_plot_svg(rows, "Score spread by configuration", f"{score_unit} (every seat's final score, pooled)")
    dead_chart, dead_cards, drawn_cards = _dead_chart(result, numbers, top_cards)
    return {
        "command": command,
        "games": result.games,
        "seed": result.seed,
        # Every game the report's figures come from, for its provenance line.
        "measured": {"games": result.games * len(grid.cells), "seeds": [result.seed]},
        "cells": [
            {"number": i + 1, "label": cell.label, "baseline": i == grid.baseline, "games": figures.games, "spread": _spread_words(figures)}
            for i, (cell, figures) in enumerate(zip(grid.cells, result.figures))
        ],
        "score_unit": score_unit,
        "score_chart": score_chart,
        "dead_chart": dead_chart,
        "dead_cards": dead_cards,
        "drawn_cards": drawn_cards,
        "extra_chart": _measure_chart(result, numbers),
        "extra_measure": None if result.measure is None else result.measure[1],
        "differences": _grouped(result),
        "rule_words": RULE_WORDS,
        "comparisons": result.comparisons,
    }


def _spread_words(figures: CellFigures) -> dict[str, str]:
    s = figures.spread()
    interval = mean_interval(figures.score_moments())
    return {
        "lowest": figure(s.minimum), "lower": figure(s.lower_quartile), "median": figure(s.median),
        "upper": figure(s.upper_quartile), "highest": figure(s.maximum), "mean": figure(s.mean),
        "mean_span": f"{figure(interval.low)}\N{EN DASH}{figure(interval.high)}",
    }  # fmt: skip


def sweep_context(pack: AnyPack, catalog: Any, plan: SitePlan) -> Context:
    """Play the plan and lay it out (seconds: the site stamps the result)."""
    return lay_out(pack.id, plan, play(pack, catalog, plan), pack.score_unit)
