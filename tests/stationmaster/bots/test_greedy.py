"""The greedy bot uses every card it can (engine/stationmaster/bots/greedy.py):
it spends a Red Flag where one more Mainline Phase at the Office sets more
riders down and otherwise keeps it, holds its own Extra for the same, kicks a
car with a Flying Switch to an industry that works it, plays a grade card when
it can and keeps one that may yet be played, makes an Extra up in a yard that
runs through its Office (with cars for its industries), and builds rails a
train from the Office can reach."""

from __future__ import annotations

import pytest

from engine.stationmaster.bots import greedy_bot, greedy_value
from engine.stationmaster.bots.greedy import reach_gain
from engine.stationmaster.content.model import Catalog, TrackShape
from engine.stationmaster.rules.actions import Discard, Draw, FlyingSwitch, Hold, Play, RedFlag
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car, Square
from tests.kit.stationmaster import branch_yard, give, lay, loaded, new_game, office_slot, put_train, set_hand
from tests.kit.stationmaster_scenarios import STRIKE, struck_game


def _fresh(game: Game) -> Game:
    """Nothing done yet this turn, and nothing better to do than these tests say."""
    game.state.turn = type(game.state.turn)()
    return game


# -- Red Flag ------------------------------------------------------------------------------------


def test_a_red_flag_holds_a_train_whose_riders_outnumber_what_the_office_sets_down() -> None:
    game = _fresh(new_game(seed=40))
    set_hand(game, "red-flag", "straight", "straight")
    put_train(game, "train-1", loaded("coach", 3), train_id="t")  # a Depot sets down one a turn
    assert greedy_bot(game) == RedFlag(0, train="t")


def test_a_red_flag_is_kept_when_holding_the_train_earns_nothing() -> None:
    game = _fresh(new_game(seed=40))
    set_hand(game, "red-flag", "straight", "straight")
    put_train(game, "train-1", loaded("coach", 1), train_id="t")
    chosen = greedy_bot(game)
    assert not isinstance(chosen, RedFlag), chosen
    assert isinstance(chosen, Draw)


def test_the_only_red_flag_is_the_last_card_discarded() -> None:
    game = new_game(seed=41)
    set_hand(game, "red-flag", "straight", "curve-left", "realignment", "poling")
    game.state.turn.drawn = True
    ranks = {card: greedy_value(game, Discard(0, card, 1)) for card in set(game.state.hands[0])}
    assert ranks["red-flag"] == min(ranks.values()) and list(ranks.values()).count(ranks["red-flag"]) == 1, ranks
    assert ranks["poling"] == max(ranks.values()), "a card nothing can play goes first"


# -- holding one's own Extra -------------------------------------------------------------------------


def test_an_extra_of_riders_is_held_at_the_office_while_riders_remain() -> None:
    game = _fresh(new_game(seed=42))
    set_hand(game, "straight", "straight", "straight")
    put_train(game, "extra-5", loaded("coach", 3), train_id="x")
    assert greedy_bot(game) == Hold(0, train="x")
    game = _fresh(new_game(seed=42))
    set_hand(game, "straight", "straight", "straight")
    put_train(game, "extra-5", loaded("coach", 1), train_id="x")
    assert not isinstance(greedy_bot(game), Hold)


# -- Flying Switch ----------------------------------------------------------------------------------


def _kick_yard(flag: bool = True) -> Game:
    """A Sawmill (loads boxcars) behind a trailing-point turnout east of the
    Office, which only a car cut off on the move can reach."""
    game = _fresh(new_game(seed=43))
    set_hand(game, "straight", "straight", "flying-switch" if flag else "straight")
    squares = game.state.districts[0].squares
    squares["1,0"] = Square("turnout-left", "track", rotation=180)
    squares["0,1"] = Square("curve-left", "track")
    start = game.catalog.facility_start
    squares["-1,1"] = Square("sawmill", "facility", laborers=start.laborers, pipeline=[0] * len(start.pipeline))
    put_train(game, "train-3", [Car("tank", True), Car("boxcar", False)], train_id="t")
    return game


def test_a_flying_switch_kicks_a_car_to_an_industry_that_works_it() -> None:
    game = _kick_yard()
    assert greedy_bot(game) == FlyingSwitch(0, train="t", x=-1, y=1)
    game.apply(FlyingSwitch(0, train="t", x=-1, y=1))
    assert game.state.districts[0].squares["-1,1"].cars == [Car("boxcar", False)]


def test_a_flying_switch_is_not_spent_on_a_car_the_industry_does_not_work() -> None:
    game = _kick_yard()
    game.state.trains[0].cars.reverse()  # the loaded tank at the rear
    assert not isinstance(greedy_bot(game), FlyingSwitch)


def test_with_a_flying_switch_in_hand_a_trailing_turnout_reaches_somewhere(catalog: Catalog) -> None:
    game = new_game(seed=44)
    trailing = catalog.by_id["turnout-left"]
    assert isinstance(trailing, TrackShape)
    set_hand(game, "straight", "straight", "straight")
    lay(game, 1, 0, "straight")
    assert reach_gain(game, 0, trailing, 1, 0, 180) <= 0, "no train from the Office takes its diverging leg"
    set_hand(game, "flying-switch", "straight", "straight")
    assert reach_gain(game, 0, trailing, 1, 0, 180) > 0, "a kicked car does"
    assert reach_gain(game, 0, trailing, 1, 0, 0) > 0, "the facing turnout reaches out either way"


# -- grade cards ----------------------------------------------------------------------------------


def _graded(game: Game, brakeman: bool) -> Game:
    slot = game.state.mainline[1]
    slot.card, slot.uphill = "heavy-grade", "east"
    if brakeman:
        game.state.deck.remove("brakeman")
        slot.modifiers = ["brakeman"]
    return game


def test_airbrakes_are_played_once_a_brakeman_is_on_the_heavy_grade() -> None:
    game = _graded(new_game(seed=45), brakeman=True)
    set_hand(game, "airbrakes", "poling", "terminal")
    game.state.turn.drawn = True
    assert greedy_bot(game) == Play(0, "airbrakes", slot=1)


def test_airbrakes_waiting_for_a_brakeman_are_kept_over_a_card_nothing_plays() -> None:
    game = _graded(new_game(seed=46), brakeman=False)
    set_hand(game, "airbrakes", "poling", "straight")
    game.state.turn.drawn = True
    assert greedy_value(game, Discard(0, "poling", 1)) > greedy_value(game, Discard(0, "airbrakes", 1))


def test_airbrakes_with_no_heavy_grade_to_go_on_are_let_go_first() -> None:
    game = new_game(seed=46)  # every terrain card Plains
    set_hand(game, "airbrakes", "straight", "curve-left")
    game.state.turn.drawn = True
    ranks = {card: greedy_value(game, Discard(0, card, 1)) for card in set(game.state.hands[0])}
    assert ranks["airbrakes"] == max(ranks.values()), ranks


# -- Extras and what they carry -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(47, 53))
def test_an_extra_is_made_up_in_a_yard_and_runs_through_the_office(seed: int) -> None:
    game = _fresh(new_game(seed=seed))
    set_hand(game, "extra-5", "poling", "terminal")
    game.state.turn.drawn = True
    chosen = greedy_bot(game)
    assert isinstance(chosen, Play) and chosen.card == "extra-5", chosen
    office = office_slot(game)
    assert chosen.slot != office
    assert chosen.slot is not None and (chosen.slot < office) == (chosen.heading == "east")


def test_a_freight_extra_carries_what_the_districts_industries_work() -> None:
    game = new_game(seed=48)
    branch_yard(game)
    lay(game, 3, -1, "power-plant")
    for slot in game.state.mainline:
        slot.yard = []
    game.state.mainline[0].yard = [Car("boxcar", True), Car("hopper", True), Car("hopper", True), Car("tank", True)]
    set_hand(game, "extra-9", "poling", "terminal")
    game.state.turn.drawn = True
    chosen = greedy_bot(game)
    assert isinstance(chosen, Play) and chosen.card == "extra-9", chosen
    assert chosen.load is not None and "loaded hopper" in chosen.load and "loaded tank" not in chosen.load, chosen


# -- with rivals -----------------------------------------------------------------------------------


def test_an_attack_is_answered_with_a_defence_in_hand() -> None:

    from engine.stationmaster.rules.actions import Answer, Decline

    game = struck_game()
    game.apply(STRIKE)
    assert greedy_bot(game) == Decline(1), "nothing to answer with: let it stand"
    game = struck_game()
    give(game, "arbitration", player=1)
    game.apply(STRIKE)
    assert greedy_bot(game) == Answer(1, "arbitration")


def test_an_attack_goes_at_the_leading_rival() -> None:
    from engine.stationmaster.rules.actions import Attack

    game = new_game(players=3, seed=49)
    game.state.scores = [0, 2, 5]
    assert greedy_value(game, Attack(0, "strike", rival=2, x=3, y=-1)) > greedy_value(game, Attack(0, "strike", rival=1, x=3, y=-1))
