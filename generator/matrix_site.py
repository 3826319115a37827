"""A pack's skill ladder on its Simulation page: the matchup matrix, the
first player's win rate at each rung, and the cards' and the game's own
figures rung by rung, with the conclusions in plain words.

The pack names its plan (:class:`MatrixPlan`: the rungs, weakest first,
from its bots' ``LADDER``; the player counts; the games a seating and the
seed); this module plays it through the sweep itself
(``engine.sweep.matrix``: the same cells ``stationmaster sweep --matrix``
plays, so the same figures come from a Dask cluster) and lays out the
page's context. Laying out (:func:`lay_out_matrix`) is apart from playing,
so a test can hand it a small made-up result.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from engine.pack import AnyPack
from engine.sim.intervals import CONFIDENCE, Interval, family_confidence, wilson
from engine.sweep.matrix import Matrix, matrix, matrix_grid
from engine.sweep.run import SweepResult, sweep
from engine.sweep.runner import pool_runner
from engine.sweep.store import CellStore
from generator.charts import figure, grid_svg
from generator.tableset import Context

# A card is "mostly dead" at a rung when the whole interval of its dead-draw
# rate there lies above one half: more of its draws are wasted than played,
# and the games leave no doubt of it.
MOSTLY: float = 0.5


@dataclass(frozen=True)
class MatrixPlan:
    """The ladder a page shows: ``rungs`` (weakest first), each against each
    at every count of ``players``, ``games`` games a seating seeded ``seed``;
    the dead-draw chart shows at most ``top_cards`` cards."""

    rungs: tuple[str, ...]
    players: tuple[int, ...]
    games: int
    seed: int
    top_cards: int = 15


def command_line(pack_id: str, plan: MatrixPlan) -> str:
    """The ``stationmaster sweep --matrix`` command that plays the same matrix."""
    parts = ["stationmaster", "sweep", "--game", pack_id, "--matrix", "--players", ",".join(map(str, plan.players)), "--bot", ",".join(plan.rungs)]
    return shlex.join([*parts, "--games", str(plan.games), "--seed", str(plan.seed)])


def play(pack: AnyPack, catalog: Any, plan: MatrixPlan) -> SweepResult:
    """Play the plan's matrix in this process, every cell (no cache)."""
    grid = matrix_grid(pack, catalog, plan.rungs, plan.players)
    runner = pool_runner(pack, catalog, plan.games, plan.seed, 1, None)
    return sweep(pack, catalog, grid, plan.games, plan.seed, CellStore(None, lambda line: None), runner)


def _share(interval: Interval) -> str:
    return f"{100 * interval.value:.0f}% ({100 * interval.low:.0f}\N{EN DASH}{100 * interval.high:.0f}%)"


def _tables(found: Matrix, rungs: tuple[str, ...]) -> list[Context]:
    tables = []
    for players in dict.fromkeys(m.players for m in found.matchups):
        rows = []
        for bot in rungs:
            cells = []
            for against in rungs:
                entry = found.entry(players, bot, against)
                cells.append({"text": "" if entry is None else _share(entry.interval), "sure": entry is not None and entry.sure, "games": 0 if entry is None else entry.games})
            rows.append({"bot": bot, "cells": cells})
        tables.append({"players": players, "fair": f"{100 / players:.0f}%", "rungs": list(rungs), "rows": rows})
    return tables


def _ladder_words(found: Matrix, rungs: tuple[str, ...]) -> list[str]:
    """Each step of the ladder, at each count, in a sentence."""
    words = []
    for players in dict.fromkeys(m.players for m in found.matchups):
        for lower, upper in zip(rungs, rungs[1:]):
            entry = found.entry(players, upper, lower)
            if entry is None:
                continue
            where = f"At {players} players, {upper} in one seat against {lower} in {'the other' if players == 2 else 'every other'} won {_share(entry.interval)} over {entry.games} games (fair {100 / players:.0f}%)"
            if entry.sure and entry.interval.value > entry.fair:
                words.append(f"{where}: {upper} is the stronger player, beyond doubt at this many games.")
            elif entry.sure:
                words.append(f"{where}: {upper} is the weaker player, beyond doubt at this many games, so this step of the ladder is upside down.")
            else:
                words.append(f"{where}: these games cannot tell the two apart, so this step of the ladder is not shown to be real.")
    return words


def _first_words(found: Matrix) -> list[str]:
    words = []
    for seat in found.first_seats:
        where = f"At {seat.players} players with {seat.bot} in every seat, the first player won {_share(seat.interval)} of {seat.games} games (fair {100 / seat.players:.0f}%)"
        if seat.sure:
            words.append(f"{where}: moving first is {'an advantage' if seat.interval.value > seat.fair else 'a handicap'}, beyond doubt at this many games.")
        else:
            words.append(f"{where}: no edge either way is shown.")
    return words


def _rate_words(counted: tuple[int, int] | None) -> str:
    if counted is None:
        return "not drawn"
    interval = wilson(*counted)
    return f"{figure(100 * interval.value)}% ({figure(100 * interval.low)}\N{EN DASH}{figure(100 * interval.high)}%, {counted[1]} draws)"


def _self_play_columns(result: SweepResult, found: Matrix) -> list[tuple[str, int]]:
    counts = len({players for players, _, _ in found.self_play})
    return [(bot if counts == 1 else f"{bot}, {players}p", index) for players, bot, index in found.self_play]


def _cards(result: SweepResult, found: Matrix, top: int) -> tuple[str | None, list[str]]:
    """The dead-draw chart (cards by rung) and the words on which cards are
    mostly dead at every rung, and which only below the top one."""
    columns = _self_play_columns(result, found)
    names: dict[str, str] = {}
    counts: dict[str, list[tuple[int, int] | None]] = {}
    for position, (_, index) in enumerate(columns):
        for card in result.figures[index].cards:
            names.setdefault(card.id, card.name)
            if card.drawn:
                counts.setdefault(card.id, [None] * len(columns))[position] = (card.dead, card.drawn)
    if not counts:
        return None, []
    rates = {card: [None if c is None else 100 * c[0] / c[1] for c in row] for card, row in counts.items()}
    order = sorted(rates, key=lambda c: (-max(v for v in rates[c] if v is not None), names[c], c))[:top]
    heads = [name for name, _ in columns]
    description = (
        f"Dead draws as a percentage of each card's draws, the same bot in every seat, one column for each rung ({', '.join(heads)}); "
        f"the {len(order)} cards with the highest rate at any rung; a dash where the card was not drawn; each rate with its 95% interval. "
        + "; ".join(f"{names[c]}: " + ", ".join(f"{h} {_rate_words(row)}" for h, row in zip(heads, counts[c])) for c in order)
        + "."
    )
    chart = grid_svg([names[c] for c in order], heads, [rates[c] for c in order], "Dead draws by card and rung (% of draws)", description, lambda v: f"{v:.0f}%", highest=100.0)
    words = []
    by_count: dict[int, list[int]] = {}
    for position, (players, _, _) in enumerate(found.self_play):
        by_count.setdefault(players, []).append(position)
    # One judgement per card and rung: corrected for all of them together.
    confidence = family_confidence(sum(1 for row in counts.values() for c in row if c is not None))
    for players, positions in by_count.items():
        if len(positions) < 2:
            continue
        top_rung, top_name = positions[-1], found.self_play[positions[-1]][1]

        def interval(card: str, position: int) -> Interval | None:
            row = counts[card][position]
            return None if row is None else wilson(row[0], row[1], confidence)

        def mostly_dead(card: str, position: int) -> bool:
            found_interval = interval(card, position)
            return found_interval is not None and found_interval.low > MOSTLY

        def mostly_played(card: str, position: int) -> bool:
            found_interval = interval(card, position)
            return found_interval is not None and found_interval.high < MOSTLY

        held = sorted(names[c] for c in counts if all(mostly_dead(c, p) for p in positions))
        weak = sorted(names[c] for c in counts if any(mostly_dead(c, p) for p in positions[:-1]) and mostly_played(c, top_rung))
        where = f"at {players} players" if len(by_count) > 1 else "here"
        if held:
            words.append(f"Mostly dead at every rung {where}: {', '.join(held)}. These hold as the players get better: the cards, not the bots.")
        if weak:
            words.append(f"Mostly dead at a lower rung but mostly played by {top_name} {where}: {', '.join(weak)}. These were the weaker bots' blindness.")
        if not held and not weak:
            words.append(f"No card is shown to be mostly dead {where} at every rung, nor only below the top one.")
    if words:
        words.append(
            f"A card is mostly dead at a rung when the whole interval of its dead-draw rate there lies above {MOSTLY:.0%}, and mostly played when it lies below; "
            f"these intervals are Bonferroni-corrected over every card and rung ({100 * confidence:.2f}% each), and count each draw as a trial, which makes them somewhat too narrow."
        )
    return chart, words


def _measure_chart(result: SweepResult, found: Matrix) -> str | None:
    if result.measure is None:
        return None
    title, what = result.measure
    columns = _self_play_columns(result, found)
    means = [result.figures[index].moments() for _, index in columns]
    rows = list(dict.fromkeys(row for by_row in means for row in by_row))
    if not rows:
        return None
    values = [[by_row[row].mean if row in by_row and by_row[row].count else None for by_row in means] for row in rows]
    heads = [name for name, _ in columns]
    description = (
        f"{what[0].upper()}{what[1:]}, the same bot in every seat, one column for each rung ({', '.join(heads)}). "
        + "; ".join(f"{row}: " + ", ".join(f"{h} {'-' if v is None else figure(v)}" for h, v in zip(heads, line)) for row, line in zip(rows, values))
        + "."
    )
    return grid_svg(rows, heads, values, title.replace("configuration", "rung"), description, lambda v: f"{v:.1f}")


def lay_out_matrix(command: str, result: SweepResult, rungs: tuple[str, ...], top_cards: int = 15) -> Context:
    """The page's context for a played matrix."""
    found = matrix(result.grid, result.figures)
    chart, card_words = _cards(result, found, top_cards)
    return {
        "command": command,
        "games": result.games,
        "seed": result.seed,
        "measured": {"games": result.games * len(result.grid.cells), "seeds": [result.seed]},
        "rungs": list(rungs),
        "confidence": f"{CONFIDENCE:.0%}",
        "verdicts": found.comparisons,
        "verdict_confidence": f"{100 * found.confidence:.2f}%",
        "tables": _tables(found, rungs),
        "first_seats": [{"players": f.players, "bot": f.bot, "games": f.games, "share": _share(f.interval), "fair": f"{100 / f.players:.0f}%", "sure": f.sure} for f in found.first_seats],
        "conclusions": [*_ladder_words(found, rungs), *_first_words(found), *card_words],
        "dead_chart": chart,
        "extra_chart": _measure_chart(result, found),
        "extra_measure": None if result.measure is None else result.measure[1],
    }


def matrix_context(pack: AnyPack, catalog: Any, plan: MatrixPlan) -> Context:
    """Play the plan and lay it out (a minute at most: the site stamps the result)."""
    return lay_out_matrix(command_line(pack.id, plan), play(pack, catalog, plan), plan.rungs, plan.top_cards)
