"""Saving and replaying: a game is its seed, its house rules and its actions.
A tampered save is refused with InvalidActionError and a message saying why."""

from __future__ import annotations

import copy
import json
import re

import pytest

from engine.errors import InvalidActionError, SaveError
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Play, from_json
from engine.stationmaster.rules.game import SAVE_FORMAT, Game
from tests.kit.project import PROJECT_ROOT as ROOT
from tests.kit.stationmaster import CATALOG

# Its module-scoped fixture is built once: the whole module runs on one worker.
pytestmark = pytest.mark.xdist_group("replay")


def bot_game(seed: int, players: int = 2, steps: int | None = None, **house: object) -> Game:
    game = Game(CATALOG, players=players, seed=seed, house_rules=house)  # type: ignore[arg-type]
    n = 0
    while not game.is_over() and (steps is None or n < steps):
        game.apply(game.bot.choice(game.legal_actions()))
        n += 1
    return game


@pytest.mark.parametrize(
    ("seed", "players", "house"),
    [
        (1, 1, {}),
        (2, 2, {"openingDeal": "threeTrackThreeOther"}),
        (16, 3, {"startingOffice": "whistle-post", "discardTimetabled": True}),
        (7, 4, {"extraStart": "divisionPointsOnly"}),
    ],
)
def test_the_same_seed_and_actions_give_byte_identical_state(catalog: Catalog, seed: int, players: int, house: dict[str, object]) -> None:
    game = bot_game(seed, players, **house)  # type: ignore[arg-type]  # house holds house rules only, never steps
    assert game.is_over()
    again = Game(catalog, players=players, seed=seed, house_rules=house)  # type: ignore[arg-type]
    for action in game.history:
        again.apply(action)
    assert again.state_json() == game.state_json()
    replayed = Game.replay(catalog, game.save())
    assert replayed.state_json() == game.state_json()
    assert replayed.score() == game.score()


def test_the_bot_stream_does_not_move_the_rules_stream(catalog: Catalog) -> None:
    """A game whose actions are chosen by the bot replays without any bot."""
    a = bot_game(5, 2, steps=150)
    b = Game(catalog, players=2, seed=5)
    for action in a.history:
        b.apply(action)
    assert a.rng._random.getstate() == b.rng._random.getstate()
    assert a.state_json() == b.state_json()


def test_different_seeds_give_different_games(catalog: Catalog) -> None:
    assert Game(catalog, players=2, seed=1).state_json() != Game(catalog, players=2, seed=2).state_json()


@pytest.mark.parametrize("steps", [0, 1, 37, None])
def test_dumps_and_loads_round_trip(catalog: Catalog, steps: int | None) -> None:
    game = bot_game(11, 3, steps=steps, discardTimetabled=True)
    text = game.dumps()
    loaded = Game.loads(catalog, text)
    assert loaded.state_json() == game.state_json()
    assert loaded.dumps() == text
    assert loaded.rules == game.rules
    assert [a.to_json() for a in loaded.history] == [a.to_json() for a in game.history]
    # and play goes on identically from either copy
    if not game.is_over():
        action = game.legal_actions()[0]
        game.apply(action)
        loaded.apply(action)
        assert loaded.state_json() == game.state_json()


def test_a_save_names_its_format_content_seed_players_and_rules(catalog: Catalog) -> None:
    game = bot_game(3, 2, steps=20, extraStart="ownOffice")
    save = game.save()
    assert save["format"] == SAVE_FORMAT
    assert save["content"] == catalog.fingerprint
    assert (save["seed"], save["players"]) == (3, 2)
    assert save["houseRules"]["extraStart"] == "ownOffice"
    assert len(save["actions"]) == 20
    assert [from_json(a) for a in save["actions"]] == game.history
    json.dumps(save)  # plain JSON


def test_every_action_round_trips_through_json() -> None:
    game = bot_game(9, 4)
    for action in game.history:
        assert from_json(json.loads(json.dumps(action.to_json()))) == action


# -- tampered saves -----------------------------------------------------------------


@pytest.fixture(scope="module")
def saved() -> dict[str, object]:
    return bot_game(13, 2, steps=60).save()


def refused(save: object, *words: str) -> InvalidActionError:
    """The error a save is refused with; ``words`` are in its message (the
    save-level wording). A rules refusal inside is matched by its codes."""
    with pytest.raises(InvalidActionError) as err:
        Game.replay(CATALOG, save)
    message = str(err.value)
    for word in words:
        assert word in message, message
    return err.value


def refusal_codes(error: InvalidActionError) -> list[str]:
    """The codes of the rules refusal a save error carries (none for other save errors)."""
    return [r.code for r in error.reasons] if isinstance(error, SaveError) else []


def test_an_edited_action_is_refused(catalog: Catalog, saved: dict[str, object]) -> None:
    actions = saved["actions"]
    assert isinstance(actions, list)
    # one player's action given to the other player
    bad = copy.deepcopy(saved)
    bad["actions"][0]["player"] = 1 - bad["actions"][0]["player"]  # type: ignore[index]
    assert "not-your-turn" in refusal_codes(refused(bad, "action 1", "cannot be replayed"))
    # a card the hand does not hold
    game = Game(catalog, players=2, seed=13)
    for a in actions[:3]:
        game.apply(from_json(a))
    absent = next(c for c in game.state.deck if c not in game.state.hands[game.state.current])
    bad = copy.deepcopy(saved)
    bad["actions"][3] = Play(game.state.current, absent).to_json()  # type: ignore[index]
    assert "not-in-hand" in refusal_codes(refused(bad, "action 4"))
    # an unknown card and an unknown kind
    bad = copy.deepcopy(saved)
    bad["actions"][5] = {"kind": "play", "player": 0, "card": "no-such-card"}  # type: ignore[index]
    refused(bad, "action 6", "no-such-card")
    bad = copy.deepcopy(saved)
    bad["actions"][2] = {"kind": "teleport", "player": 0}  # type: ignore[index]
    refused(bad, "action 3", "teleport")
    bad = copy.deepcopy(saved)
    bad["actions"][2] = "endTurn"  # type: ignore[index]
    refused(bad, "action 3")


def test_a_changed_seed_or_player_count_does_not_replay(saved: dict[str, object]) -> None:
    for key, value in (("seed", 14), ("players", 3)):
        bad = dict(saved, **{key: value})
        refused(bad, "cannot be replayed")


def test_a_wrong_format_is_refused(saved: dict[str, object]) -> None:
    refused(dict(saved, format="stationmaster-save/0"), "format", "stationmaster-save/0")
    refused({k: v for k, v in saved.items() if k != "format"}, "not a Station Master save")
    refused([saved], "JSON object")
    refused("a save", "JSON object")


def test_another_content_fingerprint_is_refused(saved: dict[str, object]) -> None:
    refused(dict(saved, content="0" * 64), "different card content")
    refused({k: v for k, v in saved.items() if k != "content"}, "different card content")


def test_missing_or_malformed_parts_are_refused(saved: dict[str, object]) -> None:
    refused({k: v for k, v in saved.items() if k != "actions"}, "action list")
    refused(dict(saved, actions={"0": {}}), "action list")
    refused(dict(saved, houseRules=None), "house rules")
    refused(dict(saved, houseRules={"noSuchRule": True}), "noSuchRule")
    refused(dict(saved, houseRules={"extraStart": "anywhere"}), "extraStart")
    refused(dict(saved, players="2"), "players")
    refused(dict(saved, players=0), "players")
    refused(dict(saved, seed="13"), "seed")
    refused(dict(saved, seed=None), "seed")


def test_truncated_json_is_refused(catalog: Catalog) -> None:
    text = bot_game(17, 1, steps=10).dumps()
    for cut in (0, 1, len(text) // 2, len(text) - 1):
        with pytest.raises(InvalidActionError) as err:
            Game.loads(catalog, text[:cut])
        assert "not valid JSON" in str(err.value)


def test_loads_refuses_json_that_is_not_a_save(catalog: Catalog) -> None:
    for text in ("[]", "null", "42", '"save"', "{}"):
        with pytest.raises(InvalidActionError):
            Game.loads(catalog, text)


def test_a_truncated_action_list_replays_to_the_earlier_state(catalog: Catalog, saved: dict[str, object]) -> None:
    actions = saved["actions"]
    assert isinstance(actions, list)
    short = dict(saved, actions=actions[:30])
    game = Game(catalog, players=2, seed=13)
    for a in actions[:30]:
        game.apply(from_json(a))
    assert Game.replay(catalog, short).state_json() == game.state_json()


def test_a_save_playing_a_mainline_card_is_refused_cleanly(catalog: Catalog) -> None:
    game = Game(catalog, players=1, seed=21)
    while not game.state.trains:
        game.apply(game.bot.choice(game.legal_actions()))
    save = game.save()
    train = game.state.trains[0].id
    save["actions"].append({"kind": "play", "player": game.state.current, "card": "interchange", "train": train})
    refused(save, "cannot be replayed")


@pytest.mark.parametrize("where", ["README.md", "site/kit/engine.md"])
def test_the_documented_engine_examples_run(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A newcomer pastes these into .venv/bin/python at the checkout's top,
    # where each loads its pack's content: they must run as written.
    monkeypatch.chdir(ROOT)
    examples = re.findall(r"```python\n(.*?)```", (ROOT / where).read_text(encoding="utf-8"), re.DOTALL)
    assert examples, f"{where} shows no engine example"
    for example in examples:
        exec(compile(example, where, "exec"), {})  # noqa: S102  (our own documentation, run as a reader would)
