"""The search rungs of Station Master's ladder (``paired-N``,
engine/stationmaster/bots/search.py): each is a bot by name in ``simulate``
and ``play``, it searches only in the local phase and keeps greedy's pick
where there is nothing to weigh, its potential counts loads not yet scored,
and a game with one replays from its seed and actions, byte for byte. The
budgets are cut to a few deals a decision where only the name and the
routing are under test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.stationmaster.bots import BOT_FUNCTIONS, BOTS, LADDER, SEARCH_RUNGS, greedy_bot
from engine.stationmaster.bots.search import Rung, potential, shortlist
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


def test_where_there_is_nothing_to_weigh_the_search_rung_is_the_greedy_bot() -> None:
    """A decision greedy's shortlist leaves one action in (a turn that can
    only end, say) is greedy's own: no deal is dealt."""
    rung = BOT_FUNCTIONS[next(iter(SEARCH_RUNGS))]
    seen = 0
    for seed in range(40):
        game = _played(seed, ["greedy", "greedy"], 30)
        if game.state.phase == "local" and len(shortlist(game, 4)) == 1:
            assert rung(game.copy()) == greedy_bot(game.copy())
            seen += 1
    assert seen


def test_the_potential_counts_a_load_in_a_pipeline_as_scored() -> None:
    """A load in an industry's pipeline is worth what it earns when worked
    through, to the industry's district, before it is scored."""
    game = _played(5, ["greedy", "greedy"], 150)
    built = [(d.player, sq) for d in game.state.districts for sq in d.squares.values() if sq.kind == "facility"]
    assert built, "greedy builds an industry within 150 actions"
    owner, square = built[0]
    before = potential(game)
    square.pipeline = [square.pipeline[0] + 1, *square.pipeline[1:]] if square.pipeline else [1]
    after = potential(game)
    assert after[owner] == pytest.approx(before[owner] + game.catalog.game.scoring.load_worked)
    assert after[1 - owner] == before[1 - owner]


@pytest.mark.parametrize("rung", sorted(SEARCH_RUNGS))
def test_each_rung_is_a_bot_by_name_in_simulate(rung: str, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SEARCH_RUNGS, rung, Rung(2, horizon=2))
    result = run_cli(["simulate", "--games", "1", "--bot", rung, "--bot", "greedy", "--json"], PROJECT_ROOT)
    assert result.code == 0, result.err
    assert rung in json.dumps(json.loads(result.out))


@pytest.mark.parametrize("rung", sorted(SEARCH_RUNGS))
def test_each_rung_is_a_bot_by_name_in_play(rung: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SEARCH_RUNGS, rung, Rung(2, horizon=2))
    save = tmp_path / "game.json"
    result = run_play(["--players", "2", "--bots", "2", "--bot", rung, "--seed", "6", "--save", str(save)])
    assert result.code == 0, result.err
    assert f"{rung} bot" in result.out
    assert Game.loads(CATALOG, save.read_text(encoding="utf-8")).dumps() == _played(6, [rung, rung], 10**6).dumps()
