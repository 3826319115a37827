"""An attack aimed at one card, square or district leaves the others alone.

Each test sets two of a kind side by side (two terrain cards, two Facilities,
the same square in two districts) so that an effect which reached too far
would show; and the limits of an attack's reach in time and in turn order:
a claim lasts the game, an attack is never the play of a turn that switched.
With them, the rules that keep a card to its owner or its district: a rival's
Small Yard, one Enhancement of a kind a district, and the
``threeTrackThreeOther`` deal's shuffled track pile.
"""

from __future__ import annotations

import pytest

from engine.stationmaster.rules.actions import Attack, EndTurn, Play, SortCars
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.lasting import halted_work, line_closed, square_refusals
from engine.stationmaster.rules.state import Car, Square
from tests.kit.stationmaster import (
    CATALOG,
    attack,
    codes,
    end_stage,
    enhance,
    facility,
    game_with,
    give,
    lay,
    office_slot,
    put_train,
    rivals_game,
    set_hand,
)
from tests.kit.stationmaster_scenarios import CLAIM, EMBARGO, RIGHTS, STRIKE, claim_game, rights_game

# [West DP, terrain, Office 0, terrain, Office 1, terrain, East DP]
TERRAIN = (1, 3, 5)


# -- Washout: its one terrain card ----------------------------------------------------------


def test_a_washout_closes_only_the_card_it_is_played_on() -> None:
    game = rivals_game()
    game.state.mainline[1].card = "interchange"
    give(game, "washout", player=0)
    attack(game, Attack(0, "washout", slot=3))
    assert [slot for slot in TERRAIN if line_closed(game, slot) is not None] == [3]
    from_west = put_train(game, "train-3", [], train_id="w", position=0)
    from_office = put_train(game, "train-5", [], train_id="e", position=office_slot(game, 1))
    game.apply(EndTurn(0))
    set_hand(game, "extra-3", "straight", "straight", player=1)
    assert game.check(Play(1, "extra-3", slot=1, heading="east")) == []  # the Interchange is open
    game.apply(EndTurn(1))
    assert from_west.position != 0, "a train was held before an open card"
    assert from_office.position != office_slot(game, 1), "a train was held before an open card"


# -- Strike and Embargo: one Facility of one district ------------------------------------


def _two_districts_alike(game: Game) -> tuple[Square, Square, Square]:
    """A Grocer's Warehouse at (0, -1) in both districts and a Meat Packer at
    (1, -1) of player 1's, each with a load in its first box and a loaded car
    of its type at its door: (player 1's Warehouse, player 0's, the Meat Packer)."""
    aimed = facility(game, 1, 0, -1, "grocers-warehouse")
    twin = facility(game, 0, 0, -1, "grocers-warehouse")
    beside = facility(game, 1, 1, -1, "meat-packer")
    for square, car in ((aimed, "reefer"), (twin, "reefer"), (beside, "stockcar")):
        square.pipeline, square.cars = [1, 0, 0], [Car(car, True)]
    return aimed, twin, beside


@pytest.mark.parametrize(("card", "halted"), [("strike", "work"), ("embargo", "inbound")])
def test_a_strike_or_an_embargo_halts_only_its_square_in_its_district(card: str, halted: str) -> None:
    game = rivals_game()
    aimed, twin, beside = _two_districts_alike(game)
    give(game, card, player=0)
    attack(game, STRIKE if card == "strike" else EMBARGO)
    assert halted_work(game, 1, "0,-1") == {halted}
    assert halted_work(game, 0, "0,-1") == set()  # the same square of the attacker's district
    assert halted_work(game, 1, "1,-1") == set()  # the next Facility of the same district
    game.apply(EndTurn(0))  # player 0's own Warehouse works
    assert not twin.cars[0].loaded and twin.pipeline != [1, 0, 0]
    game.apply(EndTurn(1))
    assert aimed.cars[0].loaded, "the attacked Facility took in a load"
    assert not beside.cars[0].loaded and beside.pipeline != [1, 0, 0], "the Facility beside it did not work"


# -- Eminent Domain: one square of one district, for the whole game -----------------------


def test_a_claim_forbids_its_square_only_in_its_district() -> None:
    game = claim_game()
    attack(game, CLAIM)
    assert codes(square_refusals(game, 1, 0, -1)) == ["square-claimed"]
    assert square_refusals(game, 0, 0, -1) == []  # the same square, the attacker's district
    assert square_refusals(game, 1, 0, 1) == []  # another square of the rival's
    give(game, "waiting-area", player=0)
    game.state.turn.played = False  # judge the placement alone
    assert game.check(Play(0, "waiting-area", x=0, y=-1)) == []


def test_a_claim_lasts_the_game() -> None:
    game = claim_game()
    attack(game, CLAIM)
    for _ in range(game.catalog.game.table.stages_per_day + 2):  # more than a Day, round after round
        end_stage(game)
        assert codes(square_refusals(game, 1, 0, -1)) == ["square-claimed"]
    assert [(e.card, e.left) for e in game.state.lasting] == [("eminent-domain", None)]


def test_a_claimed_square_is_not_proposed_for_a_second_claim_but_its_twin_is() -> None:
    """Three players: once (0, -1) of player 1's district is claimed, the
    same square of player 2's may still be."""
    game = rivals_game(players=3)
    give(game, "eminent-domain", player=0)
    attack(game, CLAIM)
    game.state.salvage.remove("eminent-domain")  # the one copy, back in hand for a second turn's play
    game.state.hands[0].append("eminent-domain")
    game.state.turn.played = False
    proposed = {(a.rival, a.x, a.y) for a in game.legal_actions() if isinstance(a, Attack)}
    assert (1, 0, -1) not in proposed
    assert (2, 0, -1) in proposed
    assert codes(game.check(CLAIM)) == ["already-claimed"]
    assert game.check(Attack(0, "eminent-domain", rival=2, x=0, y=-1)) == []


# -- an attack is the turn's play ---------------------------------------------------------


def test_an_attack_is_refused_in_a_turn_that_switched() -> None:
    game = rivals_game()
    facility(game, 1, 0, -1, "grocers-warehouse")
    enhance(game, 0, 0, "small-yard")
    put_train(game, "train-3", [Car("boxcar", True), Car("tank", True)], train_id="t")
    set_hand(game, "strike", "straight", "straight", player=0)
    assert game.check(STRIKE) == []
    game.apply(SortCars(0, train="t", order=(1, 0)))  # a switching move
    assert codes(game.check(STRIKE)) == ["switch-option-taken"]
    assert STRIKE not in game.legal_actions()


# -- Trackage Rights: only what the rails reach -------------------------------------------


def test_trackage_rights_to_a_track_the_rails_do_not_reach_is_refused() -> None:
    """A track of the rival's district with cars on it, but joined to
    nothing the Office reaches."""
    game = rights_game()
    lay(game, 0, -3, "straight", player=1, cars=[Car("boxcar", True)])
    aimed = Attack(0, "trackage-rights", rival=1, train="x9", x=0, y=-3)
    assert codes(game.check(aimed)) == ["unreachable"]
    proposed = [a for a in game.legal_actions() if isinstance(a, Attack)]
    assert proposed == [RIGHTS]


# -- a district's Enhancements are its own ------------------------------------------------


def test_a_rivals_small_yard_sorts_only_for_its_own_player() -> None:
    game = rivals_game()
    enhance(game, 0, 0, "small-yard", player=1)
    put_train(game, "train-3", [Car("boxcar", True), Car("tank", True)], train_id="t", position=office_slot(game, 1))
    assert "not-at-your-office" in codes(game.check(SortCars(0, train="t", order=(1, 0))))
    game.apply(EndTurn(0))
    assert game.check(SortCars(1, train="t", order=(1, 0))) == []


def test_a_second_copy_of_an_enhancement_in_one_district_is_refused() -> None:
    game = rivals_game()
    lay(game, 1, 0, "straight", player=0)
    enhance(game, 0, 0, "small-yard", player=0)
    set_hand(game, "small-yard", "straight", "straight", player=0)  # the second copy
    assert codes(game.check(Play(0, "small-yard", x=1, y=0))) == ["one-per-district"]


def test_an_enhancement_in_a_rivals_district_does_not_count_against_yours() -> None:
    game = rivals_game()
    enhance(game, 0, 0, "small-yard", player=1)
    set_hand(game, "small-yard", "straight", "straight", player=0)
    assert game.check(Play(0, "small-yard", x=0, y=0)) == []


# -- the threeTrackThreeOther deal ---------------------------------------------------------


def test_the_three_track_three_other_deal_shuffles_the_track_pile() -> None:
    """Every hand gets a hand limit's worth of track and as many other cards,
    and which track cards depends on the seed."""
    limit = CATALOG.game.table.hand_limit
    dealt_track: set[tuple[str, ...]] = set()
    for seed in range(6):
        game = game_with(CATALOG, players=2, seed=seed, terrain=None, house={"openingDeal": "threeTrackThreeOther"})
        for hand in game.state.hands:
            track = [c for c in hand if CATALOG.by_id[c].family == "track"]
            assert len(track) == limit and len(hand) == 2 * limit
        dealt_track.add(tuple(sorted(c for c in game.state.hands[0] if CATALOG.by_id[c].family == "track")))
    assert len(dealt_track) > 1, "every seed dealt the same track cards"
