"""The matchup matrix: its cells (every seating, played once), its entries
and verdicts from constructed figures, the page laid out from a tiny made-up
result, and ``sweep --matrix`` end to end (in process) with its refusals."""

from __future__ import annotations

import json
import shlex
import statistics
from pathlib import Path

import pytest
from scipy.special import stdtrit

from engine.packs import pack_rules
from engine.sim.intervals import wilson
from engine.sources import rules_digest
from engine.sweep.figures import CardCounts, CellFigures
from engine.sweep.grid import Cell, Grid
from engine.sweep.matrix import matrix, matrix_grid, paired_interval
from engine.sweep.run import SweepResult
from engine.sweep.store import cell_key
from generator.matrix_site import MOSTLY, MatrixPlan, cell_store, command_lines, lay_out_matrix, play
from generator.render import environment
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT
from tests.kit.stationmaster import CATALOG as SM_CATALOG
from tests.kit.trickoftherails import CATALOG as TOTR_CATALOG

TOTR = str(PROJECT_ROOT / "content" / "trickoftherails")


def test_every_seating_is_a_cell_and_two_players_share_theirs() -> None:
    pack = pack_rules("trickoftherails")
    grid = matrix_grid(pack, TOTR_CATALOG, ("random", "greedy"), (3,))
    # Each rung alone, then one seat of it against the other rung, round the table.
    assert [c.seats for c in grid.cells] == [
        None, ("random", "greedy", "greedy"), ("greedy", "random", "greedy"), ("greedy", "greedy", "random"),
        None, ("greedy", "random", "random"), ("random", "greedy", "random"), ("random", "random", "greedy"),
    ]  # fmt: skip
    assert [c.bot for c in grid.cells if c.seats is None] == ["random", "greedy"]
    sm = pack_rules("stationmaster")
    two = matrix_grid(sm, SM_CATALOG, ("random", "greedy"), (2,))
    assert [c.seats for c in two.cells] == [None, ("random", "greedy"), ("greedy", "random"), None]  # (A, B) and (B, A) are the same games


def _cell(seats: tuple[str, ...] | None, bot: str = "a") -> Cell:
    return Cell(2, bot, (), (), seats)


def _figures(runs: list[tuple[int, int]], first: tuple[int, ...] = (0, 0), cards: tuple[CardCounts, ...] = ()) -> CellFigures:
    """Two-seat figures from runs of (games, winners' mask), in game order."""
    winners = tuple(mask for games, mask in runs for _ in range(games))
    seat_wins = tuple(tuple(sum(1 for m in winners if m >> seat & 1 and m.bit_count() == k) for k in (1, 2)) for seat in (0, 1))
    return CellFigures(len(winners), ((1, 2 * len(winners)),), cards, (), seat_wins, first, winners)


# Two rungs at two players, 100 games a seating: "b" wins 70 of 100 in seat
# 1 with 10 shared, and 60 in seat 0; "a" alone is fair to its first seat.
# Game i is the same deal in both seatings: b wins deals 20-59 from both seats.
CELLS = (_cell(None, "a"), _cell(("a", "b"), "a"), _cell(("b", "a"), "b"), _cell(None, "b"))
FIGURES = (
    _figures([(45, 1), (45, 2), (10, 3)], first=(45, 10), cards=(CardCounts("c", "Cee", 200, 20, 180), CardCounts("d", "Dee", 200, 20, 180))),
    _figures([(20, 1), (70, 2), (10, 3)]),
    _figures([(60, 1), (40, 2)]),
    _figures([(80, 1), (10, 2), (10, 3)], first=(80, 10), cards=(CardCounts("c", "Cee", 200, 10, 190), CardCounts("d", "Dee", 200, 180, 20))),
)
GRID = Grid((), (2,), ("a", "b"), CELLS, 0)
# b's mean share of each deal over its two seats (see the runs above).
B_DEALS = [0.5] * 20 + [1.0] * 40 + [0.5] * 30 + [0.25] * 10


def test_entries_pair_the_seatings_by_deal_and_verdicts_are_corrected() -> None:
    found = matrix(GRID, FIGURES)
    b_over_a = found.entry(2, "b", "a")
    a_over_b = found.entry(2, "a", "b")
    assert b_over_a is not None and a_over_b is not None
    # b: 70 + 10/2 in seat 1 of (a, b), 60 in seat 0 of (b, a), over 200 games.
    assert (b_over_a.points, b_over_a.games, b_over_a.deals) == (135.0, 200, 100) and b_over_a.interval.value == pytest.approx(0.675)
    assert a_over_b.points + b_over_a.points == 200  # the shares of a game add up to one
    # Student's t over the 100 deal means, not Wilson over 200 unrelated games.
    half = float(stdtrit(99, 0.975)) * statistics.stdev(B_DEALS) / 10
    assert b_over_a.interval.low == pytest.approx(0.675 - half) and b_over_a.interval.high == pytest.approx(0.675 + half)
    assert a_over_b.interval.low == pytest.approx(1 - b_over_a.interval.high)
    assert b_over_a.sure and a_over_b.sure
    assert found.comparisons == 4 and found.confidence == pytest.approx(1 - 0.05 / 4)
    # 50 of 100 for the first player with "a" everywhere is fair; 85 with "b" is not.
    assert [(f.bot, f.points, f.sure) for f in found.first_seats] == [("a", 50.0, False), ("b", 85.0, True)]
    [step] = found.steps(("a", "b"))
    assert (step.entry, step.verdict) == (b_over_a, "stronger") and step.difference.value == pytest.approx(0.175)
    assert found.steps(("b", "a"))[0].verdict == "weaker"


def test_pairing_by_deal_takes_out_the_seat() -> None:
    # Seat 0 wins most games whoever sits there: b wins one seating of most
    # deals, and both seatings of a few. Paired by deal, what the seat does
    # cancels and b's edge shows; counted as 200 unrelated games it would not.
    cells = (_cell(("a", "b"), "a"), _cell(("b", "a"), "b"))
    figures = (_figures([(90, 1), (10, 2)]), _figures([(100, 1)]))
    found = matrix(Grid((), (2,), ("a", "b"), cells, 0), figures)
    entry = found.entry(2, "b", "a")
    assert entry is not None and entry.interval.value == pytest.approx(0.55)
    assert entry.interval.low > 0.5 and wilson(110, 200).low < 0.5
    [step] = found.steps(("a", "b"))
    assert step.verdict == "stronger"


def test_deals_that_all_came_out_alike_are_not_certain() -> None:
    # Each rung wins one seating of each of two deals: no spread for t, so
    # each deal counts as one trial of Wilson's interval.
    cells = (_cell(("a", "b"), "a"), _cell(("b", "a"), "b"))
    found = matrix(Grid((), (2,), ("a", "b"), cells, 0), (_figures([(2, 1)]), _figures([(2, 1)])))
    entry = found.entry(2, "b", "a")
    assert entry is not None and (entry.interval.low, entry.interval.high) == (wilson(1, 2).low, wilson(1, 2).high)
    assert not entry.sure and found.steps(("a", "b"))[0].verdict == "unproven"


def test_a_paired_interval_stays_within_nothing_and_everything() -> None:
    interval = paired_interval([1.0, 0.0, 1.0])
    assert (interval.low, interval.high) == (0.0, 1.0)


def test_a_steps_grid_plays_each_rung_against_the_one_below_only() -> None:
    pack = pack_rules("trickoftherails")
    grid = matrix_grid(pack, TOTR_CATALOG, ("random", "greedy", "pimc-12"), (3,), steps=True)
    assert [c.seats for c in grid.cells] == [
        ("greedy", "random", "random"), ("random", "greedy", "random"), ("random", "random", "greedy"),
        ("pimc-12", "greedy", "greedy"), ("greedy", "pimc-12", "greedy"), ("greedy", "greedy", "pimc-12"),
    ]  # fmt: skip
    assert [c.bot for c in grid.cells] == ["greedy"] * 3 + ["pimc-12"] * 3


def test_winners_must_agree_with_the_seat_wins() -> None:
    good = FIGURES[1]
    assert good.inconsistency(100, 2) is None
    assert CellFigures.from_dict(good.to_dict()) == good
    swapped = CellFigures(good.games, good.scores, good.cards, good.measured, good.seat_wins, good.first_wins, good.winners[::-1])
    assert swapped.inconsistency(100, 2) is None  # the totals still agree
    wrong = CellFigures(good.games, good.scores, good.cards, good.measured, good.seat_wins, good.first_wins, (2,) + good.winners[1:])  # a win moved from seat 0 to seat 1
    assert "seat 0's wins do not match" in (wrong.inconsistency(100, 2) or "")
    short = CellFigures(good.games, good.scores, good.cards, good.measured, good.seat_wins, good.first_wins, good.winners[1:])
    assert "winners of 99 games" in (short.inconsistency(100, 2) or "")
    for bad in ([0], [4], ["1"], [True], 3):
        with pytest.raises(ValueError, match="bad winners"):
            CellFigures.from_dict({**good.to_dict(), "winners": bad})


def test_the_page_says_what_the_matrix_concludes() -> None:
    result = SweepResult("game", "Game", 100, 7, GRID, FIGURES, (), 0)
    context = lay_out_matrix(["stationmaster sweep --matrix"], result, ("a", "b"))
    words = context["conclusions"]
    assert words[0] == (
        "At 2 players, b in one seat against a in the other seat won 67.5% of the time over 100 deals, each played from every seat "
        "(fair 50%; +17.5 points, 95% interval +12.0 to +23.0): b is the stronger player, and the interval leaves no room for luck."
    )
    assert "no edge either way" in words[1] and "moving first is an advantage" in words[2]
    assert any(w.startswith("Mostly dead at every rung here: Cee.") for w in words)
    assert any(w.startswith("Mostly dead at a lower rung but mostly played by b here: Dee.") for w in words)
    assert f"{MOSTLY:.0%}" in words[-1]
    assert context["tables"][0]["rows"][1]["cells"][0] == {"text": "68% (62–73%)", "sure": True, "games": 200}
    assert context["measured"] == {"games": 400, "seeds": [7]}
    assert not context["apart"]
    page = environment("stationmaster").get_template("simulation-matrix.md.j2").render(**context)
    assert "| **b** | 68% (62–73%) ✓ | — |" in page and "| 2 players | b | 100 games | 85% (" in page and "<svg" in page
    assert "| 2 players | b over a | 100 (200 games) | 67.5% (50%) | +17.5 (+12.0 to +23.0) | stronger |" in page
    assert "Bonferroni correction for the 4 verdicts" in page and "do not meet" not in page
    assert "Each rung meets every other on 100 deals (seed 7)" in page and "```\nstationmaster sweep --matrix\n```" in page


def test_a_ladder_played_as_its_steps_says_which_rungs_never_met() -> None:
    cells = (*CELLS, _cell(("b", "c"), "c"), _cell(("c", "b"), "c"), _cell(None, "c"))
    figures = (*FIGURES, _figures([(100, 2)]), _figures([(100, 1)]), FIGURES[3])
    result = SweepResult("game", "Game", 100, 7, Grid((), (2,), ("a", "b", "c"), cells, 0), figures, (), 0)
    context = lay_out_matrix(["one", "two"], result, ("a", "b", "c"))
    assert context["apart"] and [s["verdict"] for s in context["steps"]] == ["stronger", "stronger"]
    page = environment("stationmaster").get_template("simulation-matrix.md.j2").render(**context)
    assert "Each rung meets the one below it on 100 deals" in page and "rungs two or more steps apart do not meet here" in page
    assert "| **a** | — | 32% (27–38%) ✓ | — |" in page and "```\none\n```" in page and "```\ntwo\n```" in page


def test_sweep_matrix_end_to_end(run_cli: RunCli, tmp_path: Path) -> None:
    base = ["sweep", "--game", "trickoftherails", "--content", TOTR, "--matrix", "--players", "3", "--games", "1", "--no-cache"]
    code, out, err = run_cli([*base, "--bot", "random,greedy", "--format", "json"], tmp_path)
    assert code == 0, err
    data = json.loads(out)
    assert len(data["cells"]) == 8 and data["differences"] == [] and data["comparisons"] == 0
    assert [(m["bot"], m["against"], m["games"]) for m in data["matrix"]["matchups"]] == [("random", "greedy", 3), ("greedy", "random", 3)]
    assert all(0 <= m["interval"][0] <= m["winShare"] <= m["interval"][1] <= 1 for m in data["matrix"]["matchups"])
    assert [f["bot"] for f in data["matrix"]["firstSeat"]] == ["random", "greedy"]
    assert [(s["upper"], s["lower"], s["deals"]) for s in data["matrix"]["steps"]] == [("greedy", "random", 1)]


def test_sweep_matrix_steps_end_to_end(run_cli: RunCli, tmp_path: Path) -> None:
    base = ["sweep", "--game", "trickoftherails", "--content", TOTR, "--matrix", "--steps", "--players", "3", "--games", "1", "--no-cache"]
    code, out, err = run_cli([*base, "--bot", "random,greedy", "--format", "json"], tmp_path)
    assert code == 0, err
    data = json.loads(out)
    assert [c["seats"] for c in data["cells"]] == [["greedy", "random", "random"], ["random", "greedy", "random"], ["random", "random", "greedy"]]
    assert data["matrix"]["firstSeat"] == [] and [s["upper"] for s in data["matrix"]["steps"]] == ["greedy"]
    code, out, err = run_cli([*base, "--bot", "random,greedy"], tmp_path)
    assert code == 0 and "greedy over random" in out and "each step judged alone" in out, err


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ([], "--matrix needs the ladder's bots"),
        (["--bot", "random"], "at least two bots"),
        (["--bot", "random,greedy", "--rule", "variant=basic"], "drop --rule"),
        (["--bot", "random,nobody"], "no such bot"),
    ],
)
def test_sweep_matrix_refusals(run_cli: RunCli, tmp_path: Path, extra: list[str], words: str) -> None:
    code, out, err = run_cli(["sweep", "--game", "trickoftherails", "--content", TOTR, "--matrix", "--players", "3", "--games", "1", "--no-cache", *extra], tmp_path)
    assert (code, out) == (2, "") and words in err and err.count("\n") == 1, err


def test_steps_without_matrix_is_refused(run_cli: RunCli, tmp_path: Path) -> None:
    code, out, err = run_cli(["sweep", "--game", "trickoftherails", "--content", TOTR, "--steps", "--bot", "random,greedy", "--games", "1", "--no-cache"], tmp_path)
    assert (code, out) == (2, "") and "--steps picks a ladder's matchups: give it with --matrix" in err and err.count("\n") == 1, err


class _Report:
    """Three games of three seats: seat 0 alone, seats 1 and 2 tied, all three tied."""

    games = 3
    cards: dict[str, object] = {}

    def score_values(self) -> list[int]:
        return [9, 1, 1, 2, 5, 5, 4, 4, 4]

    def first_seats(self) -> list[int]:
        return [0, 0, 2]

    def to_text(self) -> str:
        return ""

    def to_json(self) -> str:
        return ""


def test_a_cell_keeps_each_seats_wins_by_how_many_shared_them() -> None:
    figures = CellFigures.from_report(_Report(), None, 3)  # type: ignore[arg-type]
    assert figures.seat_wins == ((1, 0, 1), (0, 1, 1), (0, 1, 1))
    assert figures.first_wins == (1, 0, 1)  # seat 0 won alone, lost, then seat 2 shared a three-way tie
    assert figures.winners == (0b001, 0b110, 0b111) and figures.share(1) == [0.0, 0.5, 1 / 3]
    assert CellFigures.from_dict(figures.to_dict()) == figures
    assert figures.inconsistency(3, 3) is None and figures.inconsistency(3, 2) is not None


def test_a_ladder_report_keeps_its_cells_and_finds_them_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The page's ladder is CPU-hours: its cells are kept, keyed by what
    plays them (the report's own stamp), so a report laid out again after a
    change to its words plays nothing."""
    pack = pack_rules("trickoftherails")
    plan = MatrixPlan(("random", "greedy"), (3,), 1, 5, steps=True, self_play_games=1)
    first = play(pack, TOTR_CATALOG, plan, cell_store(tmp_path / "cache"))
    assert first.cached == 0 and len(first.grid.cells) == 5
    again = play(pack, TOTR_CATALOG, plan, cell_store(tmp_path / "cache"))
    assert again.cached == 5 and again.figures == first.figures and again.grid == first.grid
    step_cell = first.grid.cells[2]
    assert (tmp_path / "cache" / f"{cell_key(pack.id, step_cell, 1, 5, TOTR_CATALOG.fingerprint, rules_digest(pack.id))}.json").is_file()
    # A cache that cannot be used is measured without, and said so.
    (tmp_path / "taken").write_text("a file, not a folder", encoding="utf-8")
    unused = cell_store(tmp_path / "taken")
    assert unused.folder is None and "measuring without it" in capsys.readouterr().err


def test_the_commands_a_page_prints_leave_the_cells_its_report_reads(run_cli: RunCli, tmp_path: Path) -> None:
    """Run on a cluster, say: `make reports` then plays nothing."""
    plan = MatrixPlan(("random", "greedy"), (3,), 1, 5, steps=True, self_play_games=1)
    for line in command_lines("trickoftherails", plan):
        words = shlex.split(line)
        assert words[:2] == ["stationmaster", "sweep"]
        result = run_cli([*words[1:], "--content", TOTR, "--cache", str(tmp_path / "cache")], tmp_path)
        assert result.code == 0, result.err
    played = play(pack_rules("trickoftherails"), TOTR_CATALOG, plan, cell_store(tmp_path / "cache"))
    assert played.cached == len(played.grid.cells) == 5
