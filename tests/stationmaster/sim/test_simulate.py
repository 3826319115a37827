"""The simulation command: bots, the runner, the report, the CLI and the site table.

The heart of it is determinism: a report is a pure function of the content,
the seed, the bot and the house rules, and never of the number of worker
processes. Per-card figures obey one exact invariant: every card drawn into a
hand is played, discarded or still held when the game ends.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence

import pytest

from command import cli
from command import simulate as simulate_command
from engine.errors import InvalidActionError
from engine.pack import SimulationRequest
from engine.stationmaster.bots import SEARCH_RUNGS
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Discard, Draw, EndTurn, Play, RedFlag
from engine.stationmaster.rules.deck import home_deck
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.houserules import configurations, defaults
from engine.stationmaster.sim import simulate
from engine.stationmaster.sim.simulate import BOT_FUNCTIONS, Report, game_seed, play_game
from generator.lint import lint
from generator.render import read_pages, render_site
from generator.stationmaster import simulation as site_simulation
from generator.stationmaster.simulation import simulation_context
from generator.stationmaster.tables import TABLE_SET, TABLES
from tests.kit import hang_guard
from tests.kit.cli import CliResult
from tests.kit.project import PROJECT_ROOT
from tests.kit.stationmaster import CATALOG

# Simulations of whole games: the sim tier.
pytestmark = pytest.mark.sim


def run(games: int, seed: int = 3, workers: int = 1, bot: str = "random", rules: dict[str, str | bool] | None = None) -> Report:
    return simulate.simulate(CATALOG, SimulationRequest(games, seed, workers, bot, rules or {}))


# -- determinism ------------------------------------------------------------------------


def test_same_seed_same_report() -> None:
    assert run(12).to_json() == run(12).to_json()


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_workers_do_not_change_the_report(bot: str) -> None:
    one = run(13, seed=11, workers=1, bot=bot).to_json()
    assert run(13, seed=11, workers=2, bot=bot).to_json() == one
    assert run(13, seed=11, workers=3, bot=bot).to_json() == one


def test_more_workers_than_games() -> None:
    assert run(2, workers=5).to_json() == run(2, workers=1).to_json()


def test_another_seed_another_report() -> None:
    assert run(12, seed=1).to_json() != run(12, seed=2).to_json()


def test_game_i_is_the_game_with_its_own_seed(catalog: Catalog) -> None:
    """Any one game of a report can be replayed alone from game_seed(seed, i)."""
    report = run(5, seed=9)
    for i in range(5):
        result = play_game(catalog, game_seed(9, i), "random", defaults(catalog), {})
        assert result.score == report.scores.values[i]
        assert result.actions == report.actions.values[i]
    assert game_seed(9, 4) == 9 * 1_000_003 + 4


# A search rung plays out copies of the game at every turn's choices: a
# whole game of it takes seconds, so it is held to the first turns (each of
# which plays out copies of the game: what could touch the stream).
ACTIONS_CHECKED = dict.fromkeys(SEARCH_RUNGS, 15)


@pytest.mark.parametrize("bot", sorted(BOT_FUNCTIONS))
def test_bots_never_touch_the_rules_stream(catalog: Catalog, bot: str) -> None:
    """A bot's game is its seed plus its actions: replaying the recorded
    actions (no bot at all) leaves the rules' stream in the same state."""
    game = Game(catalog, players=1, seed=game_seed(4, 1))
    while not game.is_over() and len(game.history) < ACTIONS_CHECKED.get(bot, 10**6):
        action = BOT_FUNCTIONS[bot](game)
        assert action is not None
        game.apply(action)
    twin = Game.loads(catalog, game.dumps())
    assert twin.state_json() == game.state_json()
    assert twin.rng._random.getstate() == game.rng._random.getstate()


def test_no_module_but_the_seeded_stream_imports_random() -> None:
    """All chance goes through engine/rng.py, so a game replays from its seed."""
    for path in sorted((PROJECT_ROOT / "engine").rglob("*.py")):
        if path.name == "rng.py" and path.parent.name == "engine":
            continue
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(import random|from random)", source, re.MULTILINE), path


# -- what is counted -----------------------------------------------------------------------


@pytest.mark.parametrize("rules", [{}, {"openingDeal": "threeTrackThreeOther", "discardTimetabled": True}, {"startingOffice": "whistle-post"}], ids=["defaults", "six-card-deal", "whistle-post"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_every_draw_is_played_discarded_or_held(catalog: Catalog, bot: str, rules: dict[str, str | bool]) -> None:
    report = run(10, seed=21, bot=bot, rules=rules)
    hand = catalog.game.table.hand_limit
    per_game = 2 * hand if rules.get("openingDeal") == "threeTrackThreeOther" else hand
    dealt = {c.id for c in home_deck(catalog, report.house_rules)}
    assert set(report.cards) == dealt  # every dealt card listed, nothing else
    assert sum(c.opening for c in report.cards.values()) == per_game * report.games
    for c in report.cards.values():
        assert c.drawn == c.played + c.discarded + c.held_at_end, c
        assert c.dead == c.discarded + c.held_at_end
        assert c.other == 0  # no card effect puts a card into a hand
        pct = c.dead_percent()
        if c.drawn == 0:
            assert pct is None
        else:
            assert pct is not None and 0 <= pct <= 100
    held = sum(c.held_at_end for c in report.cards.values())
    assert held <= (hand + 1) * report.games  # a game ends at a turn's end, within the limit (+1 for a Red Flag)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_counts_match_the_actions_of_the_game(catalog: Catalog, bot: str) -> None:
    """Tallies against the recorded actions of the very same game."""
    seed = game_seed(5, 0)
    tally: dict[str, list[int]] = {}
    result = play_game(catalog, seed, bot, defaults(catalog), tally)
    game = Game(catalog, players=1, seed=seed)
    opening = Counter(game.state.hands[0])
    while not game.is_over():
        action = BOT_FUNCTIONS[bot](game)
        assert action is not None
        game.apply(action)
    kinds = Counter(type(a) for a in game.history)
    report = Report.build(catalog, games=1, seed=0, bot=bot, house_rules=defaults(catalog), scores=[result.score], actions=[result.actions], turns=[result.turns], tally=tally)
    cards = report.cards.values()
    assert result.actions == len(game.history)
    assert result.turns == kinds[EndTurn]
    assert result.score == game.score()[0]
    assert {k: c.opening for k, c in report.cards.items() if c.opening} == dict(opening)
    assert sum(c.deck for c in cards) == sum(1 for a in game.history if isinstance(a, Draw) and a.source == "deck")
    assert sum(c.department for c in cards) == sum(1 for a in game.history if isinstance(a, Draw) and a.source != "deck")
    assert sum(c.played for c in cards) == kinds[Play] + kinds[RedFlag]
    assert sum(c.discarded for c in cards) == kinds[Discard]
    assert Counter({k: c.held_at_end for k, c in report.cards.items() if c.held_at_end}) == Counter(game.state.hands[0])


def test_distributions(catalog: Catalog) -> None:
    report = run(25, seed=2)
    for dist in (report.scores, report.actions, report.turns):
        assert dist.minimum <= dist.median <= dist.maximum
        assert dist.minimum <= dist.mean <= dist.maximum
        hist = dist.histogram()
        assert sum(n for _, _, n in hist) == 25
        assert hist[0][0] == dist.minimum and hist[-1][0] <= dist.maximum <= hist[-1][1]
        assert len(hist) <= simulate.HISTOGRAM_BINS
    table = catalog.game.table
    assert report.turns.minimum == report.turns.maximum == table.game_days * table.stages_per_day


# -- the greedy bot ---------------------------------------------------------------------------


def test_greedy_finishes_its_games_and_plays_differently() -> None:
    greedy, random_ = run(30, seed=8, bot="greedy"), run(30, seed=8, bot="random")
    assert len(greedy.scores.values) == 30
    assert greedy.to_json() != random_.to_json()
    assert greedy.scores.mean >= random_.scores.mean
    played = sum(c.played for c in greedy.cards.values())
    assert played > sum(c.played for c in random_.cards.values())


# -- bad arguments to simulate() ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [{"games": 0}, {"games": 100_001}, {"workers": 0}, {"workers": 65}, {"seed": -1}, {"bot": "smart"}, {"house_rules": {"noSuchRule": "x"}}, {"house_rules": {"startingOffice": "palace"}}],
)
def test_simulate_refuses_bad_arguments(catalog: Catalog, kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"games": 1, "seed": 0, "workers": 1, "bot": "random", "house_rules": {}, **kwargs}
    with pytest.raises(InvalidActionError):
        simulate.simulate(catalog, SimulationRequest(**args))  # type: ignore[arg-type]


def test_progress_is_called_up_to_the_total(catalog: Catalog) -> None:
    seen: list[tuple[int, int]] = []
    simulate.simulate(catalog, SimulationRequest(6, seed=0, workers=2), progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (6, 6)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


# -- the command -------------------------------------------------------------------------------------


def _wired() -> bool:
    parser = cli._parser()
    return any(isinstance(a, argparse._SubParsersAction) and "simulate" in a.choices for a in parser._actions)


@pytest.fixture
def run_simulate(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> object:
    """``stationmaster simulate ARGS`` in this process, through command.cli once
    it is wired there, else through the module's own entry point."""

    def go(args: Sequence[str]) -> CliResult:
        monkeypatch.chdir(PROJECT_ROOT)
        capsys.readouterr()
        try:
            code = cli.main(["simulate", *args]) if _wired() else simulate_command.main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        return CliResult(code, out, err)

    return go


BAD_ARGS = [
    [],
    ["--games"],
    ["--games", "0"],
    ["--games", "100001"],
    ["--games", "many"],
    ["--games", "2", "--workers", "0"],
    ["--games", "2", "--workers", "65"],
    ["--games", "2", "--seed", "-1"],
    ["--games", "2", "--seed", "x"],
    ["--games", "2", "--bot", "smart"],
    ["--games", "2", "--house-rule", "startingOffice"],
    ["--games", "2", "--house-rule", "noSuchRule=1"],
    ["--games", "2", "--house-rule", "startingOffice=palace"],
    ["--games", "2", "--house-rule", "openingDeal=threeRandom", "--house-rule", "openingDeal=threeTrackThreeOther"],
    ["--games", "2", "--content", "no/such/dir"],
    ["--games", "2", "--no-such-option"],
]


@pytest.mark.parametrize("args", BAD_ARGS, ids=lambda a: " ".join(a) or "nothing")
def test_bad_arguments_exit_2_with_one_line(run_simulate: object, args: list[str]) -> None:
    code, out, err = run_simulate(args)  # type: ignore[operator]
    assert code == 2, (out, err)
    assert out == ""
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if "error" in line]
    assert len(errors) == 1, err


def test_json_output_parses(run_simulate: object) -> None:
    code, out, err = run_simulate(["--games", "4", "--seed", "5", "--json", "--house-rule", "discardTimetabled=true"])  # type: ignore[operator]
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 4 and data["seed"] == 5 and data["bot"] == "random"
    assert data["houseRules"]["discardTimetabled"] is True
    assert set(data["score"]) == {"min", "median", "mean", "meanInterval", "count", "max", "histogram"}
    assert out.strip() == run(4, seed=5, rules={"discardTimetabled": True}).to_json()
    assert err == ""  # no progress bar when stderr is not a terminal


def test_text_output(run_simulate: object) -> None:
    code, out, err = run_simulate(["--games", "3", "--bot", "greedy", "--workers", "2"])  # type: ignore[operator]
    assert code == 0, err
    assert "greedy bot" in out and "dead %" in out and "score histogram" in out
    for card in ("Straight", "Red Flag"):
        assert card in out


def test_progress_bar_updates_in_place_and_ends_the_line() -> None:
    stream = io.StringIO()
    bar = simulate_command._ProgressBar(stream)
    for done in range(1, 5):
        bar(done, 4)
    bar.finish()
    text = stream.getvalue()
    assert text.count("\r") == 4 and text.endswith("4/4 games\n") and text.count("\n") == 1


def test_a_real_process_with_two_workers() -> None:
    """End to end, forked workers included, in a fresh interpreter."""
    proc = hang_guard.run([sys.executable, "-m", "command.simulate", "--games", "6", "--workers", "2", "--seed", "4", "--json"], "simulate with two workers to end", cwd=PROJECT_ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.strip() == run(6, seed=4).to_json()


# -- the rules site's table ------------------------------------------------------------------------------


def test_simulation_context_is_deterministic(catalog: Catalog) -> None:
    # How long it takes is measured by the benches, never asserted by a test.
    fresh = site_simulation._simulation_context(catalog)
    assert simulation_context(catalog) == fresh  # measured afresh, or kept by an earlier test
    assert simulation_context(catalog) == fresh  # the cached answer, unchanged by a caller


def test_simulation_context_rows(catalog: Catalog) -> None:
    context = simulation_context(catalog)
    base = defaults(catalog)
    offices = [c["startingOffice"] for c in configurations(catalog) if all(c[k] == base[k] for k in base if k != "startingOffice")]
    assert [t["value"] for t in context["configurations"]] == offices
    assert sum(t["is_default"] for t in context["configurations"]) == 1
    for table in context["configurations"]:
        rows = table["rows"]
        assert 0 < len(rows) <= site_simulation.SITE_TOP
        rates = [r["dead_rate"] for r in rows]
        assert rates == sorted(rates, reverse=True)
        for r in rows:
            assert r["card"] in catalog.by_id and isinstance(r["dead_rate"], int) and 0 <= r["dead_rate"] <= 100
        # the same figures the command prints for that configuration
        report = simulate.simulate(catalog, SimulationRequest(context["games"], context["seed"], house_rules={"startingOffice": table["value"]}, bot=context["bot"]))
        first = rows[0]
        assert report.cards[first["card"]].dead_percent() == first["dead_rate"]


def test_the_simulation_table_renders_and_passes_the_lint(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TABLES, "simulation", simulation_context)
    pages = read_pages(PROJECT_ROOT / "site" / "stationmaster")
    placed = [name for name, text in pages.items() if "<!-- generated: simulation -->" in text]
    if not placed:
        pages["simulation-test.md"] = "# Simulation\n\n<!-- generated: simulation -->\n<!-- /generated -->\n"
        placed = ["simulation-test.md"]
    rendered = render_site(catalog, pages, tables=TABLE_SET)
    text = rendered.new[placed[0]]
    assert text.count("| Card | Dead draws (% of draws, 95% interval) | Drawn per game |") == len(simulation_context(catalog)["configurations"])
    assert " draws |" in text and "%) of " in text and " per game |" in text
    problems = [p.render() for p in lint(catalog, rendered, TABLES) if placed[0] in p.render()]
    assert problems == []


def test_every_rate_carries_its_count_and_interval() -> None:
    report = simulate.simulate(CATALOG, SimulationRequest(3, 1, 1, "random", players=2))
    data = report.to_dict()
    assert data["score"]["count"] == 6 and data["score"]["meanInterval"][0] <= data["score"]["mean"] <= data["score"]["meanInterval"][1]
    for card in data["cards"].values():
        if card["drawn"]:
            assert card["deadRateInterval"][0] <= card["deadRate"] <= card["deadRateInterval"][1]
    assert all(s["winInterval"][0] <= s["winPercent"] <= s["winInterval"][1] for s in data["seats"])
    text = report.to_text()
    assert "dead % (95%)" in text and "won % (95% interval)" in text and "(95% interval" in text and "n=6)" in text
    assert report.first_seats() == (0, 0, 0)
