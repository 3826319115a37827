"""Hand and turn: the hand limit, what may be discarded, the opening deal, and
the Day/Stage cycle with its Mainline Phase."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from engine.errors import IllegalActionError
from engine.rng import SeededStream
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Discard, Draw, EndTurn, Play
from engine.stationmaster.rules.deck import home_deck
from engine.stationmaster.rules.dispatch import hand_limit
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import CATALOG, codes, new_game, set_hand, take

TABLE = CATALOG.game.table


# -- the hand limit ------------------------------------------------------------


def test_hand_limit_is_three() -> None:
    assert TABLE.hand_limit == 3
    game = new_game(seed=0, terrain=None)
    set_hand(game, "straight", "straight", "curve-left")
    assert hand_limit(game, 0) == 3
    assert game.check(EndTurn(0)) == []
    set_hand(game, "straight", "straight", "curve-left", "curve-right")
    reasons = game.check(EndTurn(0))
    assert codes(reasons) == ["hand-over-limit"], reasons
    with pytest.raises(IllegalActionError) as err:
        game.apply(EndTurn(0))
    assert codes(err.value.reasons) == ["hand-over-limit"]


def test_hand_limit_is_four_while_a_red_flag_is_held() -> None:
    game = new_game(seed=0, terrain=None)
    set_hand(game, "red-flag", "straight", "straight", "curve-left")
    assert hand_limit(game, 0) == 4
    assert game.check(EndTurn(0)) == []
    set_hand(game, "red-flag", "straight", "straight", "curve-left", "curve-right")
    assert hand_limit(game, 0) == 4
    reasons = game.check(EndTurn(0))
    assert codes(reasons) == ["hand-over-limit"], reasons


def test_two_red_flags_do_not_make_the_limit_five() -> None:
    game = new_game(seed=0, terrain=None)
    set_hand(game, "red-flag", "red-flag", "straight", "straight", "curve-left")
    assert hand_limit(game, 0) == 4
    reasons = game.check(EndTurn(0))
    assert codes(reasons) == ["hand-over-limit"], reasons
    set_hand(game, "red-flag", "red-flag", "straight", "straight")
    assert game.check(EndTurn(0)) == []


def test_over_the_limit_a_discard_brings_the_hand_down_and_then_the_turn_may_end() -> None:
    game = new_game(seed=0, terrain=None)
    set_hand(game, "straight", "straight", "curve-left", "curve-right")
    assert codes(game.check(EndTurn(0))) == ["hand-over-limit"]
    game.apply(Discard(0, "curve-right", 1))
    game.apply(EndTurn(0))


def test_an_extra_can_never_be_discarded() -> None:
    for flag in (False, True):
        game = new_game(seed=0, discardTimetabled=flag, terrain=None)
        set_hand(game, "extra-3", "straight", "straight", "curve-left")  # over the limit
        reasons = game.check(Discard(0, "extra-3", 1))
        assert "extra-never-discarded" in codes(reasons), reasons
        assert game.check(Discard(0, "straight", 1)) == []
        assert Discard(0, "extra-3", 1) not in game.legal_actions()


@pytest.mark.parametrize("allowed", [False, True])
def test_a_timetabled_train_may_be_discarded_only_with_the_house_rule(allowed: bool) -> None:
    game = new_game(seed=0, discardTimetabled=allowed, terrain=None)
    set_hand(game, "train-3", "straight", "straight")
    game.apply(Draw(0, "deck"))  # a discard follows a Draw
    reasons = game.check(Discard(0, "train-3", 2))
    if allowed:
        assert reasons == []
        game.apply(Discard(0, "train-3", 2))
        assert game.state.departments[1][-1] == "train-3"
    else:
        assert "timetabled-not-discarded" in codes(reasons), reasons
        with pytest.raises(IllegalActionError):
            game.apply(Discard(0, "train-3", 2))


def test_a_hand_of_only_undiscardable_cards_over_the_limit_may_play_again() -> None:
    game = new_game(seed=0, terrain=None)
    set_hand(game, "extra-3", "extra-5", "train-1", "train-2", "train-4")
    game.apply(Play(0, "train-1"))
    assert game.state.turn.played
    # four undiscardable cards, over the limit: playing again is the only way forward
    assert codes(game.check(EndTurn(0))) == ["hand-over-limit"]
    assert game.check(Play(0, "train-2")) == []
    game.apply(Play(0, "train-2"))
    # now at the limit: a third play is refused as usual
    reasons = game.check(Play(0, "train-4"))
    assert "already-played" in codes(reasons), reasons
    game.apply(EndTurn(0))


def test_a_hand_with_a_discardable_card_does_not_get_a_second_play() -> None:
    game = new_game(seed=0, terrain=None)
    set_hand(game, "straight", "extra-5", "train-1", "train-2", "train-4")
    game.apply(Play(0, "train-1"))
    reasons = game.check(Play(0, "train-2"))
    assert "already-played" in codes(reasons), reasons
    assert game.check(Discard(0, "straight", 1)) == []


def test_a_second_play_in_one_turn_is_refused() -> None:
    game = new_game(seed=0, terrain=None)
    set_hand(game, "train-1", "train-2", "straight")
    game.apply(Play(0, "train-1"))
    assert "already-played" in codes(game.check(Play(0, "train-2")))


def test_draw_is_taken_once_and_before_a_play() -> None:
    game = new_game(seed=0, terrain=None)
    set_hand(game, "train-1", "straight", "straight")
    game.apply(Draw(0, "deck"))
    assert "draw-taken" in codes(game.check(Draw(0, "deck")))
    game2 = new_game(seed=0, terrain=None)
    set_hand(game2, "train-1", "straight", "straight")
    game2.apply(Play(0, "train-1"))
    assert "draw-taken" in codes(game2.check(Draw(0, "1")))


def test_a_discard_without_a_draw_within_the_limit_is_refused() -> None:
    game = new_game(seed=0, terrain=None)
    set_hand(game, "straight", "straight", "curve-left")
    assert codes(game.check(Discard(0, "straight", 1))) == ["discard-not-now"]
    game.apply(Draw(0, "deck"))
    assert game.check(Discard(0, "straight", 1)) == []


def test_only_the_current_player_acts() -> None:
    game = new_game(seed=0, players=3, terrain=None)
    assert game.state.current == 0
    for action in (EndTurn(1), Draw(2, "deck")):
        reasons = game.check(action)
        assert codes(reasons) == ["not-your-turn"], reasons
    game.apply(EndTurn(0))
    assert game.check(EndTurn(1)) == []
    assert codes(game.check(EndTurn(0))) == ["not-your-turn"]


# -- the opening deal ------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_opening_deal_three_random(catalog: Catalog, players: int, seed: int) -> None:
    game = Game(catalog, players=players, seed=seed, house_rules={"openingDeal": "threeRandom"})
    assert [len(h) for h in game.state.hands] == [3] * players
    assert [len(p) for p in game.state.departments] == [1, 1, 1]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_opening_deal_three_track_three_other(catalog: Catalog, players: int, seed: int) -> None:
    game = Game(catalog, players=players, seed=seed, house_rules={"openingDeal": "threeTrackThreeOther"})
    for hand in game.state.hands:
        families = [catalog.by_id[c].family for c in hand]
        assert len(hand) == 6
        assert families.count("track") == 3
    assert game.census() == Counter(c.id for c in home_deck(catalog, game.rules, players))
    # six cards is over the limit: the first turn cannot simply end
    if game.state.phase == "local":
        assert codes(game.check(EndTurn(0))) == ["hand-over-limit"]


def test_three_random_is_the_default_and_differs_from_three_track(catalog: Catalog) -> None:
    default = Game(catalog, players=2, seed=5)
    assert default.rules["openingDeal"] == "threeRandom"
    assert all(len(h) == 3 for h in default.state.hands)


# -- Days and Stages -----------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 4])
def test_twelve_stages_a_day_and_the_game_ends_after_the_contents_days(players: int) -> None:
    assert TABLE.stages_per_day == 12
    game = new_game(players=players, seed=3, terrain=None)
    seen: list[tuple[int, int]] = []
    turns = 0
    while not game.is_over():
        seen.append((game.state.day, game.state.stage))
        game.apply(EndTurn(game.state.current))
        turns += 1
        assert turns <= 10_000
    assert turns == TABLE.game_days * TABLE.stages_per_day * players
    stages = sorted(set(seen))
    assert stages == [(d, st) for d in range(1, TABLE.game_days + 1) for st in range(1, 13)]
    assert game.legal_actions() == []
    assert codes(game.check(EndTurn(0))) == ["game-over"]


def test_the_game_length_follows_the_content(catalog: Catalog) -> None:
    short = dataclasses.replace(catalog, game=dataclasses.replace(catalog.game, table=dataclasses.replace(TABLE, game_days=1)))
    game = new_game(players=2, seed=3, catalog=short, terrain=None)
    turns = 0
    while not game.is_over():
        game.apply(EndTurn(game.state.current))
        turns += 1
    assert turns == 1 * 12 * 2


def test_each_stage_every_player_takes_a_turn_in_order_then_the_mainline_phase() -> None:
    game = new_game(players=3, seed=2, terrain=None)
    s = game.state
    take(game, "train-1")
    s.timetable[0] = "train-1"  # due out at Stage 1
    assert (s.day, s.stage, s.current) == (1, 1, 0)
    game.apply(EndTurn(0))
    assert (s.stage, s.current, s.trains) == (1, 1, [])
    game.apply(EndTurn(1))
    assert (s.stage, s.current, s.trains) == (1, 2, [])
    assert not any("departs" in line for line in s.log)
    game.apply(EndTurn(2))
    # the last player's turn is followed by the Mainline Phase, then Stage 2 opens with player 0
    assert (s.stage, s.current) == (2, 0)
    assert [t.card for t in s.trains] == ["train-1"]
    assert any(line.startswith("No. 1 Morning Passenger departs") for line in s.log)


def test_the_day_rolls_over_after_stage_twelve() -> None:
    game = new_game(players=1, seed=2, terrain=None)
    s = game.state
    for _ in range(11):
        game.apply(EndTurn(0))
    assert (s.day, s.stage) == (1, 12)
    game.apply(EndTurn(0))
    assert (s.day, s.stage) == (2, 1)


# -- the game's API: defaults and drawing among legal actions -------------------


def test_a_game_is_solitaire_unless_told() -> None:
    assert Game(CATALOG).state.players == 1


def test_first_legal_draws_among_two_legal_actions() -> None:
    """Drawing from a list of two, not every seed takes the first: the
    draw is uniform over what is legal, not the list's order."""
    game = new_game(seed=0, terrain=None)
    set_hand(game, "straight", "straight", "curve-left")
    game.apply(Draw(0, "deck"))
    pair = [a for a in game.legal_actions() if isinstance(a, Discard)][:2]
    assert len(pair) == 2 and pair[0] != pair[1]
    picked = {repr(game.first_legal(list(pair), SeededStream(seed))) for seed in range(12)}
    assert picked == {repr(pair[0]), repr(pair[1])}
