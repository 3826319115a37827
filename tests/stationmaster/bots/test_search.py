"""The search rungs of Station Master's ladder (``ismcts-N``,
engine/stationmaster/bots/search.py over engine/search/ismcts.py): each is a
bot by name in ``simulate`` and ``play``, it searches only where a turn
starts, and a game with one replays from its seed and actions, byte for
byte. The budgets are cut to a few deals a decision where only the name and
the routing are under test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.stationmaster.bots import BOT_FUNCTIONS, BOTS, LADDER, SEARCH_RUNGS, greedy_bot
from engine.stationmaster.bots.search import turn_start
from engine.stationmaster.rules.game import Game
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT
from tests.kit.stationmaster import CATALOG
from tests.kit.stationmaster_play import run_play


def _played(seed: int, seats: list[str], actions: int) -> Game:
    game = Game(CATALOG, players=len(seats), seed=seed)
    while not game.is_over() and len(game.history) < actions:
        action = BOT_FUNCTIONS[seats[game.to_act]](game)
        assert action is not None
        game.apply(action)
    return game


def test_the_ladder_is_random_greedy_then_the_search_rungs_and_lookahead_is_gone() -> None:
    assert LADDER[:2] == ("random", "greedy") and set(LADDER) == set(BOTS)
    assert "lookahead" not in BOTS


def test_a_search_game_replays_byte_for_byte_from_its_seed_and_actions() -> None:
    seats = [next(iter(SEARCH_RUNGS)), "greedy"]
    game = _played(3, seats, 40)
    assert Game.loads(CATALOG, game.dumps()).state_json() == game.state_json()
    assert _played(3, seats, 40).dumps() == game.dumps()


def test_away_from_a_turn_start_the_search_rung_is_the_greedy_bot() -> None:
    game = _played(5, ["greedy", "greedy"], 30)
    while turn_start(game):
        action = greedy_bot(game)
        assert action is not None
        game.apply(action)
    rung = BOT_FUNCTIONS[next(iter(SEARCH_RUNGS))]
    assert rung(game.copy()) == greedy_bot(game.copy())


@pytest.mark.parametrize("rung", sorted(SEARCH_RUNGS))
def test_each_rung_is_a_bot_by_name_in_simulate(rung: str, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SEARCH_RUNGS, rung, (2, 2))
    result = run_cli(["simulate", "--games", "1", "--bot", rung, "--bot", "greedy", "--json"], PROJECT_ROOT)
    assert result.code == 0, result.err
    assert rung in json.dumps(json.loads(result.out))


@pytest.mark.parametrize("rung", sorted(SEARCH_RUNGS))
def test_each_rung_is_a_bot_by_name_in_play(rung: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SEARCH_RUNGS, rung, (2, 2))
    save = tmp_path / "game.json"
    result = run_play(["--players", "2", "--bots", "2", "--bot", rung, "--seed", "6", "--save", str(save)])
    assert result.code == 0, result.err
    assert f"{rung} bot" in result.out
    assert Game.loads(CATALOG, save.read_text(encoding="utf-8")).dumps() == _played(6, [rung, rung], 10**6).dumps()
