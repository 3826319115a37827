"""``stationmaster sweep``: a grid of configurations for either pack, the same
output for any number of workers and whether cells come from the cache or
not, a cache that is never trusted beyond its key, the differences worded
and thresholded as documented, and a one-line error (exit 2, nothing
written) for every kind of bad input."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.packs import pack_rules
from engine.stationmaster.bots import BOTS as STATION_MASTER_BOTS
from engine.sweep import runner as runners
from engine.sweep.differences import compare, comparisons, judge
from engine.sweep.figures import CardCounts, CellFigures
from engine.sweep.grid import Cell, build_grid
from engine.sweep.run import sweep
from engine.sweep.runner import CellProgress, CellRunner
from engine.sweep.store import FORMAT, CellStore
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT

SM = str(PROJECT_ROOT / "content" / "stationmaster")
TOTR = str(PROJECT_ROOT / "content" / "trickoftherails")
# Four cells of random play: quick, and a rule, a player count and the baseline.
SMALL = ["sweep", "--content", SM, "--rule", "startingOffice=depot,whistle-post", "--players", "1,2", "--games", "3", "--seed", "5"]


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many cells each run of the pool runner was given (one entry a sweep)."""
    counts: list[int] = []
    real = runners.pool_runner

    def counting(*args: object, **kwargs: object) -> CellRunner:
        inner = real(*args, **kwargs)  # type: ignore[arg-type]

        def run(cells: Sequence[Cell], progress: CellProgress | None) -> Iterator[CellFigures]:
            counts.append(len(cells))
            return inner(cells, progress)

        return run

    monkeypatch.setattr(runners, "pool_runner", counting)
    return counts


def test_a_small_station_master_sweep(run_cli: RunCli, tmp_path: Path, played: list[int]) -> None:
    code, out, err = run_cli(SMALL, tmp_path)
    assert (code, err) == (0, ""), err  # no progress when stderr is no terminal
    assert "Station Master sweep: 4 cell(s) of 3 game(s), seed 5" in out
    for label in ("1. startingOffice=depot, 1 player, random bot", "4. startingOffice=whistle-post, 2 players, random bot"):
        assert label in out
    assert "baseline: cell 1 (startingOffice=depot, 1 player, random bot)" in out
    assert "differences from the baseline that matter" in out
    assert played == [4]
    assert len(list((tmp_path / ".sweep-cache").glob("*.json"))) == 4


def test_a_small_trick_of_the_rails_sweep_as_json(run_cli: RunCli, tmp_path: Path) -> None:
    code, out, err = run_cli(
        ["sweep", "--game", "trickoftherails", "--content", TOTR, "--rule", "variant=basic,expert", "--players", "3,4", "--bot", "random", "--games", "2", "--format", "json"], tmp_path
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == "sweep/2" and data["game"] == "trickoftherails" and data["games"] == 2 and data["seed"] == 0
    assert data["grid"]["houseRules"] == {"variant": ["basic", "expert"]} and data["grid"]["players"] == [3, 4] and data["grid"]["bots"] == ["random"]
    assert data["baseline"] == 0
    assert data["measure"] == {"title": "Mean share value by company and configuration", "what": "each company's mean share value at the end of the games"}
    assert [(c["houseRules"]["variant"], c["players"]) for c in data["cells"]] == [("basic", 3), ("basic", 4), ("expert", 3), ("expert", 4)]
    for cell in data["cells"]:
        assert list(cell["measured"]) == ["B&O", "C&O", "ERIE", "NYC", "PRR"]
        assert all(row["count"] == 2 and row["mean"] == row["total"] / 2 for row in cell["measured"].values())
    for cell in data["cells"]:
        assert set(cell["score"]) == {"min", "q1", "median", "q3", "max", "mean", "meanInterval", "count"}
        assert sum(bar["count"] for bar in cell["scoreHistogram"]) == 2 * cell["players"]
        assert cell["score"]["min"] <= cell["score"]["q1"] <= cell["score"]["median"] <= cell["score"]["q3"] <= cell["score"]["max"]
    assert all(set(d) == {"cell", "subject", "measure", "baseline", "value", "text"} for d in data["differences"])
    assert "differences" in data["definitions"]


def test_json_has_every_cards_rates(run_cli: RunCli, tmp_path: Path) -> None:
    code, out, err = run_cli([*SMALL, "--format", "json", "--no-cache"], tmp_path)
    assert code == 0, err
    data = json.loads(out)
    cards = data["cells"][0]["cards"]
    assert cards, "Station Master reports its cards"
    for figures in cards.values():
        assert set(figures) == {"name", "drawn", "played", "dead", "drawnPerGame", "drawnPerHand", "playRate", "deadRate", "playRateInterval", "deadRateInterval"}
        assert figures["played"] + figures["dead"] == figures["drawn"]
    assert not (tmp_path / ".sweep-cache").exists(), "--no-cache writes no cache"


def test_the_same_output_for_one_and_two_workers(run_cli: RunCli, tmp_path: Path) -> None:
    one = run_cli([*SMALL, "--no-cache", "--games", "4"], tmp_path)
    two = run_cli([*SMALL, "--no-cache", "--games", "4", "--workers", "2"], tmp_path)
    assert one.code == two.code == 0
    assert one.out == two.out


def test_a_resumed_sweep_plays_only_the_missing_cell_and_says_the_same(run_cli: RunCli, tmp_path: Path, played: list[int]) -> None:
    first = run_cli(SMALL, tmp_path)
    cache = tmp_path / ".sweep-cache"
    files = sorted(cache.glob("*.json"))
    files[2].unlink()
    again = run_cli(SMALL, tmp_path)
    assert played == [4, 1]
    assert again.out == first.out and again.code == 0
    assert sorted(cache.glob("*.json")) == files, "the cell is stored again under the same key"
    run_cli(SMALL, tmp_path)
    assert played == [4, 1, 0]
    # The output written to a file is the same bytes too.
    assert run_cli([*SMALL, "--output", "out.txt"], tmp_path).code == 0
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == first.out


def test_a_cache_from_other_content_is_not_used(run_cli: RunCli, tmp_path: Path, played: list[int]) -> None:
    content = tmp_path / "content"
    shutil.copytree(SM, content)
    args = ["sweep", "--content", str(content), "--rule", "startingOffice=depot,whistle-post", "--games", "2"]
    assert run_cli(args, tmp_path).code == 0
    game = content / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "\n# a comment: other bytes, other content\n", encoding="utf-8")
    again = run_cli(args, tmp_path)
    assert again.code == 0
    # Said, in one line, so that a slow re-run is no mystery; not an error,
    # since a designer who edits a card and sweeps again wants new figures.
    assert again.err == ("stationmaster sweep: 2 of the 2 cell(s) to play were cached from other content or engine code; playing afresh (the old entries stay until the cache folder is deleted)\n")
    assert played == [2, 2]
    assert len(list((tmp_path / ".sweep-cache").glob("*.json"))) == 4


def test_a_cache_from_other_engine_code_is_not_used(tmp_path: Path) -> None:
    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(Path(SM))
    grid = build_grid(pack, catalog, ["startingOffice=depot,whistle-post"], None, None)
    notes: list[str] = []
    store = CellStore(tmp_path, notes.append)
    given: list[int] = []
    real = runners.pool_runner(pack, catalog, 2, 0, 1, None)

    def counting(cells: Sequence[Cell], progress: CellProgress | None) -> Iterator[CellFigures]:
        given.append(len(cells))
        return real(cells, progress)

    one = sweep(pack, catalog, grid, 2, 0, store, counting, engine_code="a")
    two = sweep(pack, catalog, grid, 2, 0, store, counting, engine_code="b")
    three = sweep(pack, catalog, grid, 2, 0, store, counting, engine_code="a")
    assert given == [2, 2, 0]
    assert one.figures == two.figures == three.figures and three.cached == 2
    assert notes == ["2 of the 2 cell(s) to play were cached from other content or engine code; playing afresh (the old entries stay until the cache folder is deleted)"]


def test_figures_a_runner_hands_back_must_add_up_too(tmp_path: Path) -> None:
    """A runner elsewhere (a cluster's worker) is checked as the cache is:
    figures that do not add up are neither kept nor reported."""
    from engine.errors import UsageError

    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(Path(SM))
    grid = build_grid(pack, catalog, [], [1, 2], None)

    def forging(cells: Sequence[Cell], progress: CellProgress | None) -> Iterator[CellFigures]:
        for _ in cells:
            yield CellFigures(2, ((5, 2),), ())  # two scores: right for one seat, not for two

    store = CellStore(tmp_path, lambda note: None)
    with pytest.raises(UsageError, match=r"the cell 2 players, random bot came back with figures that do not add up \(2 scores for 2 games of 2 seats"):
        sweep(pack, catalog, grid, 2, 0, store, forging, engine_code="a")
    assert len(list(tmp_path.glob("*.json"))) == 1, "only the cell that adds up is kept"


@pytest.mark.parametrize("damage", [b"{not json", b"", b'{"format": "sweep-cell/2", "key": "someone else", "figures": {}}', b"\xff\xfe", b'{"format": "sweep-cell/2"}'])
def test_a_damaged_cache_file_is_played_again_with_a_note(run_cli: RunCli, tmp_path: Path, played: list[int], damage: bytes) -> None:
    first = run_cli(SMALL, tmp_path)
    victim = sorted((tmp_path / ".sweep-cache").glob("*.json"))[1]
    victim.write_bytes(damage)
    again = run_cli(SMALL, tmp_path)
    assert again.code == 0 and again.out == first.out
    assert played == [4, 1]
    assert again.err.count("\n") == 1 and victim.name in again.err and "playing it again" in again.err
    assert json.loads(victim.read_text(encoding="utf-8"))["format"] == FORMAT, "the damaged file is replaced"


def _forged(victim: Path, change: Callable[[dict[str, Any]], object]) -> None:
    """Rewrite the cached cell ``victim`` well-formed, with ``change`` made to its figures."""
    data = json.loads(victim.read_text(encoding="utf-8"))
    change(data["figures"])
    victim.write_text(json.dumps(data), encoding="utf-8")


def _plant(victim: Path, how: str) -> None:
    key = victim.name[: -len(".json")]
    if how == "fifo":
        victim.unlink()
        os.mkfifo(victim)
    elif how == "link to a device":
        victim.unlink()
        victim.symlink_to("/dev/null")  # /dev/zero in the issue; a device on every machine
    elif how == "nested":
        victim.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    elif how == "4000 digits":
        _forged(victim, lambda f: f["scores"].__setitem__(0, [int("9" * 4000), 1]))
    elif how == "count 10**300":
        victim.write_text(
            json.dumps({"format": FORMAT, "key": key, "figures": {"games": 3, "scores": [[1, 10**300]], "cards": [], "measured": [], "seatWins": [], "firstWins": [], "winners": []}}), encoding="utf-8"
        )
    elif how == "scores that do not add up":
        _forged(victim, lambda f: f["scores"].__setitem__(0, [f["scores"][0][0], f["scores"][0][1] + 1]))
    elif how == "another game count":
        _forged(victim, lambda f: f.__setitem__("games", 7))
    elif how == "played more than drawn":
        _forged(victim, lambda f: f["cards"][0].__setitem__(3, f["cards"][0][2] + 1))
    elif how == "a folder":
        victim.unlink()
        victim.mkdir()
    else:  # pragma: no cover
        raise AssertionError(how)


PLANTED = ["fifo", "link to a device", "nested", "4000 digits", "count 10**300", "scores that do not add up", "another game count", "played more than drawn", "a folder"]


@pytest.mark.parametrize("how", PLANTED)
def test_a_hostile_or_forged_cached_cell_is_played_again_with_one_note(run_cli: RunCli, tmp_path: Path, played: list[int], how: str) -> None:
    """Issue 23, point 5: the cache is read through the kit's one JSON reader
    and every cell's figures must add up; nothing hangs, nothing is exit 3,
    and no forged figure is reported as measured."""
    first = run_cli(SMALL, tmp_path)
    victim = sorted((tmp_path / ".sweep-cache").glob("*.json"))[1]
    _plant(victim, how)
    again = run_cli(SMALL, tmp_path)
    assert again.code == 0 and again.out == first.out, again.err
    assert played == [4, 1]
    assert again.err.count("\n") == 1 and "playing it again" in again.err and victim.name in again.err, again.err


def test_a_damaged_figures_record_is_refused() -> None:
    good = CellFigures(2, ((1, 2),), (CardCounts("a", "A", 3, 2, 1),), (("B&O", 90, 2, 4050),))
    assert CellFigures.from_dict(good.to_dict()) == good
    bad: object
    one = {"games": 1, "scores": [[1, 1]], "cards": [], "measured": [], "seatWins": [], "firstWins": [], "winners": []}
    for bad in (
        {**one, "games": 0}, {**one, "scores": []}, {**one, "cards": [["a", "A", -1, 0, 0]]}, [], {**one, "games": True},
        {**one, "measured": [["B&O", 1.5, 1, 1]]}, {**one, "measured": [["B&O", 1, -1, 1]]}, {**one, "measured": [[1, 1, 1, 1]]}, {"games": 1, "scores": [[1, 1]], "cards": []},
    ):  # fmt: skip
        with pytest.raises(ValueError):
            CellFigures.from_dict(bad)


def test_figures_that_do_not_add_up_are_told_from_those_that_do() -> None:
    good = CellFigures(2, ((1, 2), (4, 2)), (CardCounts("a", "A", 3, 2, 1),), (("B&O", 90, 2, 4050),))
    assert good.inconsistency(2, 2) is None
    assert "4 scores for 2 games of 3 seats" in (good.inconsistency(2, 3) or "")
    assert "not the 5 asked for" in (good.inconsistency(5, 2) or "")
    assert "drawn" in (CellFigures(1, ((1, 1),), (CardCounts("a", "A", 10**9, 0, 0),)).inconsistency(1, 1) or "")
    one = {"games": 1, "scores": [[1, 1]], "cards": [], "measured": [], "seatWins": [], "firstWins": [], "winners": []}
    for bad in (
        {**one, "scores": [[2, 1], [1, 1]]}, {**one, "scores": [[1, 1], [1, 1]]}, {**one, "scores": [[1, 10**300]]},
        {**one, "cards": [["a", "A", 1, 1, 1]]}, {**one, "cards": [["a", "A", 1, 1, 0], ["a", "A", 1, 1, 0]]}, {**one, "games": 10**300},
    ):  # fmt: skip
        with pytest.raises(ValueError):
            CellFigures.from_dict(bad)


BAD = [
    (["--rule", "startingOffice=nowhere"], "--rule startingOffice=nowhere: house rule 'startingOffice' has no option 'nowhere'"),
    (["--rule", "noSuchRule=1"], "--rule noSuchRule=1: unknown house rule 'noSuchRule'"),
    (["--rule", "startingOffice="], "an empty value"),
    (["--rule", "startingOffice=depot,,whistle-post"], "an empty value"),
    (["--rule", "startingOffice"], "write KEY=VALUE1,VALUE2"),
    (["--rule", "startingOffice=depot,depot"], "'depot' is listed twice"),
    (["--rule", "startingOffice=depot", "--rule", "startingOffice=whistle-post"], "--rule startingOffice is given twice"),
    (["--bot", "nobody"], f"--bot nobody: game 'stationmaster' has no such bot; its bots: {', '.join(STATION_MASTER_BOTS)}"),
    (["--bot", ""], "--bot '': an empty value"),
    (["--players", ""], "--players '': an empty value"),
    (["--players", "1,two"], "'two' is not a whole number"),
    (["--players", "1,9"], "the cell 1 player... cannot"),  # checked loosely below
    (["--content", "no-such-folder"], "no-such-folder"),
]


@pytest.mark.parametrize(("extra", "message"), BAD)
def test_bad_input_is_one_line_exit_2_and_nothing_written(run_cli: RunCli, tmp_path: Path, played: list[int], extra: list[str], message: str) -> None:
    args = ["sweep", "--content", SM, "--games", "2", *extra, "--output", "report.txt"]
    code, out, err = run_cli(args, tmp_path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("stationmaster sweep: error: "), err
    if "..." in message:
        assert "cannot be played" in err and "9" in err
    else:
        assert message in err
    assert played == [] and not (tmp_path / "report.txt").exists() and not (tmp_path / ".sweep-cache").exists()


def test_a_cell_trick_of_the_rails_cannot_set_up(run_cli: RunCli, tmp_path: Path) -> None:
    for extra, words in (
        (["--players", "2"], "Trick of the Rails is played by 3, 4, 5 players, not 2"),
        (["--rule", "teams=true,false", "--players", "3,4"], "the cell teams=true, 3 players, random bot cannot be played"),
    ):
        code, out, err = run_cli(["sweep", "--game", "trickoftherails", "--content", TOTR, "--games", "1", *extra], tmp_path)
        assert (code, out) == (2, "") and err.count("\n") == 1 and words in err, err


def test_zero_games_is_a_usage_error(run_cli: RunCli, tmp_path: Path) -> None:
    code, out, err = run_cli(["sweep", "--content", SM, "--games", "0"], tmp_path)
    assert (code, out) == (2, "") and "--games: must be from 1" in err
    assert not (tmp_path / ".sweep-cache").exists()


def test_a_cache_folder_that_is_a_file(run_cli: RunCli, tmp_path: Path, played: list[int]) -> None:
    (tmp_path / "taken").write_text("a file", encoding="utf-8")
    code, out, err = run_cli([*SMALL, "--cache", "taken"], tmp_path)
    assert (code, out, played) == (2, "", [])
    assert err.count("\n") == 1 and "cannot use the cache folder taken" in err


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anywhere")
def test_a_cache_folder_that_cannot_be_written(run_cli: RunCli, tmp_path: Path) -> None:  # pragma: no cover - only as a user
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, out, err = run_cli([*SMALL, "--cache", "locked"], tmp_path)
    finally:
        locked.chmod(0o700)
    assert (code, out) == (2, "") and "cannot use the cache folder" in err


def test_an_output_that_cannot_be_written_leaves_the_cache(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    code, out, err = run_cli([*SMALL, "--output", "adir"], tmp_path)
    assert (code, out) == (2, "") and "cannot write adir" in err and err.count("\n") == 1


def _figures(scores: list[int], cards: Sequence[CardCounts] = ()) -> CellFigures:
    from collections import Counter

    return CellFigures(len(scores), tuple(sorted(Counter(scores).items())), tuple(cards))


def test_differences_are_listed_when_their_corrected_interval_excludes_zero() -> None:
    base_cell = Cell(1, "greedy", (("start", "depot"),), (("start", "depot"),))
    cell = Cell(1, "greedy", (("start", "whistle-post"),), (("start", "whistle-post"),))
    base = _figures([5, 6, 6, 6, 7] * 8, [CardCounts("t", "Trackage Rights", 100, 88, 12), CardCounts("s", "Straight", 10, 7, 3)])
    other = _figures([3, 3, 4, 4, 4] * 8, [CardCounts("t", "Trackage Rights", 100, 45, 55), CardCounts("s", "Straight", 10, 4, 6)])
    pending = comparisons(1, cell, other, base_cell, base)
    assert len(pending) == 5  # the mean score, two dead-draw rates, two draw rates
    texts = [d.text for d in judge(pending, len(pending))]
    assert texts == [
        "house rule start=whistle-post: mean score 6 → 3.6 (−40%; interval −2.7 to −2.1)",
        "house rule start=whistle-post: card Trackage Rights: dead draws 12% → 55% (+43 points; interval +26 to +57 points)",
    ], "Straight's 30% to 60% over 10 draws each is within the luck of the deal"
    # The same change is listed alone but not among a thousand comparisons:
    # the correction widens every interval until luck cannot explain what is kept.
    alone = compare(1, cell, _figures([20, 21, 21, 20] * 10), base_cell, _figures([19, 20, 21, 20] * 10))
    assert [d.measure for d in alone] == ["mean score"] and alone[0].interval.low > 0
    assert judge(comparisons(1, cell, _figures([20, 21, 21, 20] * 10), base_cell, _figures([19, 20, 21, 20] * 10)), 1000) == []


def test_differences_in_the_games_own_measure() -> None:
    # A company's mean share value, after the score and before the cards; a
    # row with nothing counted in one cell is not compared.
    base_cell = Cell(3, "greedy", (), ())
    cell = Cell(4, "greedy", (), ())
    rows = (("B&O", 400, 10, 16100), ("C&O", 200, 10, 4400), ("ERIE", 100, 10, 1200), ("NYC", 0, 0, 0))
    base = CellFigures(10, ((5, 30),), (), rows)
    other = CellFigures(10, ((5, 40),), (), (("B&O", 300, 10, 9100), ("C&O", 215, 10, 5000), ("ERIE", 105, 10, 1300), ("NYC", 50, 10, 400)))
    texts = [d.text for d in compare(1, cell, other, base_cell, base, "mean share value")]
    assert texts == ["4 players: B&O: mean share value 40 → 30 (−25%; interval −14.1 to −5.9)"], "C&O's and ERIE's changes are within their spread"
    assert compare(1, cell, other, base_cell, base)[0].measure == "mean"


def test_an_interrupted_sweep_keeps_its_finished_cells(run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = run_cli([*SMALL, "--no-cache"], tmp_path)
    real = runners.pool_runner
    given: list[int] = []

    def stopped_after_one(*args: object, **kwargs: object) -> CellRunner:
        inner = real(*args, **kwargs)  # type: ignore[arg-type]

        def run(cells: Sequence[Cell], progress: CellProgress | None) -> Iterator[CellFigures]:
            given.append(len(cells))
            for done, figures in enumerate(inner(cells, progress)):
                if done == 1:
                    raise KeyboardInterrupt  # Ctrl-C while the second cell plays
                yield figures

        return run

    monkeypatch.setattr(runners, "pool_runner", stopped_after_one)
    code, out, _ = run_cli(SMALL, tmp_path)
    assert (code, out) == (130, "")
    assert len(list((tmp_path / ".sweep-cache").glob("*.json"))) == 1
    assert not list((tmp_path / ".sweep-cache").glob(".*")), "no temporary file is left"
    monkeypatch.setattr(runners, "pool_runner", real)
    resumed = run_cli(SMALL, tmp_path)
    assert resumed.code == 0 and resumed.out == whole.out


def test_progress_on_a_terminal_and_not_with_quiet(run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    shown = run_cli(SMALL, tmp_path)
    assert shown.code == 0
    assert "\rsweeping: 0/4 cells done" in shown.err and "\rsweeping: 4/4 cells done; this cell 3/3 games" in shown.err
    assert shown.err.endswith("\n")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    again = run_cli([*SMALL, "--quiet"], tmp_path)
    assert (again.code, again.err, again.out) == (0, "", shown.out)
