"""Trick of the Rails' engine against the worked examples of the rules page
(§1.6 of ../shared/games/trick-of-the-rails.md) and the trick-level rules of
the seed: following suit, the winner, stock and operating tricks, the [∞]."""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError, InvalidActionError
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.actions import LayTrack, PlaceCity, PlaceLocomotive, Play
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.scoring import best_run, scores, share_value
from engine.trickoftherails.rules.state import Trick
from tests.kit.trickoftherails import NAME_TO_ID, game_at, ids


def test_share_values_of_the_worked_end_of_game(catalog: Catalog) -> None:
    railways = {
        "b-and-o": ids("B&O 2", "B&O Station", "B&O 9", "New York", "B&O 10", "B&O 5"),
        "c-and-o": ids("C&O Station", "C&O 8", "C&O 9", "C&O 4"),
        "erie": ids("ERIE 4", "ERIE Station", "ERIE 9", "Baltimore", "ERIE 6"),
        "nyc": ids("NYC Station", "NYC 6", "NYC 3", "NYC 9"),
        "prr": ids("Pittsburgh", "PRR Station", "PRR 5", "PRR 4", "PRR 6", "PRR 2", "PRR 10"),
    }
    locos = {"b-and-o": "loco-4", "c-and-o": "loco-all", "erie": "loco-3", "nyc": "loco-6", "prr": "loco-5"}
    values = {company: share_value(catalog, railways[company], locos[company]) for company in railways}
    assert values == {"b-and-o": 80, "c-and-o": 0, "erie": 40, "nyc": 40, "prr": 70}
    # Each player's shares, as company ids (an Exchange counts as one share).
    held = {
        "A": ["b-and-o"] * 3 + ["prr"] + ["c-and-o"] * 2 + ["nyc", "erie"],
        "B": ["nyc"] * 2 + ["erie"] * 2 + ["b-and-o"] + ["prr"] * 2 + ["c-and-o"],
        "C": ["prr"] * 3 + ["nyc", "erie", "c-and-o"] + ["b-and-o"] * 2,
    }
    shares = [[f"{company}-exchange" for company in held[p]] for p in "ABC"]
    assert scores(catalog, shares, values) == [390, 380, 450]


def test_a_run_can_sit_anywhere_and_a_short_railway_counts_whole() -> None:
    assert best_run([10, 10, 30, 40, 40, 20], 4) == 130
    assert best_run([10, 40, 30], 6) == 80
    assert best_run([10, 40, 30], None) == 80


def test_no_locomotive_is_worth_nothing(catalog: Catalog) -> None:
    assert share_value(catalog, ids("NYC Station", "NYC 6"), None) == 0


def test_the_worked_four_player_stock_trick() -> None:
    ann, bo, cy, di = 0, 1, 2, 3
    lane = ["nyc-exchange", "loco-3", "reservation-card"]
    game = game_at(4, lane, {ann: ids("PRR 7", "B&O 1"), bo: ids("PRR 3", "B&O 2"), cy: ids("ERIE 10", "B&O 3"), di: ids("PRR 9", "B&O 4")}, ann)
    for player, card in ((ann, "PRR 7"), (bo, "PRR 3"), (cy, "ERIE 10"), (di, "PRR 9")):
        game.apply(Play(player, NAME_TO_ID[card]))
    s = game.state
    assert s.last_trick is not None and s.last_trick.winner == di
    assert s.shares[di][-1] == "nyc-exchange"
    assert s.lane == ["loco-3", "prr-9"]  # PRR 9 took the Reservation's place
    assert "reservation-card" in s.removed
    assert (s.shares[ann][-1], s.shares[bo][-1], s.shares[cy][-1]) == ("prr-7", "prr-3", "erie-10")
    assert game.to_act == di and s.phase == "play"


def test_without_a_reservation_the_winners_card_leaves_the_game() -> None:
    game = game_at(3, ["b-and-o-exchange", "loco-3"], {0: ids("NYC 2", "B&O 1"), 1: ids("NYC 5", "B&O 2"), 2: ids("NYC 1", "B&O 3")}, 0)
    for player, card in ((0, "NYC 2"), (1, "NYC 5"), (2, "NYC 1")):
        game.apply(Play(player, NAME_TO_ID[card]))
    assert game.state.removed[-1] == "nyc-5"
    assert game.state.lane == ["loco-3"]


def test_the_worked_locomotive_trick() -> None:
    ann, bo, cy, di = 0, 1, 2, 3
    game = game_at(4, ["loco-3", "b-and-o-exchange"], {ann: ids("B&O 1", "PRR 1"), bo: ids("B&O 4", "PRR 2"), cy: ids("B&O 8", "PRR 3"), di: ids("C&O 2", "PRR 4")}, bo)
    for player, card in ((bo, "B&O 4"), (cy, "B&O 8"), (di, "C&O 2"), (ann, "B&O 1")):
        game.apply(Play(player, NAME_TO_ID[card]))
    s = game.state
    assert s.trick.winner == cy and s.phase == "place"
    refused = game.check(LayTrack(cy, "right"))
    assert [r.code for r in refused] == ["placement-pending"]
    game.apply(PlaceLocomotive(cy, "nyc"))
    assert s.locomotives["nyc"] == "loco-3"
    before = list(s.railways["b-and-o"])
    # Then in turn: Cy, Di, Ann, Bo lay their cards.
    assert [r.code for r in game.check(LayTrack(di, "right"))] == ["not-your-turn"]
    game.apply(LayTrack(cy, "right"))
    game.apply(LayTrack(di, "left"))
    game.apply(LayTrack(ann, "left"))
    game.apply(LayTrack(bo, "right"))
    assert s.railways["b-and-o"] == ["b-and-o-1", *before, "b-and-o-8", "b-and-o-4"]
    assert s.railways["c-and-o"][0] == "c-and-o-2"
    assert str(s.phase) == "play" and game.to_act == cy


def test_a_locomotive_goes_only_to_a_railway_without_one() -> None:
    game = game_at(3, ["loco-4", "b-and-o-exchange"], {0: ids("NYC 2", "B&O 1"), 1: ids("NYC 5", "B&O 2"), 2: ids("NYC 1", "B&O 3")}, 0)
    game.state.locomotives["prr"] = "loco-3"
    for player, card in ((0, "NYC 2"), (1, "NYC 5"), (2, "NYC 1")):
        game.apply(Play(player, NAME_TO_ID[card]))
    assert [r.code for r in game.check(PlaceLocomotive(1, "prr"))] == ["railway-has-locomotive"]
    with pytest.raises(IllegalActionError):
        game.apply(PlaceLocomotive(1, "prr"))


def test_the_six_brings_the_infinity_to_the_last_free_railway() -> None:
    game = game_at(3, ["loco-6", "b-and-o-exchange"], {0: ids("NYC 2", "B&O 1"), 1: ids("NYC 5", "B&O 2"), 2: ids("NYC 1", "B&O 3")}, 0)
    game.state.locomotives.update({"prr": "loco-3", "erie": "loco-4", "c-and-o": "loco-5"})
    for player, card in ((0, "NYC 2"), (1, "NYC 5"), (2, "NYC 1")):
        game.apply(Play(player, NAME_TO_ID[card]))
    game.apply(PlaceLocomotive(1, "nyc"))
    assert game.state.locomotives["b-and-o"] == "loco-all"
    assert game.state.pending[0].what == "lay"


def test_in_the_expert_game_the_winner_places_the_infinity(catalog: Catalog) -> None:
    game = Game(catalog, 3, seed=1, house_rules={"variant": "expert"})
    s = game.state
    s.lane = ["loco-6", "b-and-o-exchange"]
    s.hands[0], s.hands[1], s.hands[2] = ids("NYC 2", "B&O 1"), ids("NYC 5", "B&O 2"), ids("NYC 1", "B&O 3")
    s.trick = Trick(0)
    s.locomotives.update({"prr": "loco-3", "erie": "loco-4"})
    for player, card in ((0, "NYC 2"), (1, "NYC 5"), (2, "NYC 1")):
        game.apply(Play(player, NAME_TO_ID[card]))
    game.apply(PlaceLocomotive(1, "nyc"))
    assert s.pending[0].what == "locomotive" and s.pending[0].card == "loco-all"
    game.apply(PlaceLocomotive(1, "c-and-o"))
    assert s.locomotives["c-and-o"] == "loco-all" and "b-and-o" not in s.locomotives


def test_a_city_goes_to_either_end_of_any_railway() -> None:
    game = game_at(3, ["pittsburgh", "b-and-o-exchange"], {0: ids("NYC 2", "B&O 1"), 1: ids("NYC 5", "B&O 2"), 2: ids("PRR 1", "B&O 3")}, 0)
    for player, card in ((0, "NYC 2"), (1, "NYC 5"), (2, "PRR 1")):
        game.apply(Play(player, NAME_TO_ID[card]))
    game.apply(PlaceCity(1, "erie", "left"))
    assert game.state.railways["erie"][0] == "pittsburgh"
    for player in (1, 2, 0):
        game.apply(LayTrack(player, "right"))
    assert game.state.railways["prr"][-1] == "prr-1"


def test_a_card_that_does_not_follow_suit_is_refused_with_the_reason() -> None:
    game = game_at(3, ["b-and-o-exchange", "loco-3"], {0: ids("NYC 2", "B&O 1"), 1: ids("NYC 5", "B&O 2"), 2: ids("PRR 1", "B&O 3")}, 0)
    game.apply(Play(0, "nyc-2"))
    refused = game.check(Play(1, "b-and-o-2"))
    assert [r.code for r in refused] == ["must-follow-suit"]
    assert "NYC 5" in refused[0]
    # Player 2 holds no NYC: anything goes.
    game.apply(Play(1, "nyc-5"))
    assert game.check(Play(2, "b-and-o-3")) == []


def test_an_off_company_card_never_wins() -> None:
    game = game_at(3, ["b-and-o-exchange", "loco-3"], {0: ids("NYC 2", "B&O 1"), 1: ids("PRR 10", "B&O 2"), 2: ids("NYC 1", "B&O 3")}, 0)
    game.apply(Play(0, "nyc-2"))
    game.apply(Play(1, "prr-10"))
    game.apply(Play(2, "nyc-1"))
    assert game.state.last_trick is not None and game.state.last_trick.winner == 0


def test_input_naming_nothing_real_is_invalid(catalog: Catalog) -> None:
    game = Game(catalog, 3, seed=1)
    with pytest.raises(InvalidActionError):
        game.check(Play(0, "nyc-11"))
    with pytest.raises(InvalidActionError):
        game.check(Play(7, "nyc-1"))
    with pytest.raises(InvalidActionError):
        game.check(PlaceCity(0, "nyc", "middle"))


def test_a_players_view_shows_only_their_own_hand(catalog: Catalog) -> None:
    game = Game(catalog, 4, seed=5)
    for player in range(4):
        view = game.view(player)
        assert view["hands"][player] == game.state.hands[player]
        others = [view["hands"][p] for p in range(4) if p != player]
        assert others == [len(game.state.hands[p]) for p in range(4) if p != player]
        hidden = {card for p in range(4) if p != player for card in game.state.hands[p]}
        shown = repr({k: v for k, v in view.items() if k != "hands"})
        assert not any(f"'{card}'" in shown for card in hidden)
