"""The error taxonomy: each failure has its own type, and the new types are
InvalidActionErrors, so callers written before them still catch them."""

from __future__ import annotations

import json

import pytest

from engine.errors import ConfigurationError, IllegalActionError, InvalidActionError, SaveError, StationMasterError
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import EndTurn, Play
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import codes, new_game


def test_the_new_types_are_invalid_action_errors() -> None:
    for kind in (ConfigurationError, SaveError):
        assert issubclass(kind, InvalidActionError) and issubclass(kind, StationMasterError) and issubclass(kind, ValueError)
    assert not issubclass(ConfigurationError, SaveError) and not issubclass(SaveError, ConfigurationError)


@pytest.mark.parametrize(
    ("setup", "word"),
    [
        ({"players": 0}, "players"),
        ({"players": True}, "players"),
        ({"seed": "7"}, "seed"),
        ({"house_rules": {"noSuchRule": True}}, "noSuchRule"),
        ({"house_rules": {"extraStart": "anywhere"}}, "extraStart"),
    ],
)
def test_a_game_that_cannot_be_set_up_is_a_configuration_error(catalog: Catalog, setup: dict[str, object], word: str) -> None:
    with pytest.raises(ConfigurationError) as err:
        Game(catalog, **setup)  # type: ignore[arg-type]
    assert word in str(err.value)


def _save() -> dict[str, object]:
    game = new_game(seed=4, terrain=None)
    game.apply(EndTurn(0))
    data: dict[str, object] = json.loads(game.dumps())
    return data


@pytest.mark.parametrize(
    ("change", "word"),
    [
        ({"format": "chess/1"}, "not a Station Master save"),
        ({"content": "0" * 64}, "different card content"),
        ({"actions": None}, "missing its action list"),
        ({"players": 9}, "players"),
        ({"actions": [{"kind": "endTurn", "player": 3}]}, "action 1 cannot be replayed"),
        ({"actions": [{"kind": "teleport", "player": 0}]}, "action 1 cannot be replayed"),
    ],
)
def test_a_save_that_cannot_be_replayed_is_a_save_error(catalog: Catalog, change: dict[str, object], word: str) -> None:
    save = _save() | change
    with pytest.raises(SaveError) as err:
        Game.replay(catalog, save)
    assert word in str(err.value)


@pytest.mark.parametrize("text", ["{not json", "[]", "1" * 5000])
def test_a_save_that_is_not_a_json_object_is_a_save_error(catalog: Catalog, text: str) -> None:
    with pytest.raises(SaveError):
        Game.loads(catalog, text)


def test_a_good_save_replays(catalog: Catalog) -> None:
    assert Game.replay(catalog, _save()).history == [EndTurn(0)]


def test_action_errors_keep_their_types() -> None:
    game = new_game(players=2, seed=4)
    with pytest.raises(InvalidActionError) as malformed:
        game.apply(Play(0, "no-such-card"))
    assert not isinstance(malformed.value, (ConfigurationError, SaveError))
    with pytest.raises(IllegalActionError) as refused:
        game.apply(EndTurn(1))
    assert codes(refused.value.reasons) == ["not-your-turn"]


# -- refusal reasons as values -----------------------------------------------------


def test_a_reason_is_its_text_with_a_stable_code() -> None:
    import pickle

    from engine.errors import Reason

    reason = Reason("hand-over-limit", "the hand holds 4 cards and the limit is 3")
    assert reason == reason.text == "the hand holds 4 cards and the limit is 3"
    assert reason.code == "hand-over-limit"
    assert pickle.loads(pickle.dumps(reason)).code == "hand-over-limit"
    assert json.dumps([reason]) == json.dumps([reason.text])


def test_every_reason_the_game_gives_has_a_code() -> None:
    from engine.errors import Reason

    game = new_game(players=2, seed=4)
    for action in [EndTurn(1), Play(0, "straight"), Play(0, "strike")]:
        reasons = game.check(action)
        assert reasons and all(isinstance(r, Reason) and r.code for r in reasons), reasons


def test_plain_text_reasons_are_filed_under_refused() -> None:
    error = IllegalActionError(EndTurn(0), ["some older rule says no"])
    assert [r.code for r in error.reasons] == ["refused"]


FALLBACK_CODES = {"refused", "placement", "consist", "coupling"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_refusal_in_play_is_left_without_a_code_of_its_own(seed: int) -> None:
    """Judge every proposal of the first turns of a bot game: each reason has
    a code of its own, none the fallback for plain text (``refused``, or the
    family codes the core files a plain text under)."""
    from engine.stationmaster.rules import dispatch as rules

    game = new_game(seed=seed, terrain=None)
    for _ in range(40):
        if game.is_over():
            break
        for action in rules.candidates(game):
            for code in codes(game.check(action)):
                assert code and code not in FALLBACK_CODES and not code.startswith("effect:"), (action, code)
        choice = game.random_legal_action()
        assert choice is not None
        game.apply(choice)
