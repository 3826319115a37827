"""``simulate`` for Trick of the Rails: the figures a designer reads (scores
by seat, share values, where the locomotives end, how often a trick's
leader wins it), the same for any number of workers, and ``--players``
through the GamePack interface and the command, with one-line errors."""

from __future__ import annotations

import json
import sys

import pytest

from engine.errors import ConfigurationError, InvalidActionError
from engine.pack import SimulationRequest
from engine.packs import pack_rules
from engine.sim.pool import game_seed
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.sim.report import NOT_PLACED
from engine.trickoftherails.sim.runner import play_game
from engine.trickoftherails.sim.simulate import Report, simulate
from tests.kit import hang_guard
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT
from tests.kit.trickoftherails import CATALOG

# Simulations of whole games: the sim tier.
pytestmark = pytest.mark.sim

PACK = pack_rules("trickoftherails")


def run(games: int, seed: int = 3, workers: int = 1, bot: str = "random", players: int | None = None, rules: dict[str, str | bool] | None = None) -> Report:
    return simulate(CATALOG, SimulationRequest(games, seed, workers, bot, rules or {}, players=players))


def test_same_seed_same_report_for_any_number_of_workers() -> None:
    one = run(14, seed=5, players=4).to_json()
    assert run(14, seed=5, players=4).to_json() == one
    assert run(14, seed=5, workers=2, players=4).to_json() == one
    assert run(14, seed=5, workers=3, players=4).to_json() == one
    assert run(14, seed=6, players=4).to_json() != one


def test_the_greedy_bot_simulates_the_same_for_any_number_of_workers() -> None:
    assert run(6, bot="greedy", workers=2).to_json() == run(6, bot="greedy").to_json()


def test_game_i_is_the_game_with_its_own_seed(catalog: Catalog) -> None:
    report = run(4, seed=9, players=5)
    for i in range(4):
        record = play_game(catalog, 5, game_seed(9, i), ["random"] * 5, {})
        assert [report.seats.scores[seat][i] for seat in range(5)] == list(record.scores)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_figures_add_up(catalog: Catalog, players: int) -> None:
    report = run(30, seed=2, players=players)
    data = report.to_dict()
    assert data["players"] == players and data["games"] == 30 and len(data["seats"]) == players
    # every game is won by someone: alone by one seat, or shared by several
    assert sum(s["wins"] for s in data["seats"]) + data["sharedWinGames"] == 30
    assert sum(s["sharedWins"] for s in data["seats"]) >= 2 * data["sharedWinGames"]
    for seat in data["seats"]:
        assert seat["minScore"] <= seat["meanScore"] <= seat["maxScore"]
        assert seat["stdevScore"] >= 0
    assert set(data["shareValues"]) == {c.name for c in catalog.companies}
    for company in data["shareValues"].values():
        assert 0 <= company["zeroPercent"] <= 100 and company["mean"] >= 0
    # in the basic game every locomotive ends on exactly one railway
    for row in data["locomotives"].values():
        assert sum(row.values()) == pytest.approx(100, abs=0.5)
        assert row[NOT_PLACED] == 0
    for company in (c.name for c in catalog.companies):
        assert sum(row[company] for row in data["locomotives"].values()) == pytest.approx(100, abs=0.5)
    # the lane decides each trick: per game, as many tricks of each kind as the layout holds
    layout = catalog.layouts[players].basic
    stock = sum(slot in ("exchange", "reservation") for slot in layout)
    city = layout.count("city")
    tricks = data["leaderWins"]
    assert tricks["stock"]["tricks"] == 30 * stock
    assert tricks["city"]["tricks"] == 30 * city
    assert tricks["locomotive"]["tricks"] == 30 * (len(layout) - stock - city)
    for kind in tricks.values():
        assert 0 <= kind["leaderWon"] <= kind["tricks"]


def test_shared_wins_are_counted_for_every_tied_seat() -> None:
    report = run(200, seed=1, players=5)
    assert report.seats.shared_games > 0, "200 games of 5 players should hold a tie for first"
    assert sum(report.seats.shared_wins) >= 2 * report.seats.shared_games
    assert sum(report.seats.wins) + report.seats.shared_games == 200


def test_the_text_report_reads_as_tables() -> None:
    text = run(10, players=4).to_text()
    for part in (
        "Trick of the Rails simulation: 10 games, 4 players",
        "Scores by seat",
        "stdev",
        "shared",
        "Share values at the end",
        "worth 0",
        "Where each locomotive ended (% of 10 games, 95% interval)",
        "Locomotive [∞]",
        "Tricks won by the player who led them",
        "stock trick",
        "City trick",
        "Locomotive trick",
    ):
        assert part in text, part


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 6},
        {"players": 0},
        {"players": True},
        {"bot": "smart"},
        {"games": 0},
        {"workers": 0},
        {"seed": -1},
        {"rules": {"variant": "chaos"}},
        {"rules": {"teams": True}, "players": 3},
    ],
)
def test_simulate_refuses_bad_arguments(kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"games": 1, **kwargs}
    with pytest.raises(InvalidActionError):
        run(**args)  # type: ignore[arg-type]


def test_the_pack_passes_the_player_count_on(catalog: Catalog) -> None:
    report = PACK.simulator.simulate(catalog, SimulationRequest(2, seed=1, players=5))
    assert json.loads(report.to_json())["players"] == 5
    assert json.loads(PACK.simulator.simulate(catalog, SimulationRequest(2, seed=1)).to_json())["players"] == 3


def test_station_master_simulates_up_to_its_whistle_posts() -> None:
    station_master = pack_rules("stationmaster")
    catalog = station_master.load_catalog(PROJECT_ROOT / "content" / "stationmaster")
    solo = station_master.simulator.simulate(catalog, SimulationRequest(2, seed=1, players=1))
    assert solo.to_json() == station_master.simulator.simulate(catalog, SimulationRequest(2, seed=1)).to_json()
    assert json.loads(station_master.simulator.simulate(catalog, SimulationRequest(1, seed=1, players=3)).to_json())["players"] == 3
    with pytest.raises(ConfigurationError, match="from 1 to 4"):
        station_master.simulator.simulate(catalog, SimulationRequest(2, seed=1, players=5))


def test_trick_of_the_rails_seats_a_bot_a_seat(catalog: Catalog) -> None:
    report = PACK.simulator.simulate(catalog, SimulationRequest(3, seed=2, seats=("greedy", "random", "random")))
    data = json.loads(report.to_json())
    assert data["players"] == 3 and data["bot"] == "greedy,random,random"
    assert [s["bot"] for s in data["seats"]] == ["greedy", "random", "random"]
    assert "seat 0 greedy, seat 1 random, seat 2 random" in report.to_text()
    with pytest.raises(ConfigurationError, match="one for every seat"):
        PACK.simulator.simulate(catalog, SimulationRequest(1, players=4, seats=("greedy", "random", "random")))


# -- the command ---------------------------------------------------------------------------


def test_the_command_prints_the_report(run_cli: RunCli) -> None:
    result = run_cli(["simulate", "--game", "trickoftherails", "--games", "5", "--seed", "4", "--players", "4", "--json"], PROJECT_ROOT)
    assert result.code == 0, result.err
    assert result.out.strip() == run(5, seed=4, players=4).to_json()
    text = run_cli(["simulate", "--game", "trickoftherails", "--games", "3", "--bot", "greedy", "--players", "5", "--workers", "2"], PROJECT_ROOT)
    assert text.code == 0, text.err
    assert text.out.strip() == run(3, seed=0, bot="greedy", players=5).to_text()


def test_station_master_takes_players_1(run_cli: RunCli) -> None:
    plain = run_cli(["simulate", "--games", "2", "--json"], PROJECT_ROOT)
    solo = run_cli(["simulate", "--games", "2", "--json", "--players", "1"], PROJECT_ROOT)
    assert plain.code == solo.code == 0
    assert plain.out == solo.out


BAD = [
    ["--game", "trickoftherails", "--games", "2", "--players", "6"],
    ["--game", "trickoftherails", "--games", "2", "--players", "2"],
    ["--game", "trickoftherails", "--games", "2", "--players", "0"],
    ["--game", "trickoftherails", "--games", "2", "--players", "three"],
    ["--game", "trickoftherails", "--games", "2", "--players"],
    ["--game", "trickoftherails", "--games", "2", "--bot", "smart"],
    ["--game", "trickoftherails", "--games", "0"],
    ["--game", "trickoftherails", "--games", "2", "--house-rule", "variant=chaos"],
    ["--game", "trickoftherails", "--games", "2", "--house-rule", "teams=true"],
    ["--game", "trickoftherails", "--games", "2", "--house-rule", "colour=red"],
    ["--game", "trickoftherails", "--games", "2", "--bot", "greedy", "--bot", "random"],
    ["--game", "trickoftherails", "--games", "2", "--players", "4", "--bot", "greedy", "--bot", "random", "--bot", "random"],
    ["--games", "2", "--players", "5"],
]


@pytest.mark.parametrize("args", BAD, ids=" ".join)
def test_bad_arguments_exit_2_with_one_line(run_cli: RunCli, args: list[str]) -> None:
    code, out, err = run_cli(["simulate", *args], PROJECT_ROOT)
    assert code == 2, (out, err)
    assert out == ""
    assert "Traceback" not in err
    assert len([line for line in err.splitlines() if "error" in line]) == 1, err


def test_a_real_process_with_two_workers() -> None:
    proc = hang_guard.run(
        [sys.executable, "-m", "command.simulate", "--game", "trickoftherails", "--games", "6", "--workers", "2", "--seed", "4", "--players", "4", "--json"],
        "simulate with two workers to end",
        cwd=PROJECT_ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == run(6, seed=4, players=4).to_json()


# -- reports that say what is so -------------------------------------------------------------


def test_a_teams_win_is_a_win_for_both_partners_and_the_margin_is_between_teams() -> None:
    report = run(30, seed=3, players=4, rules={"teams": True})
    data = report.to_dict()
    assert data["sides"] == [[0, 2], [1, 3]]
    seats = data["seats"]
    # Partners win together, so their counts are equal; a win is shared only when both teams tie.
    assert seats[0]["wins"] == seats[2]["wins"] and seats[1]["wins"] == seats[3]["wins"]
    assert seats[0]["wins"] + seats[1]["wins"] + data["sharedWinGames"] == 30
    assert data["sharedWinGames"] < 30
    margins = [abs(report.seats.scores[0][g] - report.seats.scores[1][g]) for g in range(30)]
    assert data["leadOverRunnerUp"]["mean"] == round(sum(margins) / 30, 1) > 0
    text = report.to_text()
    assert "sides: seat 0 and seat 2; seat 1 and seat 3" in text
    assert "wins shared by a tie between sides" in text and "lead over the runner-up side" in text


def test_a_kind_of_trick_no_game_played_has_no_leader_rate() -> None:
    report = run(5, seed=3, players=5)
    data = report.to_dict()
    assert data["leaderWins"]["city"] == {"tricks": 0, "leaderWon": 0, "percent": None, "interval": None}
    text = report.to_text()
    assert "no City trick in these games" in text
    assert not any(line.startswith("City trick") for line in text.splitlines())
    assert "no City trick" not in run(5, seed=3, players=4).to_text()


def test_every_rate_carries_its_count_and_interval() -> None:
    report = run(6, players=3)
    data = report.to_dict()
    for seat in data["seats"]:
        low, high = seat["winInterval"]
        assert low <= seat["winPercent"] <= high and seat["meanScoreInterval"][0] <= seat["meanScore"] <= seat["meanScoreInterval"][1]
    for company in data["shareValues"].values():
        assert company["count"] == 6 and company["zeroInterval"][0] <= company["zeroPercent"] <= company["zeroInterval"][1]
    first = data["firstLeaderWins"]
    assert first["games"] == 6 and 0 <= first["won"] <= 6 and first["interval"][0] <= first["percent"] <= first["interval"][1]
    assert report.first_seats() == report.first_leaders and len(report.first_seats()) == 6
    text = report.to_text()
    assert "won % (95% interval)" in text and f"the first leader won {first['won']} of 6 games" in text and "worth 0 (95% interval)" in text
