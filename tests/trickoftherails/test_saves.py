"""Saves of Trick of the Rails: a game replays from its seed and actions, and
a save from the other game, or made with other content, is refused with a
SaveError that says which."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.errors import SaveError
from engine.stationmaster import load_catalog as load_stationmaster
from engine.stationmaster.rules.game import Game as StationMasterGame
from engine.trickoftherails import load_catalog
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.game import Game
from tests.kit.project import PROJECT_ROOT
from tests.kit.trickoftherails import CATALOG


def played(players: int = 4, seed: int = 3, moves: int = 20) -> Game:
    game = Game(CATALOG, players, seed)
    for _ in range(moves):
        action = game.random_legal_action()
        assert action is not None
        game.apply(action)
    return game


def test_a_save_resumes_where_it_stopped(catalog: Catalog) -> None:
    game = played()
    again = Game.loads(catalog, game.dumps())
    assert again.state_json() == game.state_json()
    assert again.to_act == game.to_act


def test_a_station_master_save_is_refused(catalog: Catalog) -> None:
    other = StationMasterGame(load_stationmaster(PROJECT_ROOT / "content" / "stationmaster"), players=1, seed=1)
    with pytest.raises(SaveError, match="not a Trick of the Rails save"):
        Game.loads(catalog, other.dumps())


def test_station_master_refuses_this_games_save() -> None:
    with pytest.raises(SaveError, match="not a Station Master save"):
        StationMasterGame.loads(load_stationmaster(PROJECT_ROOT / "content" / "stationmaster"), played().dumps())


def test_a_save_made_with_other_content_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "trickoftherails"
    shutil.copytree(PROJECT_ROOT / "content" / "trickoftherails", copy)
    companies = copy / "companies.yaml"
    companies.write_text(companies.read_text(encoding="utf-8").replace("colour: blue", "colour: black"), encoding="utf-8")
    changed = load_catalog(copy)
    with pytest.raises(SaveError, match="different card content"):
        Game.loads(changed, played().dumps())


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda s: s.update(actions=[{"kind": "play", "player": 0, "card": "nyc-99"}]), "action 1 cannot be replayed: .*unknown card"),
        (lambda s: s.update(players=7), "played by 3, 4, 5 players"),
        (lambda s: s.update(houseRules={"variant": "advanced"}), "variant"),
        (lambda s: s.update(houseRules={"teams": True}, players=3), "Teams is played by 4 players"),
        (lambda s: s.pop("actions"), "missing its action list"),
    ],
)
def test_a_damaged_save_says_what_is_wrong(catalog: Catalog, edit: object, words: str) -> None:
    save = json.loads(played().dumps())
    assert callable(edit)
    edit(save)
    with pytest.raises(SaveError, match=words):
        Game.replay(catalog, save)


def test_an_illegal_action_in_a_save_carries_its_reasons(catalog: Catalog) -> None:
    game = played(moves=0)
    save = json.loads(game.dumps())
    leader = game.to_act
    assert leader is not None
    save["actions"] = [{"kind": "play", "player": (leader + 1) % 4, "card": game.state.hands[(leader + 1) % 4][0]}]
    with pytest.raises(SaveError) as caught:
        Game.replay(catalog, save)
    assert [r.code for r in caught.value.reasons] == ["not-your-turn"]


def test_not_json_is_refused(catalog: Catalog) -> None:
    with pytest.raises(SaveError, match="not valid JSON"):
        Game.loads(catalog, "{nope")
