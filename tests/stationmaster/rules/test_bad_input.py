"""Malformed input: InvalidActionError (never a crash, never a silent
acceptance), and the state untouched after every refused or invalid action."""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError, InvalidActionError
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Answer, Attack, ChooseGrade, Decline, Discard, Draw, EndTurn, Play, RedFlag, SortCars, from_json
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car, Train
from tests.kit.stationmaster import CATALOG, new_game


def local_game(players: int = 2, seed: int = 3) -> Game:
    return new_game(players=players, seed=seed, terrain=None)


def invalid(game: Game, action: object, *words: str) -> None:
    before = game.state_json()
    history = list(game.history)
    with pytest.raises(InvalidActionError) as err:
        game.check(action)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        game.apply(action)  # type: ignore[arg-type]
    for word in words:
        assert word in str(err.value), str(err.value)
    assert game.state_json() == before
    assert game.history == history


BAD_ACTIONS = [
    pytest.param(Play(0, "no-such-card"), "no-such-card", id="play-unknown-card"),
    pytest.param(Discard(0, "no-such-card", 1), "no-such-card", id="discard-unknown-card"),
    pytest.param(Discard(0, "straight", 0), "department", id="department-0"),
    pytest.param(Discard(0, "straight", 4), "department", id="department-4"),
    pytest.param(EndTurn(2), "no player 2", id="player-too-high"),
    pytest.param(EndTurn(-1), "no player -1", id="player-negative"),
    pytest.param(Draw(7, "deck"), "no player 7", id="draw-player-7"),
    pytest.param(Play(0, "extra-5", slot=99, heading="east"), "no Mainline position 99", id="slot-99"),
    pytest.param(Play(0, "extra-5", slot=-1, heading="east"), "no Mainline position -1", id="slot-negative"),
    pytest.param(Play(0, "abs-signals", slot=7), "no Mainline position 7", id="slot-just-past-the-end"),
    pytest.param(Play(0, "extra-5", slot=0, heading="north"), "heading", id="bad-heading"),
    pytest.param(Play(0, "extra-5", slot=0, heading="East"), "heading", id="heading-case"),
    pytest.param(Draw(0, "4"), "source", id="draw-department-4"),
    pytest.param(Draw(0, "0"), "source", id="draw-department-0"),
    pytest.param(Draw(0, "pile"), "source", id="draw-pile"),
    pytest.param(Draw(0, ""), "source", id="draw-empty"),
]


@pytest.mark.parametrize(("action", "word"), BAD_ACTIONS)
def test_malformed_actions_are_invalid_and_leave_the_state_alone(action: object, word: str) -> None:
    invalid(local_game(), action, word)


def test_an_action_that_is_not_an_action() -> None:
    game = local_game()
    for thing in (None, "endTurn", {"kind": "endTurn", "player": 0}, 0):
        invalid(game, thing, "not an action")


def test_refused_actions_leave_the_state_alone() -> None:
    game = local_game()
    s = game.state
    s.trains.append(Train("t", "train-3", None, "east", 1, [Car("boxcar", True)], False, remaining=1))
    extra_hand = s.hands[0] + ["extra-5"]
    s.hands[0] = extra_hand
    refusals = [
        (EndTurn(1), {"not-your-turn"}),
        (EndTurn(0), {"hand-over-limit"}),
        (Discard(0, "extra-5", 1), {"extra-never-discarded"}),
        (Play(0, "strike"), {"not-in-hand", "attack-card"}),
        (Play(0, "arbitration"), {"not-in-hand", "nothing-to-answer"}),
        (Attack(0, "strike", rival=1, x=0, y=-1), {"not-in-hand", "no-facility-there"}),
        (Attack(0, "strike", rival=0, x=0, y=-1), {"not-in-hand", "not-a-rival"}),
        (Attack(0, "strike", rival=7, x=0, y=-1), {"not-in-hand", "no-such-rival"}),
        (Attack(0, "washout", slot=2), {"not-in-hand", "needs-terrain-slot"}),
        (Attack(1, "derailment", rival=0, train="t"), {"not-your-turn", "not-in-hand", "not-their-train"}),
        (Attack(0, "extra-5", rival=1), {"not-an-attack"}),
        (Answer(0, "arbitration"), {"nothing-to-answer"}),
        (Decline(0), {"nothing-to-answer"}),
        (Play(0, "extra-5"), {"extra-needs-start"}),
        (Play(0, "extra-5", slot=0, heading="west"), {"runs-off-the-mainline"}),
        (RedFlag(0, train="t"), {"card-not-held"}),
        (SortCars(0, train="t", order=(0,)), {"order-unchanged"}),
        (ChooseGrade(0, slot=1, uphill="east"), {"grades-chosen"}),
        (Draw(1, "deck"), {"not-your-turn"}),
    ]
    for action, expected in refusals:
        before = game.state_json()
        reasons = game.check(action)
        assert expected <= {r.code for r in reasons}, (action, reasons)
        with pytest.raises(IllegalActionError) as err:
            game.apply(action)
        assert list(err.value.reasons) == reasons
        assert [r.code for r in err.value.reasons] == [r.code for r in reasons]
        assert game.state_json() == before, action
    assert game.history == []


# -- from_json -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "word"),
    [
        (None, "JSON object"),
        ([], "JSON object"),
        ("draw", "JSON object"),
        (3, "JSON object"),
        ({}, "unknown action kind"),
        ({"kind": "teleport", "player": 0}, "teleport"),
        ({"kind": 3, "player": 0}, "unknown action kind"),
        ({"kind": "Draw", "player": 0}, "unknown action kind"),
        ({"kind": "draw"}, "'player' is required"),
        ({"kind": "draw", "player": 0, "card": "straight"}, "unknown field 'card'"),
        ({"kind": "endTurn", "player": 0, "slot": 1}, "unknown field 'slot'"),
        ({"kind": "play", "player": 0, "card": "x", "colour": "red"}, "unknown field 'colour'"),
        ({"kind": "draw", "player": "0"}, "'player'"),
        ({"kind": "draw", "player": 0.0}, "'player'"),
        ({"kind": "draw", "player": True}, "'player'"),
        ({"kind": "draw", "player": None}, "'player'"),
        ({"kind": "draw", "player": 0, "source": 1}, "'source'"),
        ({"kind": "play", "player": 0, "card": 5}, "'card'"),
        ({"kind": "play", "player": 0, "card": "extra-5", "slot": "1"}, "'slot'"),
        ({"kind": "play", "player": 0, "card": "extra-5", "slot": False}, "'slot'"),
        ({"kind": "play", "player": 0, "card": "extra-5", "slot": 0, "heading": 1}, "'heading'"),
        ({"kind": "play", "player": 0, "card": "x" * 101}, "'card'"),
        ({"kind": "discard", "player": 0, "card": "straight", "department": "1"}, "'department'"),
        ({"kind": "chooseGrade", "player": 0, "slot": 1, "uphill": ["east"]}, "'uphill'"),
        ({"kind": "sortCars", "player": 0, "train": "t", "order": "012"}, "'order'"),
        ({"kind": "sortCars", "player": 0, "train": "t", "order": [0, "1"]}, "'order'"),
        ({"kind": "sortCars", "player": 0, "train": "t", "order": [True]}, "'order'"),
        ({"kind": "sortCars", "player": 0, "train": "t", "order": list(range(17))}, "'order'"),
        ({"kind": "redFlag", "player": 0, "train": 12}, "'train'"),
    ],
)
def test_from_json_refuses_malformed_input(data: object, word: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        from_json(data)
    assert word in str(err.value), str(err.value)


@pytest.mark.parametrize(
    "action",
    [
        Draw(0, "deck"),
        Draw(1, "3"),
        Play(0, "extra-5", slot=0, heading="east"),
        Play(0, "second-section", train="train-1"),
        Play(0, "brakeman", slot=3),
        Discard(1, "straight", 2),
        EndTurn(0),
        ChooseGrade(0, slot=3, uphill="west"),
        RedFlag(0, train="train-1/d1"),
        SortCars(0, train="extra-9", order=(2, 0, 1)),
    ],
    ids=str,
)
def test_from_json_round_trips_every_kind(action: object) -> None:
    assert from_json(action.to_json()) == action  # type: ignore[attr-defined]


# -- creating a game ------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 5, -1, True, 1.0, "2", None])
def test_a_game_needs_one_to_four_players(catalog: Catalog, players: object) -> None:
    with pytest.raises(InvalidActionError) as err:
        Game(catalog, players=players, seed=1)  # type: ignore[arg-type]
    assert "players" in str(err.value)


@pytest.mark.parametrize("seed", ["1", 1.5, None, False])
def test_a_seed_is_a_whole_number(catalog: Catalog, seed: object) -> None:
    with pytest.raises(InvalidActionError) as err:
        Game(catalog, players=1, seed=seed)  # type: ignore[arg-type]
    assert "seed" in str(err.value)


@pytest.mark.parametrize(
    ("rules", "word"),
    [
        ({"noSuchRule": 1}, "noSuchRule"),
        ({"discardTimetabled": "true"}, "discardTimetabled"),
        ({"discardTimetabled": 1}, "discardTimetabled"),
        ({"openingDeal": "fiveRandom"}, "openingDeal"),
        ({"startingOffice": "station"}, "startingOffice"),
        ({"startingOffice": "terminal"}, "startingOffice"),
        ({"extraStart": "anywhere"}, "extraStart"),
    ],
)
def test_unknown_house_rules_and_options_are_refused(catalog: Catalog, rules: dict[str, object], word: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        Game(catalog, players=1, seed=1, house_rules=rules)  # type: ignore[arg-type]
    assert word in str(err.value)


# -- found bugs ---------------------------------------------------------------------------


def test_playing_a_mainline_card_by_id_is_refused_not_a_crash() -> None:
    game = local_game(players=1)
    game.state.trains.append(Train("t", "train-3", None, "east", 1, [Car("boxcar", True)], False, remaining=1))
    action = Play(0, "interchange", train="t")
    before = game.state_json()
    try:
        reasons: list[str] = list(game.check(action))
    except InvalidActionError:
        reasons = ["invalid"]
    assert reasons
    assert game.state_json() == before


def _setup_game() -> Game:
    seed = next(s for s in range(100) if Game(CATALOG, players=1, seed=s).state.phase == "setup")
    return Game(CATALOG, players=1, seed=seed)


def _over_game() -> Game:
    game = local_game(players=1, seed=4)
    while not game.is_over():
        game.apply(EndTurn(0))
    return game


@pytest.mark.parametrize("make", [_setup_game, _over_game], ids=["during-setup", "after-the-game"])
@pytest.mark.parametrize(
    "action",
    [
        Play(0, "no-such-card"),
        Play(0, "extra-5", slot=99, heading="east"),
        Play(0, "extra-5", slot=0, heading="north"),
        Draw(0, "9"),
        Discard(0, "straight", 9),
    ],
    ids=str,
)
def test_malformed_input_is_invalid_in_every_phase(make, action: object) -> None:  # type: ignore[no-untyped-def]
    game = make()
    with pytest.raises(InvalidActionError):
        game.check(action)


@pytest.mark.parametrize("action", [ChooseGrade(0, slot=1, uphill="north"), ChooseGrade(0, slot=99, uphill="east")], ids=str)
def test_a_malformed_grade_choice_is_invalid_after_setup(action: object) -> None:
    game = local_game(players=1)
    with pytest.raises(InvalidActionError):
        game.check(action)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [ChooseGrade(0, slot=99, uphill="east"), ChooseGrade(0, slot=1, uphill="north")], ids=str)
def test_a_malformed_grade_choice_is_invalid_during_setup(action: object) -> None:
    invalid(_setup_game(), action)
