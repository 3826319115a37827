"""Trick of the Rails' trick rules, each in a position built for it, so a
broken rule fails here and not only in the site's seeded game: which cards a
player is offered, the "not in hand" refusal, which Reservation a stock
trick's winning card fills, the best run of a railway wherever it lies, and
who leads and lays after a trick."""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.actions import LayTrack, PlaceCity, PlaceLocomotive, Play
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.scoring import best_run, run_value, scores, share_value, winners
from tests.kit.trickoftherails import game_at, ids

HANDS = {0: ("NYC 2", "B&O 1", "PRR 4"), 1: ("NYC 5", "B&O 2", "ERIE 3"), 2: ("PRR 1", "B&O 3", "C&O 6")}


def _hands() -> dict[int, list[str]]:
    """Fresh hands (the game plays cards out of the lists it is given)."""
    return {p: ids(*names) for p, names in HANDS.items()}


def _offered(game: Game) -> set[str]:
    return {a.card for a in game.legal_actions() if isinstance(a, Play)}


def test_the_leader_is_offered_the_whole_hand() -> None:
    game = game_at(3, ["b-and-o-exchange", "loco-3", "c-and-o-exchange"], _hands(), 1)
    assert _offered(game) == set(ids(*HANDS[1]))
    assert all(game.check(Play(1, card)) == [] for card in ids(*HANDS[1]))


def test_a_player_who_can_follow_is_offered_only_the_led_company() -> None:
    game = game_at(3, ["b-and-o-exchange", "loco-3", "c-and-o-exchange"], _hands(), 1)
    game.apply(Play(1, "b-and-o-2"))
    assert _offered(game) == {"b-and-o-3"}


def test_a_player_who_cannot_follow_is_offered_the_whole_hand() -> None:
    game = game_at(3, ["b-and-o-exchange", "loco-3", "c-and-o-exchange"], _hands(), 1)
    game.apply(Play(1, "nyc-5"))
    assert {a.card for a in game.candidates() if isinstance(a, Play)} == set(ids(*HANDS[2]))
    assert {a.card for a in Game.legal_actions(game) if isinstance(a, Play)} == set(ids(*HANDS[2]))
    assert all(game.check(Play(2, card)) == [] for card in ids(*HANDS[2]))


def test_a_card_not_in_hand_is_refused_as_not_in_hand() -> None:
    game = game_at(3, ["b-and-o-exchange", "loco-3", "c-and-o-exchange"], _hands(), 0)
    refused = game.check(Play(0, "erie-3"))  # player 1 holds it
    assert [r.code for r in refused] == ["not-in-hand"]
    assert "ERIE 3" in refused[0].text and "player 0" in refused[0].text
    with pytest.raises(IllegalActionError):
        game.apply(Play(0, "erie-3"))
    assert game.state.hands[1] == ids(*HANDS[1]) and game.state.trick.plays == []


def test_playing_out_of_turn_is_refused() -> None:
    game = game_at(3, ["b-and-o-exchange", "loco-3", "c-and-o-exchange"], _hands(), 0)
    assert [r.code for r in game.check(Play(1, "nyc-5"))] == ["not-your-turn"]
    assert [r.code for r in game.check(LayTrack(0, "left"))] == ["trick-in-play"]


def _play_stock_trick(lane: list[str]) -> Game:
    """Player 1 wins a NYC trick with NYC 5 over an Exchange at the front."""
    game = game_at(3, lane, _hands(), 0)
    for player, card in ((0, "nyc-2"), (1, "nyc-5"), (2, "prr-1")):
        game.apply(Play(player, card))
    return game


def test_the_winners_card_fills_the_leftmost_reservation_only() -> None:
    game = _play_stock_trick(["nyc-exchange", "loco-3", "reservation-card", "loco-4", "reservation-card", "erie-exchange"])
    s = game.state
    assert s.lane == ["loco-3", "nyc-5", "loco-4", "reservation-card", "erie-exchange"]
    assert s.removed == ["reservation-card"]
    assert s.shares[1] == ["nyc-exchange"] and s.shares[0] == ["nyc-2"] and s.shares[2] == ["prr-1"]


def test_a_reserved_railway_card_is_a_share_prize_of_its_company() -> None:
    game = _play_stock_trick(["erie-7", "loco-3", "reservation-card"])
    s = game.state
    assert s.shares[1] == ["erie-7"]
    assert s.lane == ["loco-3", "nyc-5"]


def test_the_trick_winner_leads_the_next_trick() -> None:
    game = _play_stock_trick(["nyc-exchange", "loco-3", "reservation-card"])
    assert game.state.phase == "play" and game.state.trick.leader == 1 and game.to_act == 1 and game.state.trick.plays == []
    assert game.state.tricks_played == 1


def test_a_city_trick_lays_every_card_from_the_winner_round_the_table() -> None:
    game = game_at(4, ["new-york", "b-and-o-exchange"], {0: ids("NYC 2", "B&O 1"), 1: ids("NYC 5", "B&O 2"), 2: ids("PRR 1", "B&O 3"), 3: ids("NYC 9", "B&O 4")}, 1)
    for player, card in ((1, "nyc-5"), (2, "prr-1"), (3, "nyc-9"), (0, "nyc-2")):
        game.apply(Play(player, card))
    s = game.state
    assert [(p.player, p.what) for p in s.pending] == [(3, "city"), (3, "lay"), (0, "lay"), (1, "lay"), (2, "lay")]
    assert [r.code for r in game.check(LayTrack(3, "left"))] == ["placement-pending"]
    game.apply(PlaceCity(3, "nyc", "right"))
    for player, end in ((3, "left"), (0, "right"), (1, "left"), (2, "right")):
        game.apply(LayTrack(player, end))
    assert s.railways["nyc"] == ["nyc-5", "nyc-9", "nyc-station", *s.railways["nyc"][3:-2], "new-york", "nyc-2"]
    assert s.railways["prr"][-1] == "prr-1"
    assert s.phase == "play" and s.trick.leader == 3


def test_a_locomotive_with_every_railway_pulled_leaves_the_game() -> None:
    game = game_at(3, ["loco-5", "b-and-o-exchange"], _hands(), 0)
    game.state.locomotives.update({c: "loco-3" for c in ("b-and-o", "c-and-o", "erie", "nyc", "prr")})
    for player, card in ((0, "nyc-2"), (1, "nyc-5"), (2, "prr-1")):
        game.apply(Play(player, card))
    s = game.state
    assert "loco-5" in s.removed
    assert [p.what for p in s.pending] == ["lay", "lay", "lay"]
    assert [r.code for r in game.check(PlaceLocomotive(1, "nyc"))] == ["placement-pending"]


def test_the_game_ends_when_the_lane_is_empty(catalog: Catalog) -> None:
    game = game_at(3, ["nyc-exchange"], {0: ids("NYC 2"), 1: ids("NYC 5"), 2: ids("PRR 1")}, 0)
    for player, card in ((0, "nyc-2"), (1, "nyc-5"), (2, "prr-1")):
        game.apply(Play(player, card))
    assert game.is_over() and game.to_act is None
    assert [r.code for r in game.check(Play(0, "nyc-2"))] == ["game-over"]


@pytest.mark.parametrize(
    ("values", "reach", "best"),
    [
        ([40, 40, 10, 10, 10], 2, 80),  # the first window
        ([10, 30, 40, 10, 10], 2, 70),  # a middle window
        ([10, 10, 10, 40, 40], 2, 80),  # the last window
        ([10, 10, 30, 40, 40, 20], 4, 130),
        ([20, 10, 40], 3, 70),  # exactly as long as the reach
        ([20, 10, 40], None, 70),  # the [∞]
    ],
)
def test_the_best_run_of_a_railway(values: list[int], reach: int | None, best: int) -> None:
    assert best_run(values, reach) == best


def test_a_share_is_the_run_less_the_cost_never_below_the_floor(catalog: Catalog) -> None:
    loco3 = catalog.by_id["loco-3"]  # reach 3, cost 40
    assert run_value(catalog, [40, 40, 40, 10], loco3) == 80
    assert run_value(catalog, [10, 10], loco3) == catalog.share_floor == 0
    ten = catalog.by_id["nyc-10"].station_value
    assert ten is not None
    assert share_value(catalog, ids("NYC Station", "New York", "NYC 10"), "loco-3") == 10 + 40 + ten - 40


def test_teams_partners_sit_opposite_and_share_both_scores(catalog: Catalog) -> None:
    values = {"b-and-o": 10, "c-and-o": 20, "erie": 40, "nyc": 80, "prr": 0}
    shares = [["b-and-o-exchange"], ["c-and-o-exchange"], ["erie-exchange"], ["nyc-exchange"]]
    assert scores(catalog, shares, values) == [10, 20, 40, 80]
    assert scores(catalog, shares, values, teams=True) == [50, 100, 50, 100]


def test_every_player_on_the_top_score_wins() -> None:
    assert winners([30, 50, 50]) == [1, 2]
    assert winners([60, 50, 50]) == [0]


def _expert_six_trick(free: tuple[str, ...]) -> Game:
    """An Expert game where player 1 wins the [6], with only ``free`` railways lacking a locomotive."""
    from tests.kit.trickoftherails import CATALOG

    game = Game(CATALOG, 3, seed=1, house_rules={"variant": "expert"})
    s = game.state
    s.lane = ["loco-6", "b-and-o-exchange"]
    for p, names in HANDS.items():
        s.hands[p] = ids(*names)
    s.trick.plays, s.trick.leader = [], 0
    s.locomotives.update({c: "loco-3" for c in ("b-and-o", "c-and-o", "erie", "nyc", "prr") if c not in free})
    for player, card in ((0, "nyc-2"), (1, "nyc-5"), (2, "prr-1")):
        game.apply(Play(player, card))
    return game


def test_in_the_expert_game_the_winner_places_the_infinity_even_on_the_one_free_railway() -> None:
    game = _expert_six_trick(("nyc", "erie"))
    game.apply(PlaceLocomotive(1, "nyc"))
    assert game.state.pending[0].what == "locomotive" and game.state.pending[0].card == "loco-all"
    assert "erie" not in game.state.locomotives


def test_the_infinity_with_no_railway_left_leaves_the_game() -> None:
    game = _expert_six_trick(("nyc",))
    game.apply(PlaceLocomotive(1, "nyc"))
    assert "loco-all" in game.state.removed and "loco-all" not in game.state.locomotives.values()
    assert [p.what for p in game.state.pending] == ["lay", "lay", "lay"]
