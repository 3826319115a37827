"""Closed and claimed places: every way a train or a card could enter, start
on or leave a Mainline card washed out by a Washout, or a district square
claimed by an Eminent Domain (engine decisions, "Washout" and "Eminent
Domain").

A washed-out card is closed to trains: none starts onto it from a
neighbour, none is made up on it (an Extra played to start there is refused,
one queued there before the Washout waits in the queue), and since only an
unoccupied card washes out, none is ever on it to leave. A train whose way
out of a Division Point or an Office runs onto it waits where it stands.
Cards played onto the closed card change its track, not its closure. A
claimed square takes no card of any kind, and, holding no rail, no train.
"""

from __future__ import annotations

import pytest

from engine.stationmaster.rules.actions import Attack, EndTurn, Play, Spot
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.lasting import line_closed
from engine.stationmaster.rules.state import Car
from tests.kit.stationmaster import (
    CATALOG,
    attack,
    codes,
    dealt,
    end_stage,
    game_with,
    give,
    lay,
    office_slot,
    put_train,
    rivals_game,
    set_hand,
    set_hand_and_draw,
    take,
)
from tests.kit.stationmaster_scenarios import CLAIM, claim_game, rights_game

INTERCHANGE = 1  # [West DP, terrain, Office 0, terrain, Office 1, terrain, East DP]
BETWEEN_OFFICES = 3


def _day(game: Game) -> int:
    return game.catalog.game.table.stages_per_day


def _washed_out_by_player_1(game: Game, slot: int) -> None:
    """Player 0 ends the turn; player 1 washes ``slot`` out and player 0 lets it stand."""
    game.apply(EndTurn(0))
    give(game, "washout", player=1)
    attack(game, Attack(1, "washout", slot=slot))


# -- a train made up on a closed card ---------------------------------------------------


def test_the_issues_case_an_extra_is_not_made_up_on_a_washed_out_interchange() -> None:
    """Two players, seed 0: the deal puts the Interchange at position 1."""
    game = game_with(CATALOG, players=2, seed=0, terrain=None, house={})
    assert game.state.mainline[INTERCHANGE].card == "interchange"
    set_hand(game, "washout", "straight", "straight", player=0)
    set_hand(game, "extra-3", "straight", "straight", player=1)
    attack(game, Attack(0, "washout", slot=INTERCHANGE))
    game.apply(EndTurn(0))
    extra = Play(1, "extra-3", slot=INTERCHANGE, heading="east")
    refused = game.check(extra)
    assert codes(refused) == ["line-closed"], refused
    assert "washed out" in str(refused[0])
    assert extra not in game.legal_actions()
    assert codes(game.check(Play(1, "extra-3", slot=INTERCHANGE, heading="west"))) == ["line-closed"]
    while game.state.lasting:  # the Day passes: the card is repaired
        end_stage(game)
    game.apply(EndTurn(0))
    assert game.check(extra) == []


def test_an_extra_queued_on_the_interchange_before_it_washed_out_waits_in_the_queue() -> None:
    game = rivals_game()
    game.state.mainline[INTERCHANGE].card = "interchange"
    set_hand(game, "extra-3", "straight", "straight", player=0)
    game.apply(Play(0, "extra-3", slot=INTERCHANGE, heading="east"))
    trays = game.state.crew_trays_free
    _washed_out_by_player_1(game, INTERCHANGE)
    for _ in range(_day(game)):
        end_stage(game)
        assert [o.card for o in game.state.extras_queue] == ["extra-3"], "the Extra was made up on a closed card"
        assert not any(t.card == "extra-3" for t in game.state.trains)
        assert game.state.crew_trays_free == trays  # waiting in the queue takes no Crew Tray
    assert any("X3" in line and "waits in the queue" in line for line in game.state.log)
    assert game.state.lasting == []
    end_stage(game)  # repaired: it is made up and leaves
    assert game.state.extras_queue == []
    assert [t.position for t in game.state.trains if t.card == "extra-3"] == [INTERCHANGE + 1]
    assert game.census() == dealt(game)


def test_a_closed_start_holds_only_its_own_extra_in_the_queue() -> None:
    """An Extra queued behind one waiting on a closed card still leaves."""
    game = rivals_game()
    game.state.mainline[INTERCHANGE].card = "interchange"
    set_hand(game, "extra-3", "straight", "straight", player=0)
    game.apply(Play(0, "extra-3", slot=INTERCHANGE, heading="east"))
    game.apply(EndTurn(0))
    set_hand(game, "washout", "extra-5", "straight", player=1)
    attack(game, Attack(1, "washout", slot=INTERCHANGE))
    game.state.turn.played = False  # a second card this turn, to queue one more Extra behind it
    game.apply(Play(1, "extra-5", slot=office_slot(game, 1), heading="west"))
    end_stage(game)
    assert [o.card for o in game.state.extras_queue] == ["extra-3"]
    assert [t.card for t in game.state.trains] == ["extra-5"]


def test_a_train_made_up_on_the_interchange_makes_it_occupied() -> None:
    """A train standing where it was made up is on the card: a Washout there is refused."""
    game = rivals_game()
    game.state.mainline[INTERCHANGE].card = "interchange"
    give(game, "washout", player=0)
    put_train(game, "extra-3", [], train_id="x3", position=INTERCHANGE)
    assert codes(game.check(Attack(0, "washout", slot=INTERCHANGE))) == ["occupied"]


# -- a train whose way out runs onto a closed card ---------------------------------------


def test_an_extra_made_up_at_an_office_waits_there_before_a_closed_card() -> None:
    game = rivals_game()
    _washed_out_by_player_1(game, BETWEEN_OFFICES)
    game.apply(EndTurn(1))
    set_hand(game, "extra-3", "straight", "straight", player=0)
    extra = Play(0, "extra-3", slot=office_slot(game, 0), heading="east")
    assert game.check(extra) == []  # the start is open; the way out is not
    game.apply(extra)
    end_stage(game)
    train = next(t for t in game.state.trains if t.card == "extra-3")
    assert (train.position, train.remaining) == (office_slot(game, 0), 0)
    assert any("X3" in line and "washed out" in line for line in game.state.log)


def test_a_timetabled_train_waits_at_its_division_point_before_a_closed_card() -> None:
    game = rivals_game()
    take(game, "train-1")  # odd: it sets out east from the West Division Point
    game.state.timetable[game.state.stage] = "train-1"  # due at the next Stage
    give(game, "washout", player=0)
    attack(game, Attack(0, "washout", slot=INTERCHANGE))
    end_stage(game)  # the Stage of the Washout: nothing due
    end_stage(game)  # train 1 is due out
    train = next(t for t in game.state.trains if t.card == "train-1")
    assert (train.position, train.remaining) == (0, 0)


def test_a_train_on_a_neighbouring_card_waits_at_its_end() -> None:
    """A train crossing the card before the closed one stands at its end, and
    goes on once the Day is over."""
    game = rivals_game()
    give(game, "washout", player=0)
    attack(game, Attack(0, "washout", slot=BETWEEN_OFFICES + 2))
    train = put_train(game, "train-3", [], train_id="t", position=office_slot(game, 1))
    for _ in range(_day(game)):
        end_stage(game)
        assert train.position == office_slot(game, 1)
    end_stage(game)
    assert train.position == BETWEEN_OFFICES + 2


# -- cards played onto a closed card ------------------------------------------------------


@pytest.mark.parametrize("card", ["abs-signals", "realignment"])
def test_a_card_played_onto_a_washed_out_card_leaves_it_closed(card: str) -> None:
    game = rivals_game()
    _washed_out_by_player_1(game, BETWEEN_OFFICES)
    game.apply(EndTurn(1))
    if card == "realignment":
        set_hand_and_draw(game, card, "straight", "straight", player=0)
    else:
        set_hand(game, card, "straight", "straight", player=0)
    play = Play(0, card, slot=BETWEEN_OFFICES)
    assert game.check(play) == []
    game.apply(play)
    assert line_closed(game, BETWEEN_OFFICES) is not None
    train = put_train(game, "train-3", [], train_id="t", position=office_slot(game, 0))
    end_stage(game)
    assert train.position == office_slot(game, 0)


# -- a claimed square ---------------------------------------------------------------------


@pytest.mark.parametrize("card", ["straight", "grocers-warehouse", "waiting-area"])
def test_no_card_of_any_kind_is_built_on_a_claimed_square(card: str) -> None:
    """Track, a Facility, a Modifier beside the Office: each is refused."""
    game = claim_game()
    attack(game, CLAIM)
    game.apply(EndTurn(0))
    give(game, card, player=1)
    play = Play(1, card, x=0, y=-1)
    assert "square-claimed" in codes(game.check(play))
    assert not any(isinstance(a, Play) and (a.x, a.y) == (0, -1) for a in game.legal_actions())


def test_an_enhancement_never_reaches_a_claimed_square() -> None:
    """A claimed square holds no rail, which an Enhancement needs."""
    game = claim_game()
    attack(game, CLAIM)
    game.apply(EndTurn(0))
    give(game, "small-yard", player=1)
    assert "needs-rail" in codes(game.check(Play(1, "small-yard", x=0, y=-1)))


def test_no_train_runs_to_a_claimed_square() -> None:
    """Neither a rival's Trackage Rights nor the district's own switching
    reaches a claimed square: nothing is ever built there for it to run on."""
    game = rights_game()
    set_hand(game, "eminent-domain", "trackage-rights", "straight", player=0)
    attack(game, Attack(0, "eminent-domain", rival=1, x=3, y=-2))
    assert "no-rail" in codes(game.check(Attack(0, "trackage-rights", rival=1, train="x9", x=3, y=-2)))
    game.apply(EndTurn(0))
    put_train(game, "train-3", [Car("boxcar", True)], train_id="t", position=office_slot(game, 1))
    assert "no-rail" in codes(game.check(Spot(1, train="t", x=3, y=-2, cars=1)))
    give(game, "straight", player=1)
    assert "square-claimed" in codes(game.check(Play(1, "straight", x=3, y=-2)))


def test_building_beside_a_claimed_square_is_still_allowed() -> None:
    """The claim holds its own square only."""
    game = claim_game()
    attack(game, CLAIM)
    game.apply(EndTurn(0))
    lay(game, 1, 0, "straight", player=1)
    game.state.districts[1].east_limit = 2
    give(game, "straight", player=1)
    assert "square-claimed" not in codes(game.check(Play(1, "straight", x=2, y=0)))
