"""Station Master simulated with rivals: every seat played by a bot (one for
all, or one a seat), the seat, win and attack figures added up against the
games themselves, the same report for any number of workers, the command's
errors, and the Simulation page's table of games with rivals.

Greedy and random bots only, and few games: a 2-player greedy game takes
some 50 ms, a 3-player one some 75 ms.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engine.errors import ConfigurationError
from engine.pack import SimulationRequest
from engine.sim.pool import game_seed
from engine.stationmaster.bots import BOT_FUNCTIONS
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Attack
from engine.stationmaster.rules.deck import home_deck, is_dealt
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.houserules import defaults
from engine.stationmaster.sim import simulate
from engine.stationmaster.sim.report import Report
from engine.stationmaster.sim.runner import play_game
from generator.lint import lint
from generator.render import read_pages, render_site
from generator.stationmaster import simulation as site_simulation
from generator.stationmaster.tables import TABLE_SET, TABLES
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT
from tests.kit.stationmaster import CATALOG

# Simulations of whole games with rivals: the sim tier.
pytestmark = pytest.mark.sim


def run(games: int, players: int | None = 2, seed: int = 5, workers: int = 1, bot: str = "greedy", seats: list[str] | None = None) -> Report:
    return simulate.simulate(CATALOG, SimulationRequest(games, seed, workers, bot, players=players, seats=None if seats is None else tuple(seats)))


# -- the figures add up -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_every_game_is_won_alone_or_shared(players: int) -> None:
    data = run(12, players=players).to_dict()
    assert data["players"] == players and len(data["seats"]) == players
    assert sum(s["wins"] for s in data["seats"]) + data["sharedWinGames"] == 12
    assert sum(s["sharedWins"] for s in data["seats"]) >= 2 * data["sharedWinGames"]
    for seat in data["seats"]:
        assert seat["minScore"] <= seat["meanScore"] <= seat["maxScore"]
        assert 0 <= seat["winPercent"] <= 100
    assert data["leadOverRunnerUp"]["mean"] >= 0
    assert len(data["score"]["histogram"]) > 0 and sum(b["games"] for b in data["score"]["histogram"]) == 12 * players


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_every_draw_in_every_hand_is_played_discarded_or_held(catalog: Catalog, bot: str) -> None:
    report = run(8, players=3, bot=bot)
    assert set(report.cards) == {c.id for c in home_deck(catalog, report.house_rules, 3)}
    assert sum(c.opening for c in report.cards.values()) == catalog.game.table.hand_limit * 3 * 8
    for c in report.cards.values():
        assert c.drawn == c.played + c.discarded + c.held_at_end, c
        assert c.other == 0  # no card passes from one hand to another
    # the opponent-directed cards are dealt, and some of them are played
    attacks = [c for c in report.cards.values() if c.id in report.attacks]
    assert attacks and sum(c.played for c in attacks) == sum(a.played for a in report.attacks.values())


def test_attacks_and_answers_match_the_games_themselves(catalog: Catalog) -> None:
    """The attack tally against the recorded actions of the same games."""
    tally: dict[str, list[int]] = {}
    attacks: dict[str, list[int]] = {}
    played: Counter[str] = Counter()
    for i in range(6):
        seed = game_seed(5, i)
        result = play_game(catalog, seed, ("greedy", "greedy"), defaults(catalog), tally, attacks)
        game = Game(catalog, players=2, seed=seed)
        while not game.is_over():
            action = BOT_FUNCTIONS["greedy"](game)
            assert action is not None
            game.apply(action)
        assert tuple(game.score()) == result.scores
        played.update(a.card for a in game.history if isinstance(a, Attack))
    report = run(6)
    assert {k: a.played for k, a in report.attacks.items() if a.played} == dict(played)
    assert sum(a.answered for a in report.attacks.values()) == sum(a.answered for a in report.answers.values())
    for a in report.attacks.values():
        assert 0 <= a.answered <= a.played


def test_game_i_is_the_game_with_its_own_seed_and_seats(catalog: Catalog) -> None:
    report = run(4, players=None, seats=["greedy", "random"])
    data = report.to_dict()
    assert data["bot"] == "greedy,random" and [s["bot"] for s in data["seats"]] == ["greedy", "random"]
    for i in range(4):
        result = play_game(catalog, game_seed(5, i), ["greedy", "random"], defaults(catalog), {})
        assert [report.seat_figures.scores[seat][i] for seat in range(2)] == list(result.scores)  # type: ignore[union-attr]


# -- determinism ---------------------------------------------------------------------------


def test_workers_do_not_change_the_report() -> None:
    one = run(7, players=2, workers=1).to_json()
    assert run(7, players=2, workers=2).to_json() == one
    assert run(7, players=2).to_json() == one


def test_the_json_is_sorted_and_says_what_it_counts() -> None:
    text = run(3, players=3, bot="random").to_json()
    data = json.loads(text)
    assert json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) == text
    assert {"seats", "sharedWinGames", "leadOverRunnerUp", "attacks", "answers"} <= set(data)
    assert {"sharedWins", "leadOverRunnerUp", "attacks", "answers"} <= set(data["definitions"])


def test_solitaire_reports_no_seats() -> None:
    data = run(2, players=1).to_dict()
    assert data["players"] == 1
    assert not {"seats", "attacks", "answers", "sharedWinGames"} & set(data)
    assert run(2, players=1).to_json() == run(2, players=None).to_json()


def test_the_text_names_the_seats() -> None:
    text = run(2, players=None, seats=["greedy", "random"]).to_text()
    assert "2 players, seat 0 greedy, seat 1 random" in text
    assert "scores by seat" in text and "lead over the runner-up" in text and "answered %" in text
    assert "greedy bot in every seat" in run(2).to_text()


@pytest.mark.parametrize(
    "kwargs",
    [{"players": 5}, {"players": 0}, {"players": True}, {"seats": []}, {"seats": ["greedy", "smart"]}, {"players": 3, "seats": ["greedy", "random"]}, {"seats": ["random"] * 5}],
    ids=["five", "none", "bool", "no-seats", "unknown-bot", "count-disagrees", "five-seats"],
)
def test_simulate_refuses_bad_seating(catalog: Catalog, kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"games": 1, "players": None, **kwargs}
    with pytest.raises(ConfigurationError):
        simulate.simulate(catalog, SimulationRequest(**args))  # type: ignore[arg-type]


# -- the command ------------------------------------------------------------------------------


def test_the_command_seats_one_bot_per_bot_option(run_cli: RunCli) -> None:
    result = run_cli(["simulate", "--games", "3", "--seed", "5", "--bot", "greedy", "--bot", "random", "--json", "--workers", "2"], PROJECT_ROOT)
    assert result.code == 0, result.err
    assert result.out.strip() == run(3, players=None, seats=["greedy", "random"]).to_json()
    same = run_cli(["simulate", "--games", "3", "--seed", "5", "--players", "2", "--bot", "greedy"], PROJECT_ROOT)
    assert same.code == 0 and same.out.strip() == run(3).to_text()


BAD = [
    ["--games", "2", "--players", "5"],
    ["--games", "2", "--players", "0"],
    ["--games", "2", "--players", "3", "--bot", "greedy", "--bot", "random"],
    ["--games", "2", "--bot", "greedy", "--bot", "smart"],
    ["--games", "2", "--bot", "random", "--bot", "random", "--bot", "random", "--bot", "random", "--bot", "random"],
    ["--games", "2", "--players", "2", "--bot"],
]


@pytest.mark.parametrize("args", BAD, ids=" ".join)
def test_bad_seating_exits_2_with_one_line(run_cli: RunCli, args: list[str]) -> None:
    code, out, err = run_cli(["simulate", *args], PROJECT_ROOT)
    assert code == 2, (out, err)
    assert out == "" and "Traceback" not in err
    assert len([line for line in err.splitlines() if "error" in line]) == 1, err


# -- the rules site's table -----------------------------------------------------------------------


def test_the_rivals_table_shows_each_seating_as_the_command_reports_it(catalog: Catalog) -> None:
    context = site_simulation.simulation_rivals_context(catalog)
    assert [s["players"] for s in context["seatings"]] == [s.players for s in site_simulation.SITE_SEATINGS] == [2, 3]
    for shown, seating in zip(context["seatings"], site_simulation.SITE_SEATINGS):
        assert (shown["games"], shown["seed"], shown["bot"]) == (seating.games, seating.seed, seating.bot)
        assert sum(s["wins"] for s in shown["seats"]) + shown["shared_games"] == seating.games
        report = run(seating.games, players=seating.players, seed=seating.seed, bot=seating.bot)
        assert [s["mean"] for s in shown["seats"]] == [f"{s['meanScore']:.1f}" for s in report.to_dict()["seats"]]
        assert [(a["card"], a["played"], a["answered"]) for a in shown["attacks"]] == [(a.id, a.played, a.answered) for a in report.attacks.values()]
        # only the cards a table with rivals deals, by dead-draw rate
        assert shown["rows"] and all(
            is_dealt(catalog, catalog.by_id[r["card"]], report.house_rules, 2) and not is_dealt(catalog, catalog.by_id[r["card"]], report.house_rules, 1) for r in shown["rows"]
        )
        assert [r["dead_rate"] for r in shown["rows"]] == sorted((r["dead_rate"] for r in shown["rows"]), reverse=True)
        assert {n["card"] for n in shown["never_played"]} == {r["card"] for r in shown["rows"] if r["dead_rate"] == 100}
    assert site_simulation._simulation_rivals_context(catalog) == context
    assert site_simulation.simulation_rivals_context(catalog) == context  # the cached answer, unchanged


def test_the_rivals_table_renders_and_passes_the_lint(catalog: Catalog) -> None:
    pages = read_pages(Path(PROJECT_ROOT) / "site" / "stationmaster")
    placed = [name for name, text in pages.items() if "<!-- generated: simulation-rivals -->" in text]
    assert placed == ["simulation.md"]
    rendered = render_site(catalog, pages, tables=TABLE_SET)
    text = rendered.new["simulation.md"]
    for seating in site_simulation.SITE_SEATINGS:
        assert f"`stationmaster simulate --games {seating.games} --seed {seating.seed} --players {seating.players} --bot {seating.bot}`" in text
    assert text.count("| Seat | Mean score (95% interval) | Wins | Shared wins | Won, alone or shared (95% interval) |") == len(site_simulation.SITE_SEATINGS)
    assert [p.render() for p in lint(catalog, rendered, TABLES) if "simulation.md" in p.render()] == []
