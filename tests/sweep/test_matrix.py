"""The matchup matrix: its cells (every seating, played once), its entries
and verdicts from constructed figures, the page laid out from a tiny made-up
result, and ``sweep --matrix`` end to end (in process) with its refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.packs import pack_rules
from engine.sweep.figures import CardCounts, CellFigures
from engine.sweep.grid import Cell, Grid
from engine.sweep.matrix import matrix, matrix_grid
from engine.sweep.run import SweepResult
from generator.matrix_site import MOSTLY, lay_out_matrix
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


def _figures(games: int, seat_wins: tuple[tuple[int, ...], ...], first: tuple[int, ...] = (0, 0), cards: tuple[CardCounts, ...] = ()) -> CellFigures:
    return CellFigures(games, ((1, 2 * games),), cards, (), seat_wins, first)


# Two rungs at two players, 100 games a seating: "b" wins 70 of 100 in seat
# 0 and 60 in seat 1, with 10 shared games; "a" alone is fair to its first seat.
CELLS = (_cell(None, "a"), _cell(("a", "b"), "a"), _cell(("b", "a"), "b"), _cell(None, "b"))
FIGURES = (
    _figures(100, ((45, 10), (45, 10)), first=(45, 10), cards=(CardCounts("c", "Cee", 200, 20, 180), CardCounts("d", "Dee", 200, 20, 180))),
    _figures(100, ((20, 10), (70, 10))),
    _figures(100, ((60, 0), (40, 0))),
    _figures(100, ((80, 10), (10, 10)), first=(80, 10), cards=(CardCounts("c", "Cee", 200, 10, 190), CardCounts("d", "Dee", 200, 180, 20))),
)
GRID = Grid((), (2,), ("a", "b"), CELLS, 0)


def test_entries_count_a_shared_win_as_half_and_verdicts_are_corrected() -> None:
    found = matrix(GRID, FIGURES)
    b_over_a = found.entry(2, "b", "a")
    a_over_b = found.entry(2, "a", "b")
    assert b_over_a is not None and a_over_b is not None
    # b: 70 + 10/2 in seat 1 of (a, b), 60 in seat 0 of (b, a), over 200 games.
    assert (b_over_a.points, b_over_a.games) == (135.0, 200) and b_over_a.interval.value == pytest.approx(0.675)
    assert a_over_b.points + b_over_a.points == 200  # the shares of a game add up to one
    assert b_over_a.sure and a_over_b.sure
    assert found.comparisons == 4 and found.confidence == pytest.approx(1 - 0.05 / 4)
    # 50 of 100 for the first player with "a" everywhere is fair; 85 with "b" is not.
    assert [(f.bot, f.points, f.sure) for f in found.first_seats] == [("a", 50.0, False), ("b", 85.0, True)]


def test_the_page_says_what_the_matrix_concludes() -> None:
    result = SweepResult("game", "Game", 100, 7, GRID, FIGURES, (), 0)
    context = lay_out_matrix("stationmaster sweep --matrix", result, ("a", "b"))
    words = context["conclusions"]
    assert words[0].startswith("At 2 players, b in one seat against a in the other won 68% (61–74%) over 200 games (fair 50%): b is the stronger player")
    assert "no edge either way" in words[1] and "moving first is an advantage" in words[2]
    assert any(w.startswith("Mostly dead at every rung here: Cee.") for w in words)
    assert any(w.startswith("Mostly dead at a lower rung but mostly played by b here: Dee.") for w in words)
    assert f"{MOSTLY:.0%}" in words[-1]
    assert context["tables"][0]["rows"][1]["cells"][0] == {"text": "68% (61–74%)", "sure": True, "games": 200}
    assert context["measured"] == {"games": 400, "seeds": [7]}
    page = environment("stationmaster").get_template("simulation-matrix.md.j2").render(**context)
    assert "| **b** | 68% (61–74%) ✓ | — |" in page and "| 2 players | b | 100 games | 85% (" in page and "<svg" in page
    assert "Bonferroni correction for the 4 verdicts" in page


def test_sweep_matrix_end_to_end(run_cli: RunCli, tmp_path: Path) -> None:
    base = ["sweep", "--game", "trickoftherails", "--content", TOTR, "--matrix", "--players", "3", "--games", "1", "--no-cache"]
    code, out, err = run_cli([*base, "--bot", "random,greedy", "--format", "json"], tmp_path)
    assert code == 0, err
    data = json.loads(out)
    assert len(data["cells"]) == 8 and data["differences"] == [] and data["comparisons"] == 0
    assert [(m["bot"], m["against"], m["games"]) for m in data["matrix"]["matchups"]] == [("random", "greedy", 3), ("greedy", "random", 3)]
    assert all(0 <= m["interval"][0] <= m["winShare"] <= m["interval"][1] <= 1 for m in data["matrix"]["matchups"])
    assert [f["bot"] for f in data["matrix"]["firstSeat"]] == ["random", "greedy"]


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
    assert CellFigures.from_dict(figures.to_dict()) == figures
    assert figures.inconsistency(3, 3) is None and figures.inconsistency(3, 2) is not None
