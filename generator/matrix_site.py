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

A ladder with search rungs is played as its *steps* (each rung against the
one below it) and its rungs' self-play, the latter on fewer games: a
search rung's game costs seconds, so every pair of rungs on enough deals to
tell adjacent rungs apart would cost CPU-hours a measurement. The two parts
are two sweeps (``sweep --matrix --steps`` and a plain ``sweep`` of the
rungs), laid out as one matrix.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.errors import UsageError
from engine.pack import AnyPack
from engine.sim.intervals import CONFIDENCE, Interval, family_confidence, wilson
from engine.sources import rules_digest
from engine.sweep.grid import Grid, build_grid
from engine.sweep.matrix import Matrix, Step, matrix, matrix_grid
from engine.sweep.run import SweepResult, sweep
from engine.sweep.runner import pool_runner
from engine.sweep.store import DEFAULT_CACHE, CellStore
from generator.charts import figure, grid_svg
from generator.forked import cores
from generator.tableset import Context

# A card is "mostly dead" at a rung when the whole interval of its dead-draw
# rate there lies above one half: more of its draws are wasted than played,
# and the games leave no doubt of it.
MOSTLY: float = 0.5


@dataclass(frozen=True)
class MatrixPlan:
    """The ladder a page shows: ``rungs`` (weakest first), each against each
    at every count of ``players``, ``games`` games a seating seeded ``seed``;
    the dead-draw chart shows at most ``top_cards`` cards. With ``steps``,
    only each rung against the one below it, and the rungs' self-play on
    ``self_play_games`` games (``games`` when None)."""

    rungs: tuple[str, ...]
    players: tuple[int, ...]
    games: int
    seed: int
    top_cards: int = 15
    steps: bool = False
    self_play_games: int | None = None

    @property
    def alone_games(self) -> int:
        """Games of each self-play cell."""
        return self.games if self.self_play_games is None else self.self_play_games


def command_lines(pack_id: str, plan: MatrixPlan) -> list[str]:
    """The ``stationmaster sweep`` commands that play the same cells: one
    matrix, or a ladder's steps and then its rungs' self-play."""
    counts = ",".join(map(str, plan.players))
    bots = ",".join(plan.rungs)
    matrix_line = ["stationmaster", "sweep", "--game", pack_id, "--matrix", *(["--steps"] if plan.steps else []), "--players", counts, "--bot", bots]
    lines = [shlex.join([*matrix_line, "--games", str(plan.games), "--seed", str(plan.seed)])]
    if plan.steps:
        lines.append(shlex.join(["stationmaster", "sweep", "--game", pack_id, "--players", counts, "--bot", bots, "--games", str(plan.alone_games), "--seed", str(plan.seed)]))
    return lines


# Below this many games a cell, starting worker processes costs more than it saves.
_WORKERS_FROM = 20


def _note(line: str) -> None:
    print(f"stationmaster: {line}", file=sys.stderr)


def cell_store(folder: Path | None) -> CellStore:
    """The cache a matrix's cells are kept in (none for None, or a folder
    that cannot be used: a cache is never a reason to fail)."""
    store = CellStore(folder, _note)
    try:
        store.open()
    except UsageError as exc:
        _note(f"{exc}; measuring without it")
        return CellStore(None, _note)
    return store


def _play(pack: AnyPack, catalog: Any, grid: Grid, games: int, seed: int, store: CellStore) -> SweepResult:
    runner = pool_runner(pack, catalog, games, seed, cores() if games >= _WORKERS_FROM else 1, None)
    # Keyed by what plays the games (``rules_digest``, the figures' own
    # stamp), not by the whole generator's code: a report laid out anew
    # after a change to its words finds every cell it played.
    return sweep(pack, catalog, grid, games, seed, store, runner, engine_code=rules_digest(pack.id))


def play(pack: AnyPack, catalog: Any, plan: MatrixPlan, store: CellStore | None = None) -> SweepResult:
    """Play the plan's matrix, each cell over this machine's cores, the
    finished cells kept in ``store`` (None: no cache). A ladder's steps and
    self-play come back as one result: the self-play cells first, then the
    steps."""
    store = store or CellStore(None, _note)
    grid = matrix_grid(pack, catalog, plan.rungs, plan.players, steps=plan.steps)
    played = _play(pack, catalog, grid, plan.games, plan.seed, store)
    if not plan.steps:
        return played
    alone = _play(pack, catalog, build_grid(pack, catalog, (), plan.players, plan.rungs), plan.alone_games, plan.seed, store)
    cells = (*alone.grid.cells, *grid.cells)
    return replace(played, grid=Grid((), grid.players, grid.bots, cells, 0), figures=(*alone.figures, *played.figures), cached=alone.cached + played.cached)


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


def _points(value: float) -> str:
    return f"{100 * value:+.1f}".replace("-", "\N{MINUS SIGN}")


def _step_row(step: Step) -> Context:
    difference = step.difference
    return {
        "players": step.entry.players, "upper": step.entry.bot, "lower": step.entry.against, "deals": step.entry.deals, "games": step.entry.games,
        "share": f"{100 * step.entry.interval.value:.1f}%", "fair": f"{100 / step.entry.players:.0f}%",
        "difference": f"{_points(difference.value)} ({_points(difference.low)} to {_points(difference.high)})", "verdict": step.verdict,
    }  # fmt: skip


def _ladder_words(steps: tuple[Step, ...]) -> list[str]:
    """Each step of the ladder, at each count, in a sentence."""
    words = []
    for step in steps:
        entry = step.entry
        rivals = "the other seat" if entry.players == 2 else "every other seat"
        where = (
            f"At {entry.players} players, {entry.bot} in one seat against {entry.against} in {rivals} won {100 * entry.interval.value:.1f}% of the time over "
            f"{entry.deals} deals, each played from every seat (fair {100 / entry.players:.0f}%; {_points(step.difference.value)} points, {CONFIDENCE:.0%} interval "
            f"{_points(step.difference.low)} to {_points(step.difference.high)})"
        )
        if step.verdict == "stronger":
            words.append(f"{where}: {entry.bot} is the stronger player, and the interval leaves no room for luck.")
        elif step.verdict == "weaker":
            words.append(f"{where}: {entry.bot} is the weaker player, so this step of the ladder is upside down.")
        else:
            words.append(f"{where}: these deals cannot tell the two apart, so this step of the ladder is not shown to be real.")
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


def lay_out_matrix(commands: list[str], result: SweepResult, rungs: tuple[str, ...], top_cards: int = 15) -> Context:
    """The page's context for a played matrix (``commands`` play it again)."""
    found = matrix(result.grid, result.figures)
    steps = found.steps(rungs)
    chart, card_words = _cards(result, found, top_cards)
    met = {frozenset((m.bot, m.against)) for m in found.matchups}
    return {
        "commands": commands,
        "games": result.games,
        "alone_games": next((f.games for cell, f in zip(result.grid.cells, result.figures) if cell.seats is None), result.games),
        # Some rungs two or more steps apart never met: a ladder played as its steps.
        "apart": any(frozenset((low, high)) not in met for i, low in enumerate(rungs) for high in rungs[i + 2 :]),
        "seed": result.seed,
        "measured": {"games": sum(f.games for f in result.figures), "seeds": [result.seed]},
        "rungs": list(rungs),
        "confidence": f"{CONFIDENCE:.0%}",
        "verdicts": found.comparisons,
        "verdict_confidence": f"{100 * found.confidence:.2f}%",
        "steps": [_step_row(step) for step in steps],
        "tables": _tables(found, rungs),
        "first_seats": [{"players": f.players, "bot": f.bot, "games": f.games, "share": _share(f.interval), "fair": f"{100 / f.players:.0f}%", "sure": f.sure} for f in found.first_seats],
        "conclusions": [*_ladder_words(steps), *_first_words(found), *card_words],
        "dead_chart": chart,
        "extra_chart": _measure_chart(result, found),
        "extra_measure": None if result.measure is None else result.measure[1],
    }


def matrix_context(pack: AnyPack, catalog: Any, plan: MatrixPlan) -> Context:
    """Play the plan and lay it out (the site stamps the result). A ladder
    with search rungs takes CPU-hours over every core, so its cells are
    kept in the project's sweep cache (run in the project, as ``cards
    --reports`` is): a measurement stopped part-way resumes, and a report
    whose words changed is laid out again in seconds."""
    played = play(pack, catalog, plan, cell_store(Path.cwd() / DEFAULT_CACHE))
    return lay_out_matrix(command_lines(pack.id, plan), played, plan.rungs, plan.top_cards)
