"""The Mainline: setup from the terrain inventory, crossing times, the Heavy
Grade and its cards, Realignment, ABS Signals, passing cards and the
Interchange's sort cars. Trains are placed in ``game.state`` directly and
moved by ending Stages (each runs one Mainline Phase)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import IllegalActionError
from engine.stationmaster.content.model import Catalog, MainlineCard, MainlineModifier
from engine.stationmaster.rules.actions import ChooseGrade, Draw, EndTurn, Play, SortCars
from engine.stationmaster.rules.deck import mainline_inventory
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.mainline import crossing_stages
from engine.stationmaster.rules.state import Car, Train
from tests.kit.stationmaster import CATALOG, codes, dealt, end_stage, new_game, set_hand, set_hand_and_draw, take

TERRAIN = [c for c in CATALOG.of_type(MainlineCard) if c.role == "terrain"]
REALIGN = dict(CATALOG.by_id["realignment"].realign)  # type: ignore[attr-defined]


def land(card_id: str) -> MainlineCard:
    card = CATALOG.by_id[card_id]
    assert isinstance(card, MainlineCard)
    return card


def modifier(card_id: str) -> MainlineModifier:
    card = CATALOG.by_id[card_id]
    assert isinstance(card, MainlineModifier)
    return card


def put_train(game: Game, train_id: str, card: str, position: int, heading: str, cars: list[Car] | None = None) -> Train:
    s = game.state
    s.serial += 1
    t = Train(train_id, card, None, heading, position, list(cars or []), False, sequence=s.serial)  # type: ignore[arg-type]
    s.trains.append(t)
    s.crew_trays_free -= 1
    return t


def wrecked(game: Game) -> bool:
    return any("collision" in line for line in game.state.log)


# -- setup ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_n_plus_one_terrain_cards_between_division_points(catalog: Catalog, players: int) -> None:
    for seed in range(10):
        s = Game(catalog, players=players, seed=seed).state
        kinds = [slot.kind for slot in s.mainline]
        assert kinds == ["divisionPoint"] + ["terrain", "office"] * players + ["terrain", "divisionPoint"]
        assert kinds.count("terrain") == players + 1
        assert [slot.player for slot in s.mainline if slot.kind == "office"] == list(range(players))


def test_division_points_are_card_records_at_both_ends(catalog: Catalog) -> None:
    s = Game(catalog, players=2, seed=3).state
    west, east = s.mainline[0], s.mainline[-1]
    assert (west.kind, west.card) == ("divisionPoint", "west-division-point")
    assert (east.kind, east.card) == ("divisionPoint", "east-division-point")
    for slot, end in ((west, "west"), (east, "east")):
        card = land(slot.card)
        assert card.role == "divisionPoint" and card.end == end and card.yard
    assert west.yard and east.yard, "the cars start in the Division Point yards"


def test_terrain_is_dealt_from_the_inventory(catalog: Catalog) -> None:
    inventory = Counter(c.id for c in mainline_inventory(catalog))
    assert inventory["plains"] == 2 and sum(inventory.values()) == 10
    seen: Counter[str] = Counter()
    both_plains = 0
    for seed in range(300):
        s = Game(catalog, players=4, seed=seed).state
        drawn = Counter(slot.printed or slot.card for slot in s.mainline if slot.kind == "terrain")
        for card_id, n in drawn.items():
            assert n <= inventory[card_id], f"seed {seed}: {card_id} x{n}"
        both_plains += drawn["plains"] == 2
        seen.update(drawn)
    assert both_plains > 0, "the second Plains card is real: both must sometimes be dealt together"
    assert set(seen) == set(inventory), "every terrain card turns up"
    # one Plains entry per physical copy: about 2/10 of all draws, not the 1/9 of a uniform pick over types
    assert seen["plains"] / sum(seen.values()) > 0.16


def test_the_mainline_is_seeded(catalog: Catalog) -> None:
    a = [s.card for s in Game(catalog, players=4, seed=99).state.mainline]
    b = [s.card for s in Game(catalog, players=4, seed=99).state.mainline]
    assert a == b
    assert len({tuple(s.card for s in Game(catalog, players=4, seed=n).state.mainline) for n in range(20)}) > 10


# -- crossing times -------------------------------------------------------------------

FAST_SLOW = {
    "plains": (1, 2),
    "curves": (2, 3),
    "heavy-grade": (2, 3),
    "double-track": (1, 2),
    "uncontrolled-siding": (1, 2),
    "tunnel": (2, 3),
    "trestle": (1, 2),
    "interchange": (1, 2),
}


@pytest.mark.parametrize(("card_id", "times"), FAST_SLOW.items())
@pytest.mark.parametrize("coach", [True, False])
def test_crossing_times_60_mph_one_stage_30_mph_two_slow_plus_one(card_id: str, times: tuple[int, int], coach: bool) -> None:
    assert crossing_stages(land(card_id), carries_coach=coach, slow=False) == times[0]
    assert crossing_stages(land(card_id), carries_coach=coach, slow=True) == times[1]


def test_hilly_uses_the_passenger_rate_with_a_coach() -> None:
    hilly = land("hilly")
    assert crossing_stages(hilly, carries_coach=True, slow=False) == 1
    assert crossing_stages(hilly, carries_coach=True, slow=True) == 2
    assert crossing_stages(hilly, carries_coach=False, slow=False) == 2
    assert crossing_stages(hilly, carries_coach=False, slow=True) == 3


def test_every_terrain_card_has_a_crossing_time() -> None:
    assert {c.id for c in TERRAIN} == set(FAST_SLOW) | {"hilly"}


def test_division_points_are_not_timed() -> None:
    with pytest.raises(ValueError):
        crossing_stages(land("west-division-point"), carries_coach=False, slow=False)


@pytest.mark.parametrize(
    ("cards", "direction", "slow", "expected"),
    [
        ((), "uphill", False, 2),
        ((), "downhill", False, 2),
        (("brakeman",), "downhill", False, 1),
        (("brakeman",), "uphill", False, 2),
        (("brakeman",), "downhill", True, 2),
        (("helpers",), "uphill", False, 1),
        (("helpers",), "downhill", False, 2),
        (("helpers",), "uphill", True, 2),
        (("brakeman", "airbrakes"), "downhill", True, 1),
        (("brakeman", "airbrakes"), "downhill", False, 1),  # never under one Stage
        (("brakeman", "airbrakes", "helpers"), "uphill", False, 1),
        (("brakeman", "airbrakes", "helpers"), "downhill", False, 1),
        (("brakeman", "helpers"), None, True, 3),  # no direction chosen: no cut
    ],
)
def test_grade_cards_cut_the_matching_direction(cards: tuple[str, ...], direction: str | None, slow: bool, expected: int) -> None:
    mods = [modifier(c) for c in cards]
    got = crossing_stages(land("heavy-grade"), carries_coach=False, slow=slow, direction=direction, modifiers=mods)  # type: ignore[arg-type]
    assert got == expected


def test_crossing_is_never_under_one_stage() -> None:
    mods = [modifier(c) for c in ("brakeman", "airbrakes", "helpers")]
    for card in TERRAIN:
        for coach in (True, False):
            for slow in (True, False):
                for direction in ("uphill", "downhill", None):
                    assert crossing_stages(card, carries_coach=coach, slow=slow, direction=direction, modifiers=mods) >= 1


# -- the Heavy Grade at setup --------------------------------------------------------------


def graded_seed(players: int) -> int:
    return next(s for s in range(200) if any(slot.card == "heavy-grade" for slot in Game(CATALOG, players=players, seed=s).state.mainline))


@pytest.mark.parametrize("players", [1, 2, 4])
def test_setup_waits_for_the_heavy_grade_direction(catalog: Catalog, players: int) -> None:
    game = Game(catalog, players=players, seed=graded_seed(players))
    s = game.state
    slot = next(i for i, x in enumerate(s.mainline) if x.card == "heavy-grade")
    assert s.phase == "setup" and s.pending_grades == [slot]
    assert s.mainline[slot].uphill is None
    assert game.legal_actions() == [ChooseGrade(0, slot=slot, uphill="east"), ChooseGrade(0, slot=slot, uphill="west")]
    for action in (EndTurn(0), Play(0, s.hands[0][0])):
        assert "setup-unfinished" in codes(game.check(action))
    if players > 1:
        assert "not-the-placing-player" in codes(game.check(ChooseGrade(1, slot=slot, uphill="east")))
    other = next(i for i, x in enumerate(s.mainline) if x.kind == "terrain" and i != slot)
    assert "no-grade-waiting" in codes(game.check(ChooseGrade(0, slot=other, uphill="east")))
    game.apply(ChooseGrade(0, slot=slot, uphill="west"))
    assert s.phase == "local" and s.mainline[slot].uphill == "west" and s.pending_grades == []  # type: ignore[comparison-overlap]  # apply() moved the phase on; mypy still holds the earlier assert
    assert any(isinstance(a, EndTurn) for a in game.legal_actions())
    assert "grades-chosen" in codes(game.check(ChooseGrade(0, slot=slot, uphill="east")))


def test_without_a_heavy_grade_there_is_no_setup_step(catalog: Catalog) -> None:
    for seed in range(30):
        game = Game(catalog, players=1, seed=seed)
        graded = any(slot.card == "heavy-grade" for slot in game.state.mainline)
        assert (game.state.phase == "setup") == graded


# -- grade cards through the API --------------------------------------------------------------


def grade_game(uphill: str = "east") -> Game:
    """One player: 0 WDP, 1 Heavy Grade (uphill eastward), 2 Office, 3 Plains, 4 EDP."""
    game = new_game(seed=40)
    game.state.mainline[1].card = "heavy-grade"
    game.state.mainline[1].uphill = uphill  # type: ignore[assignment]
    return game


def play_next_turn(game: Game, card: str, slot: int) -> None:
    set_hand_and_draw(game, card, "straight", "straight")
    game.apply(Play(0, card, slot=slot))
    end_stage(game)


def test_grade_cards_only_go_on_a_heavy_grade() -> None:
    game = grade_game()
    game.apply(Draw(0, "deck"))
    for card in ("brakeman", "helpers"):
        set_hand(game, card, "straight", "straight")
        assert game.check(Play(0, card, slot=1)) == []
        reasons = game.check(Play(0, card, slot=3))
        assert "wrong-terrain" in codes(reasons), reasons
        assert codes(game.check(Play(0, card, slot=2))) == ["needs-terrain-slot"], "an Office is not a terrain card"


def test_airbrakes_are_refused_without_a_brakeman() -> None:
    game = grade_game()
    set_hand(game, "airbrakes", "straight", "straight")
    reasons = game.check(Play(0, "airbrakes", slot=1))
    assert "needs-earlier-card" in codes(reasons), reasons
    play_next_turn(game, "brakeman", 1)
    set_hand_and_draw(game, "airbrakes", "straight", "straight")
    assert game.check(Play(0, "airbrakes", slot=1)) == []
    game.apply(Play(0, "airbrakes", slot=1))
    assert game.state.mainline[1].modifiers == ["brakeman", "airbrakes"]
    assert game.census() == dealt(game)


# -- the Draw option ------------------------------------------------------------------------
# Mainline deck v0.4.5: the grade cards and Realignment "are played onto a
# Mainline card during a player's Draw option". The content says so on each
# card (playOption: draw); the engine reads the field, never a card id.

DRAW_OPTION_CARDS = [("brakeman", "heavy-grade"), ("helpers", "heavy-grade"), ("realignment", "plains")]


@pytest.mark.parametrize(("card", "terrain"), DRAW_OPTION_CARDS)
def test_a_draw_option_card_is_refused_without_drawing_first(card: str, terrain: str) -> None:
    game = grade_game()
    game.state.mainline[1].card = terrain
    set_hand(game, card, "straight", "straight")
    assert codes(game.check(Play(0, card, slot=1))) == ["draw-option-only"]
    before = game.state_json()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Play(0, card, slot=1))
    assert codes(refused.value.reasons) == ["draw-option-only"]
    assert game.state_json() == before


@pytest.mark.parametrize(("card", "terrain"), DRAW_OPTION_CARDS)
def test_a_draw_option_card_is_played_after_the_draw(card: str, terrain: str) -> None:
    game = grade_game()
    game.state.mainline[1].card = terrain
    set_hand_and_draw(game, card, "straight", "straight")
    assert game.check(Play(0, card, slot=1)) == []
    game.apply(Play(0, card, slot=1))
    assert card in game.state.mainline[1].modifiers
    assert game.census() == dealt(game)


def test_airbrakes_too_wait_for_the_draw() -> None:
    game = grade_game()
    take(game, "brakeman")
    game.state.mainline[1].modifiers.append("brakeman")
    set_hand(game, "airbrakes", "straight", "straight")
    assert codes(game.check(Play(0, "airbrakes", slot=1))) == ["draw-option-only"]


def test_the_draw_option_card_is_refused_once_the_turn_has_switched() -> None:
    game = grade_game()
    set_hand(game, "helpers", "straight", "straight")
    game.state.turn.switched = True  # the Switch option was taken
    assert {"draw-option-only", "switch-option-taken"} <= set(codes(game.check(Play(0, "helpers", slot=1))))


def test_other_cards_are_still_played_without_drawing() -> None:
    """The Play option stays open to cards that do not name the Draw option:
    ABS Signals go onto a Mainline card just as the grade cards do."""
    game = grade_game()
    set_hand(game, "abs-signals", "straight", "straight")
    assert game.check(Play(0, "abs-signals", slot=1)) == []


def test_the_rule_is_read_from_the_card_not_its_id() -> None:
    """Drop the content's playOption and Helpers may be played without a Draw;
    give it to ABS Signals and they may not."""
    import dataclasses

    cards = tuple(dataclasses.replace(c, play_option=None) if c.id == "helpers" else dataclasses.replace(c, play_option="draw") if c.id == "abs-signals" else c for c in CATALOG.cards)
    catalog = dataclasses.replace(CATALOG, cards=cards, by_id={c.id: c for c in cards})
    game = new_game(seed=40, catalog=catalog)
    game.state.mainline[1].card, game.state.mainline[1].uphill = "heavy-grade", "east"
    set_hand(game, "helpers", "abs-signals", "straight")
    assert game.check(Play(0, "helpers", slot=1)) == []
    assert codes(game.check(Play(0, "abs-signals", slot=1))) == ["draw-option-only"]


def test_every_grade_card_and_realignment_names_the_draw_option(catalog: Catalog) -> None:
    for card in catalog.of_type(MainlineModifier):
        assert card.play_option == "draw", card.id


def _phases_to_cross(game: Game, heading: str, card: str = "train-1") -> int:
    start = 0 if heading == "east" else 2
    t = put_train(game, "probe", card, start, heading)
    phases = 0
    while t in game.state.trains and t.position in (start, 1):
        end_stage(game)
        phases += 1
    return phases


@pytest.mark.parametrize(
    ("cards", "heading", "expected"),
    [
        ((), "east", 2),
        ((), "west", 2),
        (("helpers",), "east", 1),  # uphill
        (("helpers",), "west", 2),
        (("brakeman",), "west", 1),  # downhill
        (("brakeman",), "east", 2),
    ],
)
def test_a_train_crossing_the_heavy_grade_gets_the_matching_cut(cards: tuple[str, ...], heading: str, expected: int) -> None:
    game = grade_game(uphill="east")
    for card in cards:
        play_next_turn(game, card, 1)
    assert _phases_to_cross(game, heading) == expected


# -- Realignment ---------------------------------------------------------------------------


def test_realignment_maps_exactly_four_terrains() -> None:
    assert REALIGN == {"plains": "double-track", "curves": "plains", "uncontrolled-siding": "double-track", "trestle": "uncontrolled-siding"}


@pytest.mark.parametrize("terrain", [c.id for c in TERRAIN])
def test_realignment_only_on_a_mapped_terrain_and_it_changes_the_card(terrain: str) -> None:
    game = new_game(seed=41)
    game.state.mainline[1].card = terrain
    set_hand_and_draw(game, "realignment", "straight", "straight")
    reasons = game.check(Play(0, "realignment", slot=1))
    if terrain not in REALIGN:
        assert "wrong-terrain" in codes(reasons), reasons
        return
    assert reasons == []
    game.apply(Play(0, "realignment", slot=1))
    slot = game.state.mainline[1]
    assert slot.card == REALIGN[terrain]
    assert slot.printed == terrain
    assert "realignment" in slot.modifiers
    assert game.census() == dealt(game)


def test_realignment_is_refused_on_an_occupied_card() -> None:
    game = new_game(seed=42)
    set_hand_and_draw(game, "realignment", "straight", "straight")
    put_train(game, "t", "train-3", 1, "east").remaining = 1
    reasons = game.check(Play(0, "realignment", slot=1))
    assert "occupied" in codes(reasons), reasons
    assert game.check(Play(0, "realignment", slot=3)) == []


def test_realignment_changes_how_the_card_is_crossed() -> None:
    game = new_game(seed=43, terrain="curves")
    assert _phases_to_cross(game, "east") == 2
    game = new_game(seed=43, terrain="curves")
    play_next_turn(game, "realignment", 1)  # Curves become Plains
    assert game.state.mainline[1].card == "plains"
    assert _phases_to_cross(game, "east") == 1


def test_realignment_is_refused_off_the_terrain() -> None:
    game = new_game(seed=44)
    set_hand_and_draw(game, "realignment", "straight", "straight")
    for slot in (None, 0, 2, 4):
        assert codes(game.check(Play(0, "realignment", slot=slot))) == ["needs-terrain-slot"], slot


# -- ABS Signals and rear-end collisions ------------------------------------------------------


def chase(terrain: str, abs_on: int | None = None) -> tuple[Game, Train, Train]:
    """A Slow leader and a Fast follower leave the West Division Point the same
    Stage onto ``terrain``: the follower would finish the card first."""
    game = new_game(seed=45, terrain=terrain)
    if abs_on is not None:
        set_hand(game, "abs-signals", "straight", "straight")
        game.apply(Play(0, "abs-signals", slot=abs_on))
        assert game.state.mainline[abs_on].abs_signals
    leader = put_train(game, "leader", "train-3", 0, "east")  # slow
    follower = put_train(game, "follower", "train-1", 0, "east")  # fast
    return game, leader, follower


@pytest.mark.parametrize("terrain", ["curves", "plains", "tunnel"])
def test_a_faster_follower_rear_ends_the_leader_without_abs(terrain: str) -> None:
    game, leader, follower = chase(terrain)
    trays = game.state.crew_trays_free
    end_stage(game)
    assert wrecked(game)
    assert leader not in game.state.trains and follower not in game.state.trains
    assert game.state.crew_trays_free == trays + 2


def test_a_wrecked_extra_goes_to_the_salvage_yard() -> None:
    game = new_game(seed=45, terrain="curves")
    s = game.state
    for pile in [s.deck, *s.departments, *s.hands]:
        if "extra-5" in pile:
            pile.remove("extra-5")
            break
    put_train(game, "leader", "train-3", 0, "east")
    follower = put_train(game, "extra-5", "extra-5", 0, "east")
    follower.player = 0
    assert game.census() == dealt(game)
    end_stage(game)
    assert wrecked(game)
    assert s.salvage.count("extra-5") == 1
    assert game.census() == dealt(game)


@pytest.mark.parametrize("terrain", ["curves", "plains", "tunnel"])
def test_abs_signals_prevent_the_rear_end_collision(terrain: str) -> None:
    game, leader, follower = chase(terrain, abs_on=1)
    # run until the follower is past the guarded card (position 1); both
    # trains then stand at the Office, and what happens on the next,
    # unguarded card is not the ABS card's business
    for _ in range(6):
        end_stage(game)
        assert not wrecked(game)
        assert follower in game.state.trains and leader in game.state.trains
        if follower.position == 2 and follower.remaining == 0:
            break
    else:
        raise AssertionError("the follower never got across")
    assert any("waits at the ABS signal" in line for line in game.state.log)
    assert game.census() == dealt(game)


def test_abs_signals_on_another_card_do_not_protect_this_one() -> None:
    game, _, _ = chase("curves", abs_on=3)
    end_stage(game)
    assert wrecked(game)


@pytest.mark.parametrize("terrain", [c.id for c in TERRAIN])
def test_abs_signals_go_on_any_terrain_card_once(terrain: str) -> None:
    game = new_game(seed=46, terrain=terrain)
    set_hand(game, "abs-signals", "abs-signals", "straight")
    assert game.check(Play(0, "abs-signals", slot=1)) == []
    for slot in (0, 2, 4):
        assert codes(game.check(Play(0, "abs-signals", slot=slot))) == ["needs-terrain-slot"], "Offices and Division Points are not Mainline terrain"
    game.apply(Play(0, "abs-signals", slot=1))
    end_stage(game)
    assert "already-on-card" in codes(game.check(Play(0, "abs-signals", slot=1)))


@pytest.mark.parametrize("terrain", ["double-track", "uncontrolled-siding"])
def test_passing_cards_let_a_faster_train_overtake(terrain: str) -> None:
    game, leader, follower = chase(terrain)
    end_stage(game)
    assert not wrecked(game)
    assert follower.position > leader.position, "the follower got by"


def test_a_single_track_card_makes_an_opposing_train_wait() -> None:
    game = new_game(seed=47, terrain="plains")
    eastbound = put_train(game, "east", "train-3", 0, "east")  # slow: 2 Stages on Plains
    westbound = put_train(game, "west", "train-5", 2, "west")
    end_stage(game)
    assert eastbound.position == 1
    assert westbound.position == 2
    assert any("opposing train holds the single track" in line for line in game.state.log)


@pytest.mark.parametrize("terrain", ["double-track", "uncontrolled-siding"])
def test_passing_cards_let_opposing_trains_pass(terrain: str) -> None:
    game = new_game(seed=47, terrain=terrain)
    eastbound = put_train(game, "east", "train-3", 0, "east")
    westbound = put_train(game, "west", "train-5", 2, "west")
    end_stage(game)
    assert eastbound.position == 1 and westbound.position == 1
    assert not any("opposing" in line for line in game.state.log)


# -- the Interchange: sort cars ---------------------------------------------------------------


def interchange_game() -> tuple[Game, Train]:
    """A Slow freight made up at the West Division Point, standing on the
    Interchange after one Mainline Phase."""
    game = new_game(seed=48, terrain="plains")
    game.state.mainline[1].card = "interchange"
    cars = [Car("boxcar", True), Car("tank", False), Car("hopper", True)]
    train = put_train(game, "way", "train-3", 0, "east", cars)
    end_stage(game)
    assert (train.position, train.remaining) == (1, 1)
    return game, train


def test_sort_cars_reorders_a_train_standing_on_the_interchange() -> None:
    game, train = interchange_game()
    assert any(isinstance(a, SortCars) and a.train == "way" for a in game.legal_actions())
    game.apply(SortCars(0, train="way", order=(2, 0, 1)))
    assert [c.type for c in train.cars] == ["hopper", "boxcar", "tank"]
    assert [c.loaded for c in train.cars] == [True, True, False]


def test_sort_cars_needs_a_permutation() -> None:
    game, _ = interchange_game()
    for order in ((0, 0, 1), (0, 1), (0, 1, 2, 3), (1, 2, 3)):
        assert "not-a-permutation" in codes(game.check(SortCars(0, train="way", order=order))), order


def test_sort_cars_is_refused_off_the_interchange() -> None:
    game = new_game(seed=49, terrain="plains")
    cars = [Car("boxcar", True), Car("tank", False)]
    train = put_train(game, "way", "train-3", 0, "east", cars)
    end_stage(game)
    assert (train.position, train.remaining) == (1, 1)  # standing on Plains
    reasons = game.check(SortCars(0, train="way", order=(1, 0)))
    assert "nothing-sorts-here" in codes(reasons), reasons
    assert not any(isinstance(a, SortCars) for a in game.legal_actions())
    with pytest.raises(IllegalActionError):
        game.apply(SortCars(0, train="way", order=(1, 0)))
    assert [c.type for c in train.cars] == ["boxcar", "tank"]
    # at a Division Point or an Office it is refused too
    train.position, train.remaining = 2, 0
    assert "nothing-sorts-here" in codes(game.check(SortCars(0, train="way", order=(1, 0))))
    assert "no-such-train" in codes(game.check(SortCars(0, train="ghost", order=())))
