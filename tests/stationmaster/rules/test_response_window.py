"""The response window and the attack action as input: every kind of bad
input is refused with its reason and leaves the game as it was; attacks,
answers and declines save and replay like any action; a save from before the
opponent-directed cards were dealt is refused, saying so."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalActionError, SaveError
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Action, Answer, Attack, Decline, EndTurn, Play, from_json
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import codes, give
from tests.kit.stationmaster_scenarios import STRIKE, struck_game


def _refused(game: Game, action: Action, expected: set[str]) -> None:
    before = game.state_json()
    reasons = game.check(action)
    assert expected <= set(codes(reasons)), (action, reasons)
    with pytest.raises(IllegalActionError) as err:
        game.apply(action)
    assert list(err.value.reasons) == reasons
    assert game.state_json() == before


def test_bad_attacks_and_answers_are_refused_and_change_nothing() -> None:
    game = struck_game()
    give(game, "arbitration", player=1)
    _refused(game, Attack(0, "strike", rival=1, x=5, y=5), {"no-facility-there"})  # a target that is not there
    _refused(game, Attack(0, "strike", rival=3, x=0, y=-1), {"no-such-rival"})
    _refused(game, Attack(1, "strike", rival=0, x=0, y=-1), {"not-your-turn", "not-in-hand"})  # out of turn
    _refused(game, Answer(1, "arbitration"), {"nothing-to-answer"})  # a defence with nothing to answer
    _refused(game, Play(1, "arbitration"), {"not-your-turn", "nothing-to-answer"})
    _refused(game, Decline(1), {"nothing-to-answer"})
    game.apply(STRIKE)
    _refused(game, Answer(0, "arbitration"), {"not-aimed-at-you", "not-in-hand"})
    _refused(game, Answer(1, "strike"), {"not-in-hand", "does-not-answer"})
    _refused(game, EndTurn(0), {"awaiting-answer"})
    game.apply(Answer(1, "arbitration"))
    _refused(game, Answer(1, "arbitration"), {"already-answered"})  # answered twice
    _refused(game, Decline(1), {"already-answered"})


def test_an_attack_from_json_names_its_rival() -> None:
    action = from_json({"kind": "attack", "player": 0, "card": "strike", "rival": 1, "x": 0, "y": -1})
    assert action == STRIKE
    with pytest.raises(Exception, match="rival"):
        from_json({"kind": "attack", "player": 0, "card": "strike", "rival": "one"})


def test_a_save_from_before_this_change_is_refused_saying_why(catalog: Catalog) -> None:
    game = Game(catalog, players=2, seed=3)
    old = dict(json.loads(game.dumps()), format="stationmaster-save/1")
    with pytest.raises(SaveError, match="before opponent-directed cards were dealt"):
        Game.replay(catalog, old)


def test_a_three_player_game_with_random_choices_plays_to_its_end_and_replays(catalog: Catalog) -> None:
    game = Game(catalog, players=3, seed=0)
    while not game.is_over():
        action = game.random_legal_action()
        assert action is not None
        assert action.player == game.to_act or action.kind == "chooseGrade"
        game.apply(action)
    kinds = {a.kind for a in game.history}
    assert {"attack", "decline"} <= kinds, kinds
    for action in game.history:
        assert from_json(json.loads(json.dumps(action.to_json()))) == action
    assert Game.loads(catalog, game.dumps()).state_json() == game.state_json()
