"""The search rungs of Trick of the Rails' ladder (``pimc-N``,
engine/trickoftherails/bots/search.py): each is a bot by name in
``simulate`` and ``play``, and a game with one replays from its seed and
actions, byte for byte. The budgets are cut to a few deals a
decision where only the name and the routing are under test."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from command import play
from engine.trickoftherails.bots import BOT_FUNCTIONS, BOTS, LADDER, SEARCH_RUNGS
from engine.trickoftherails.rules.game import Game
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT
from tests.kit.trickoftherails import CATALOG, CONTENT


def _played(seed: int, seats: list[str]) -> Game:
    game = Game(CATALOG, len(seats), seed)
    while not game.is_over():
        to_act = game.to_act
        assert to_act is not None
        game.apply(BOT_FUNCTIONS[seats[to_act]](game))
    return game


def test_the_ladder_is_random_greedy_then_the_search_rungs() -> None:
    assert LADDER[:2] == ("random", "greedy") and set(LADDER) == set(BOTS)
    assert all(name in LADDER for name in SEARCH_RUNGS)


def test_a_search_game_replays_byte_for_byte_from_its_seed_and_actions() -> None:
    seats = [next(iter(SEARCH_RUNGS)), "random", "greedy"]
    game = _played(12, seats)
    assert Game.loads(CATALOG, game.dumps()).state_json() == game.state_json()
    assert _played(12, seats).dumps() == game.dumps()


@pytest.mark.parametrize("rung", sorted(SEARCH_RUNGS))
def test_each_rung_is_a_bot_by_name_in_simulate(rung: str, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SEARCH_RUNGS, rung, (2, 3))
    result = run_cli(["simulate", "--game", "trickoftherails", "--games", "1", "--players", "3", "--bot", rung, "--bot", "greedy", "--bot", "random", "--json"], PROJECT_ROOT)
    assert result.code == 0, result.err
    assert rung in json.dumps(json.loads(result.out))


@pytest.mark.parametrize("rung", sorted(SEARCH_RUNGS))
def test_each_rung_is_a_bot_by_name_in_play(rung: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SEARCH_RUNGS, rung, (2, 3))
    top = argparse.ArgumentParser(prog="stationmaster")
    play.add_parser(top.add_subparsers(dest="command", required=True))
    save = tmp_path / "game.json"
    args = top.parse_args(["play", "--game", "trickoftherails", "--content", str(CONTENT), "--players", "3", "--bots", "3", "--bot", rung, "--seed", "4", "--save", str(save)])
    out, err = io.StringIO(), io.StringIO()
    assert play.run(args, stdin=io.StringIO(""), stdout=out, stderr=err) == 0, err.getvalue()
    assert f"({rung} bot)" in out.getvalue()
    assert Game.loads(CATALOG, save.read_text(encoding="utf-8")).dumps() == _played(4, [rung] * 3).dumps()
