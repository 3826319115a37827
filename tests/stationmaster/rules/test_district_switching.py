"""Switching moves inside a district: Spot and Pull, coupling, and the view
of where a train may go (Home Deck v0.8.6, "Track cards" on turnouts and
"What a train may pick up").

The district is the kit's branch yard: the east stub runs Office -> turnout
(1,0) -> curve (2,-1) -> (3,-1); the west stub Office -> turnout (-1,0) ->
curve (-2,-1) -> (-3,-1). Sidings are laid at the stub ends as needed.
"""

from __future__ import annotations

import pytest

from engine.stationmaster.rules.actions import Discard, Draw, EndTurn, Play, Pull, Spot
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.state import Car, Train
from engine.stationmaster.rules.switching import reachable, switch_view
from tests.kit.stationmaster import CATALOG, ONE_PLAYER_OFFICE, branch_yard, codes, empty, give, lay, loaded, new_game, office_slot, put_train

MOVES = CATALOG.game.table.switch_moves
NOT_REACHED = "unreachable"


def yard(players: int = 1) -> Game:
    game = new_game(CATALOG, players=players)
    for p in range(players):
        branch_yard(game, player=p)
        lay(game, 3, -1, "straight", player=p)
        lay(game, -3, -1, "straight", player=p)
    return game


def squares(game: Game, player: int = 0):  # type: ignore[no-untyped-def]
    return game.state.districts[player].squares


def freight_train(game: Game, cars: list[Car] | None = None, card: str = "train-3", **kw: object) -> Train:
    return put_train(game, card, loaded("boxcar", 2) if cars is None else cars, train_id="t", **kw)  # type: ignore[arg-type]


# -- whose train, and when -------------------------------------------------------------


def test_a_train_standing_at_your_office_may_spot_and_pull() -> None:
    game = yard()
    freight_train(game)
    squares(game)[key(3, -1)].cars = empty("boxcar", 1)
    assert game.check(Spot(0, train="t", x=3, y=0, cars=1)) == []
    assert game.check(Pull(0, train="t", x=3, y=-1)) == []


@pytest.mark.parametrize("position,remaining", [(ONE_PLAYER_OFFICE - 1, 1), (ONE_PLAYER_OFFICE + 1, 1), (0, 0), (ONE_PLAYER_OFFICE, 1)])
def test_a_train_not_standing_at_the_office_may_not_switch(position: int, remaining: int) -> None:
    """On terrain either side, at a Division Point, or still crossing onto the Office."""
    game = yard()
    freight_train(game, position=position, remaining=remaining)
    squares(game)[key(3, -1)].cars = empty("boxcar", 1)
    for action in (Spot(0, train="t", x=3, y=0, cars=1), Pull(0, train="t", x=3, y=-1)):
        assert "not-at-your-office" in codes(game.check(action)), action


def test_a_train_at_another_players_office_is_not_yours_to_switch() -> None:
    game = yard(players=2)
    freight_train(game, position=office_slot(game, 1))
    squares(game, 1)[key(3, -1)].cars = empty("boxcar", 1)
    assert "not-at-your-office" in codes(game.check(Spot(0, train="t", x=3, y=0, cars=1)))
    assert "not-at-your-office" in codes(game.check(Pull(0, train="t", x=3, y=-1)))
    # and on player 1's turn it is theirs
    game.apply(EndTurn(0))
    assert game.check(Spot(1, train="t", x=3, y=0, cars=1)) == []


@pytest.mark.parametrize("first", ["draw", "play"])
def test_switching_is_refused_after_a_draw_or_a_play(first: str) -> None:
    game = yard()
    freight_train(game)
    squares(game)[key(3, -1)].cars = empty("boxcar", 1)
    if first == "draw":
        game.apply(Draw(0, "deck"))
    else:
        give(game, "straight")
        game.apply(Play(0, "straight", x=4, y=0, rotation=0))
    assert "switch-option-closed" in codes(game.check(Spot(0, train="t", x=3, y=0, cars=1)))
    assert "switch-option-closed" in codes(game.check(Pull(0, train="t", x=3, y=-1)))


def test_after_switching_the_turn_may_not_draw_or_play() -> None:
    game = yard()
    freight_train(game)
    give(game, "straight")
    game.apply(Spot(0, train="t", x=3, y=0, cars=1))
    assert "switch-option-taken" in codes(game.check(Draw(0, "deck")))
    assert "switch-option-taken" in codes(game.check(Play(0, "straight", x=4, y=0, rotation=0)))


def test_the_switch_option_allows_the_contents_number_of_moves() -> None:
    game = yard()
    train = freight_train(game, loaded("boxcar", MOVES + 1))
    for i in range(MOVES):
        action = Spot(0, train="t", x=3, y=0, cars=1) if i % 2 == 0 else Spot(0, train="t", x=3, y=-1, cars=1)
        game.apply(action)
    assert len(train.cars) == 1
    reasons = game.check(Spot(0, train="t", x=-3, y=-1, cars=1))
    assert "switch-moves-used" in codes(reasons), reasons
    assert "switch-moves-used" in codes(game.check(Pull(0, train="t", x=3, y=0)))
    # the count starts again next turn (held, the train is still there)
    train.held = 1
    game.apply(EndTurn(0))
    assert game.check(Pull(0, train="t", x=3, y=0)) == []


# -- turnouts and standing cars --------------------------------------------------------


def test_a_turnout_is_run_through_but_never_stopped_on() -> None:
    game = yard()
    freight_train(game)
    found = reachable(game, game.state.districts[0])
    assert key(1, 0) not in found and key(-1, 0) not in found
    assert {key(2, -1), key(3, -1), key(-2, -1), key(-3, -1), key(2, 0), key(-2, 0)} <= found
    for x in (1, -1):
        assert NOT_REACHED in codes(game.check(Spot(0, train="t", x=x, y=0, cars=1)))
        assert NOT_REACHED in codes(game.check(Pull(0, train="t", x=x, y=0)))
    assert game.check(Spot(0, train="t", x=3, y=-1, cars=1)) == []


def test_a_square_behind_standing_cars_is_not_reachable() -> None:
    game = yard()
    freight_train(game)
    squares(game)[key(2, -1)].cars = empty("boxcar", 1)
    found = reachable(game, game.state.districts[0])
    assert key(2, -1) in found and key(3, -1) not in found
    assert NOT_REACHED in codes(game.check(Spot(0, train="t", x=3, y=-1, cars=1)))
    assert game.check(Spot(0, train="t", x=2, y=-1, cars=1)) == []  # onto the cars themselves: fine


def test_the_running_track_behind_standing_cars_is_cut_off_too() -> None:
    game = yard()
    freight_train(game)
    squares(game)[key(2, 0)].cars = empty("hopper", 1)
    found = reachable(game, game.state.districts[0])
    assert key(2, 0) in found and key(3, 0) not in found
    assert key(3, -1) in found  # the stub leaves before the cars


def test_a_caboose_standing_in_the_way_blocks_like_a_car() -> None:
    game = yard()
    freight_train(game)
    squares(game)[key(2, -1)].caboose_of = "someone-else"
    assert key(3, -1) not in reachable(game, game.state.districts[0])


def test_rail_that_does_not_join_is_not_reachable() -> None:
    game = yard()
    freight_train(game)
    lay(game, 0, -3, "straight")  # an island
    assert key(0, -3) not in reachable(game, game.state.districts[0])
    assert NOT_REACHED in codes(game.check(Spot(0, train="t", x=0, y=-3, cars=1)))
    assert "no-rail" in codes(game.check(Spot(0, train="t", x=0, y=-4, cars=1)))


# -- Spot and Pull ------------------------------------------------------------------------


def test_spot_sets_out_the_rearmost_cars() -> None:
    game = yard()
    cars = [Car("boxcar", True), Car("reefer", False), Car("hopper", True)]
    train = freight_train(game, list(cars))
    game.apply(Spot(0, train="t", x=3, y=-1, cars=2))
    assert train.cars == cars[:1]
    assert squares(game)[key(3, -1)].cars == cars[1:]


def test_pull_couples_everything_standing_there() -> None:
    game = yard()
    train = freight_train(game, [])
    standing = [Car("boxcar", True), Car("reefer", False), Car("hopper", True)]
    squares(game)[key(3, -1)].cars = list(standing)
    game.apply(Pull(0, train="t", x=3, y=-1))
    assert train.cars == standing
    assert squares(game)[key(3, -1)].cars == []


def test_a_pull_that_would_overfill_the_train_is_refused_whole() -> None:
    """Coupling is mandatory: there is no taking two of four cars."""
    game = yard()
    train = freight_train(game, [])
    squares(game)[key(3, -1)].cars = empty("boxcar", 4)
    reasons = game.check(Pull(0, train="t", x=3, y=-1))
    assert {"train-too-long", "crew-tray-full"} <= set(codes(reasons)), reasons
    assert train.cars == []


def test_pull_from_an_empty_square_is_refused() -> None:
    game = yard()
    freight_train(game, [])
    assert codes(game.check(Pull(0, train="t", x=3, y=-1))) == ["nothing-to-couple"]


@pytest.mark.parametrize(
    "card,cars,rule",
    [
        ("train-5", [Car("hopper", True)], "empties-only"),
        ("train-4", [Car("boxcar", False)], "reefers-only"),
        ("train-6", [Car("boxcar", False)], "drop-only"),
        ("train-6", [Car("reefer", True)], "drop-only"),
        ("train-8", [Car("hopper", True)], "pick-up-empties-only"),
        ("train-10", [Car("boxcar", False)], "may-not-switch"),
        ("extra-18", [Car("flatcar", True)], "may-not-switch"),
    ],
)
def test_pulling_forbidden_cars_is_refused_naming_the_rule(card: str, cars: list[Car], rule: str) -> None:
    game = yard()
    train = freight_train(game, [], card=card)
    squares(game)[key(3, -1)].cars = list(cars)
    reasons = game.check(Pull(0, train="t", x=3, y=-1))
    assert rule in codes(reasons), reasons
    assert train.cars == [] and squares(game)[key(3, -1)].cars == cars


@pytest.mark.parametrize(
    "card,cars",
    [
        ("train-5", [Car("hopper", False)]),
        ("train-4", [Car("reefer", True)]),
        ("train-8", [Car("hopper", False), Car("boxcar", False)]),
        ("train-3", [Car("hopper", True), Car("boxcar", False)]),
    ],
)
def test_pulling_cars_the_card_allows_is_accepted(card: str, cars: list[Car]) -> None:
    game = yard()
    freight_train(game, [], card=card)
    squares(game)[key(3, -1)].cars = list(cars)
    assert game.check(Pull(0, train="t", x=3, y=-1)) == []


def test_one_forbidden_car_in_a_cut_refuses_the_whole_pull() -> None:
    game = yard()
    freight_train(game, [], card="train-8")  # pick up empties only
    squares(game)[key(3, -1)].cars = [Car("hopper", False), Car("boxcar", True)]
    assert "pick-up-empties-only" in codes(game.check(Pull(0, train="t", x=3, y=-1)))


@pytest.mark.parametrize("card", ["train-10", "extra-17", "extra-18"])
def test_a_train_that_may_not_switch_cannot_spot_at_all(card: str) -> None:
    game = yard()
    cars = [Car("coach", True)] if card == "extra-17" else loaded("flatcar", 2)
    freight_train(game, cars, card=card)
    reasons = game.check(Spot(0, train="t", x=3, y=0, cars=1))
    assert "may-not-switch" in codes(reasons), reasons


def test_a_drop_only_train_may_still_spot() -> None:
    game = yard()
    freight_train(game, loaded("boxcar", 2), card="train-6")
    assert game.check(Spot(0, train="t", x=3, y=-1, cars=2)) == []


# -- a train's own caboose ----------------------------------------------------------------


@pytest.mark.parametrize("card", ["train-6", "train-8", "train-5", "train-3"])
def test_a_train_may_always_recover_its_own_caboose(card: str) -> None:
    game = yard()
    train = freight_train(game, [], card=card, caboose=False)
    squares(game)[key(3, -1)].caboose_of = "t"
    assert game.check(Pull(0, train="t", x=3, y=-1)) == []
    game.apply(Pull(0, train="t", x=3, y=-1))
    assert train.caboose is True
    assert squares(game)[key(3, -1)].caboose_of is None


def test_another_trains_caboose_is_not_yours_to_take() -> None:
    game = yard()
    freight_train(game, [], caboose=False)
    square = squares(game)[key(3, -1)]
    square.caboose_of = "other"
    assert codes(game.check(Pull(0, train="t", x=3, y=-1))) == ["nothing-to-couple"]  # nothing of this train's stands there
    square.cars = empty("boxcar", 1)
    assert "another-caboose" in codes(game.check(Pull(0, train="t", x=3, y=-1)))


def test_no_car_is_spotted_onto_a_caboose() -> None:
    game = yard()
    freight_train(game)
    squares(game)[key(3, -1)].caboose_of = "other"
    assert "caboose-in-the-way" in codes(game.check(Spot(0, train="t", x=3, y=-1, cars=1)))


# -- the switch view ----------------------------------------------------------------------


def test_switch_view_lists_reachable_squares_and_marks_the_forbidden_with_the_rule() -> None:
    """An empty reefers-only train: it has nothing to set out, so a square of
    boxcars is one it can do nothing at, and the view says which rule forbids it."""
    game = yard()
    train = freight_train(game, [], card="train-4")  # reefers only
    squares(game)[key(3, -1)].cars = [Car("boxcar", False)]
    squares(game)[key(-3, -1)].cars = [Car("reefer", True)]
    view = switch_view(game, train)
    assert set(view) == reachable(game, game.state.districts[0])
    assert key(1, 0) not in view and key(-1, 0) not in view  # turnouts: not stopping places
    assert "'reefers only'" in (view[key(3, -1)] or "")
    assert view[key(-3, -1)] is None  # reefers it may couple


def test_switch_view_leaves_open_rail_unmarked_for_a_train_with_cars_to_set_out() -> None:
    game = yard()
    train = freight_train(game, [Car("reefer", True)], card="train-4")
    view = switch_view(game, train)
    for square_key in (key(2, 0), key(2, -1), key(3, -1), key(-3, -1)):
        assert view[square_key] is None, square_key


def test_switch_view_marks_everything_for_a_train_that_may_not_switch() -> None:
    game = yard()
    train = freight_train(game, loaded("flatcar", 3), card="extra-18")
    view = switch_view(game, train)
    assert view and all(reason is not None and "'may not switch'" in reason for reason in view.values())


def test_switch_view_does_not_list_squares_behind_standing_cars() -> None:
    game = yard()
    train = freight_train(game, [])
    squares(game)[key(2, -1)].cars = empty("boxcar", 1)
    view = switch_view(game, train)
    assert key(2, -1) in view and view[key(2, -1)] is None
    assert key(3, -1) not in view


def test_switch_view_of_a_train_away_from_any_office_is_empty() -> None:
    game = yard()
    train = freight_train(game, position=ONE_PLAYER_OFFICE - 1, remaining=1)
    assert switch_view(game, train) == {}


def test_switch_view_shows_an_own_caboose_as_open_to_a_drop_only_train() -> None:
    game = yard()
    train = freight_train(game, [], card="train-6", caboose=False)
    squares(game)[key(3, -1)].caboose_of = "t"
    squares(game)[key(-3, -1)].cars = empty("boxcar", 1)
    view = switch_view(game, train)
    assert view[key(3, -1)] is None
    assert "'drop only'" in (view[key(-3, -1)] or "")


def test_the_offered_switch_moves_are_all_legal() -> None:
    game = yard()
    freight_train(game, loaded("boxcar", 2))
    squares(game)[key(3, -1)].cars = empty("boxcar", 1)
    offered = [a for a in game.legal_actions() if isinstance(a, (Spot, Pull))]
    assert offered
    spots = {(a.x, a.y) for a in offered if isinstance(a, Spot)}
    assert spots == {tuple(int(v) for v in k.split(",")) for k in reachable(game, game.state.districts[0])}
    assert not any(isinstance(a, Discard) for a in offered)


def test_a_train_can_set_its_caboose_down() -> None:
    from engine.stationmaster.rules.actions import from_json

    game = yard()
    train = freight_train(game, [], card="train-6")
    action = from_json({"kind": "spot", "player": 0, "train": "t", "x": 3, "y": -1, "cars": 0, "caboose": True})
    game.apply(action)
    assert train.caboose is False and squares(game)[key(3, -1)].caboose_of == "t"


# -- every Spot the rules allow is offered ----------------------------------------------------


def test_legal_actions_offer_every_count_of_cars_and_the_caboose() -> None:
    """Spot sets out the rear N cars (1 to all), or the caboose on its own:
    each of those is listed, and each is legal."""
    from command.stationmaster.textview import describe_action

    game = yard()
    freight_train(game, loaded("boxcar", 3), caboose=True)
    offered = {(a.cars, a.caboose) for a in game.legal_actions() if isinstance(a, Spot) and (a.x, a.y) == (3, -1)}
    assert offered == {(1, False), (2, False), (3, False), (0, True)}
    for cars, caboose in offered:
        assert game.check(Spot(0, train="t", x=3, y=-1, cars=cars, caboose=caboose)) == []
    assert describe_action(game, Spot(0, train="t", x=3, y=-1, cars=2)).endswith("sets out its rear 2 cars at (3, -1)")
    assert describe_action(game, Spot(0, train="t", x=3, y=-1, cars=0, caboose=True)).endswith("sets out its caboose at (3, -1)")
    game.apply(Spot(0, train="t", x=3, y=-1, cars=2))
    train = next(t for t in game.state.trains if t.id == "t")
    assert len(train.cars) == 1 and len(squares(game)[key(3, -1)].cars) == 2


def test_a_train_without_cars_or_caboose_is_offered_no_spot() -> None:
    game = yard()
    freight_train(game, [], caboose=False)
    assert not [a for a in game.legal_actions() if isinstance(a, Spot)]


def test_a_train_waits_at_the_office_until_it_takes_its_caboose_back() -> None:
    """The caboose at the far end is what makes a train ready to leave."""
    game = yard()
    train = freight_train(game, loaded("boxcar", 1), caboose=True)
    cabooses = game.state.cabooses_free
    game.apply(Spot(0, train="t", x=3, y=-1, cars=0, caboose=True))
    assert squares(game)[key(3, -1)].caboose_of == "t" and not train.caboose
    for _ in range(2):  # Mainline Phase after Mainline Phase, it stays
        game.apply(EndTurn(0))
        assert game.state.phase == "local" and train in game.state.trains
        assert (train.position, train.remaining) == (ONE_PLAYER_OFFICE, 0)
        assert any("waits at the Office for its caboose" in line for line in game.state.log[-6:]), game.state.log[-6:]
    game.apply(Pull(0, train="t", x=3, y=-1))
    assert train.caboose and squares(game)[key(3, -1)].caboose_of is None
    game.apply(EndTurn(0))
    assert train not in game.state.trains or train.position != ONE_PLAYER_OFFICE
    assert game.state.cabooses_free + sum(t.caboose for t in game.state.trains) == cabooses + 1


def test_a_train_wrecked_while_it_waits_returns_its_caboose_to_the_box() -> None:
    from engine.stationmaster.rules.mainline_phase import wreck

    game = yard()
    train = freight_train(game, [], caboose=True)
    game.apply(Spot(0, train="t", x=3, y=-1, cars=0, caboose=True))
    free = game.state.cabooses_free
    wreck(game, [train], "the Office")
    assert squares(game)[key(3, -1)].caboose_of is None
    assert game.state.cabooses_free == free + 1


def test_a_caboose_is_set_out_alone_on_an_empty_track() -> None:
    """So it can always be taken back: a drop-only train could not take back
    a caboose standing with cars, nor one behind cars."""
    game = yard()
    freight_train(game, loaded("boxcar", 2), card="train-6", caboose=True)
    assert "caboose-alone" in codes(game.check(Spot(0, train="t", x=3, y=-1, cars=1, caboose=True)))
    squares(game)[key(3, -1)].cars = empty("boxcar", 1)
    assert "caboose-on-empty-track" in codes(game.check(Spot(0, train="t", x=3, y=-1, cars=0, caboose=True)))


def test_a_train_whose_caboose_stands_out_sets_out_nothing_more_until_it_takes_it_back() -> None:
    """Else it could bury its own caboose behind cars it may not pick up."""
    game = yard()
    train = freight_train(game, loaded("boxcar", 2), card="train-6", caboose=True)
    game.apply(Spot(0, train="t", x=3, y=-1, cars=0, caboose=True))
    assert "caboose-set-out" in codes(game.check(Spot(0, train="t", x=3, y=0, cars=1)))
    game.apply(Pull(0, train="t", x=3, y=-1))  # a drop-only train still takes back its own caboose
    assert train.caboose and game.check(Spot(0, train="t", x=3, y=0, cars=1)) == []
