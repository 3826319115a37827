"""Train cards through the action API: timetabled trains and the seeded D12,
Extras and where they may start, the Red Flag, the Second Section and the
opponent-directed cards that check() refuses."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import IllegalActionError
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Attack, Play, RedFlag
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car, Train
from tests.kit.stationmaster import codes, dealt, end_stage, new_game, set_hand, take

# -- timetabled trains and the D12 ----------------------------------------------------


def _timetable_game(monkeypatch: pytest.MonkeyPatch, roll: int, taken: list[int]) -> tuple[Game, list[int]]:
    game = new_game(seed=21)
    s = game.state
    others = ["train-2", "train-3", "train-4", "train-5"]
    for index, card in zip(taken, others, strict=False):
        take(game, card)
        s.timetable[index] = card
    set_hand(game, "train-1", "straight", "straight")
    calls: list[int] = []

    def fixed(sides: int) -> int:
        calls.append(sides)
        return roll

    monkeypatch.setattr(game.rng, "roll", fixed)
    return game, calls


@pytest.mark.parametrize(
    ("roll", "taken", "expected"),
    [
        (1, [], 0),
        (5, [], 4),
        (12, [], 11),
        (5, [4], 5),
        (5, [4, 5, 6], 7),
        (12, [11], 0),  # wraps around past slot 12
        (11, [10, 11, 0], 1),
        (1, [0, 1, 2, 3], 4),
    ],
)
def test_a_timetabled_train_takes_the_first_open_slot_at_or_after_the_d12(catalog: Catalog, monkeypatch: pytest.MonkeyPatch, roll: int, taken: list[int], expected: int) -> None:
    game, calls = _timetable_game(monkeypatch, roll, taken)
    game.apply(Play(0, "train-1"))
    assert calls == [catalog.game.table.die_sides] == [12]
    assert game.state.timetable.index("train-1") == expected
    assert game.census() == dealt(game)


def test_the_d12_comes_from_the_rules_stream() -> None:
    slots = set()
    for seed in range(40):
        game = new_game(seed=seed)
        set_hand(game, "train-1", "straight", "straight")
        mirror = type(game.rng)(0)
        mirror._random.setstate(game.rng._random.getstate())
        expected = mirror.roll(12) - 1
        game.apply(Play(0, "train-1"))
        assert game.state.timetable.index("train-1") == expected
        slots.add(expected)
    assert len(slots) > 5


def test_a_full_timetable_refuses_a_timetabled_train() -> None:
    game = new_game(seed=22)
    set_hand(game, "train-1", "straight", "straight")
    game.state.timetable = ["train-9"] * len(game.state.timetable)
    reasons = game.check(Play(0, "train-1"))
    assert "timetable-full" in codes(reasons), reasons
    with pytest.raises(IllegalActionError):
        game.apply(Play(0, "train-1"))


def test_a_timetabled_train_runs_at_its_stage_every_day_odd_east_even_west() -> None:
    game = new_game(seed=23)
    s = game.state
    take(game, "train-1")
    take(game, "train-2")
    s.timetable[0] = "train-1"
    s.timetable[1] = "train-2"
    end_stage(game)
    east = [t for t in s.trains if t.card == "train-1"]
    assert len(east) == 1 and east[0].heading == "east" and east[0].id == "train-1/d1"
    assert any(line.startswith("No. 1 Morning Passenger departs West Division Point heading east") for line in s.log)
    end_stage(game)
    assert any(line.startswith("No. 2 Mail and Express departs East Division Point heading west") for line in s.log)
    while s.day == 1:
        end_stage(game)
    end_stage(game)  # Day 2, Stage 1
    departures = [line for line in s.log if line.startswith("No. 1 Morning Passenger departs")]
    assert len(departures) == 2, "once on Day 1 and again on Day 2, at the same Stage"
    assert (s.day, s.stage) == (2, 2)
    assert game.census() == dealt(game)


# -- Extras -------------------------------------------------------------------------------


def test_an_extra_is_queued_when_played() -> None:
    game = new_game(seed=24)
    set_hand(game, "extra-5", "straight", "straight")
    game.apply(Play(0, "extra-5", slot=0, heading="east"))
    s = game.state
    assert [(o.card, o.player, o.start, o.heading) for o in s.extras_queue] == [("extra-5", 0, 0, "east")]
    assert s.trains == []
    assert game.census() == dealt(game)


def test_an_extra_needs_a_start_and_a_heading() -> None:
    game = new_game(seed=24)
    set_hand(game, "extra-5", "straight", "straight")
    assert "extra-needs-start" in codes(game.check(Play(0, "extra-5")))


def test_an_extra_waits_for_a_free_crew_tray() -> None:
    game = new_game(seed=25)
    s = game.state
    set_hand(game, "extra-5", "straight", "straight")
    game.apply(Play(0, "extra-5", slot=0, heading="east"))
    s.crew_trays_free = 0
    end_stage(game)
    assert [o.card for o in s.extras_queue] == ["extra-5"]
    assert s.trains == []
    end_stage(game)
    assert [o.card for o in s.extras_queue] == ["extra-5"]
    s.crew_trays_free = 1
    end_stage(game)
    assert s.extras_queue == []
    assert [t.card for t in s.trains] == ["extra-5"]
    assert s.crew_trays_free == 0
    assert game.census() == dealt(game)


def test_after_its_run_an_extra_goes_to_the_salvage_yard() -> None:
    game = new_game(seed=26)
    s = game.state
    set_hand(game, "extra-5", "straight", "straight")
    trays = s.crew_trays_free
    game.apply(Play(0, "extra-5", slot=0, heading="east"))
    end_stage(game)
    assert [t.card for t in s.trains] == ["extra-5"]
    assert s.trains[0].cars and all(c.type == "coach" for c in s.trains[0].cars), "made up from the Division Point's yard"
    for _ in range(10):
        if not s.trains:
            break
        assert "extra-5" not in s.salvage
        end_stage(game)
    assert s.trains == []
    assert s.salvage.count("extra-5") == 1
    assert s.crew_trays_free == trays
    assert game.census() == dealt(game)
    # its cars are left in the far Division Point's yard
    assert sum(c.type == "coach" for c in s.mainline[-1].yard) >= 3


def two_player_extra_game(rule: str) -> Game:
    game = new_game(players=2, seed=27, extraStart=rule)
    set_hand(game, "extra-9", "straight", "straight")
    return game


# two players: 0 WDP, 1 terrain, 2 Office of player 0, 3 terrain, 4 Office of player 1, 5 terrain, 6 EDP
OWN_OFFICE, OTHER_OFFICE, TERRAIN, WEST_DP, EAST_DP = 2, 4, 3, 0, 6


def test_extra_start_division_points_only_refuses_an_office() -> None:
    game = two_player_extra_game("divisionPointsOnly")
    for slot in (OWN_OFFICE, OTHER_OFFICE):
        reasons = game.check(Play(0, "extra-9", slot=slot, heading="east"))
        assert "extra-start-house-rule" in codes(reasons), reasons
    assert game.check(Play(0, "extra-9", slot=WEST_DP, heading="east")) == []
    assert game.check(Play(0, "extra-9", slot=EAST_DP, heading="west")) == []


def test_extra_start_own_office_refuses_another_players_office() -> None:
    game = two_player_extra_game("ownOffice")
    assert game.check(Play(0, "extra-9", slot=OWN_OFFICE, heading="east")) == []
    reasons = game.check(Play(0, "extra-9", slot=OTHER_OFFICE, heading="east"))
    assert "extra-start-house-rule" in codes(reasons), reasons
    assert game.check(Play(0, "extra-9", slot=WEST_DP, heading="east")) == []


def test_extra_start_any_office_allows_every_office() -> None:
    game = two_player_extra_game("anyOffice")
    for slot in (OWN_OFFICE, OTHER_OFFICE, WEST_DP):
        assert game.check(Play(0, "extra-9", slot=slot, heading="east")) == []


def test_any_office_is_the_default(catalog: Catalog) -> None:
    assert Game(catalog, players=2, seed=1).rules["extraStart"] == "anyOffice"


@pytest.mark.parametrize("rule", ["divisionPointsOnly", "ownOffice", "anyOffice"])
def test_the_interchange_is_a_start_under_every_option(rule: str) -> None:
    game = two_player_extra_game(rule)
    game.state.mainline[TERRAIN].card = "interchange"
    assert game.check(Play(0, "extra-9", slot=TERRAIN, heading="west")) == []
    game.apply(Play(0, "extra-9", slot=TERRAIN, heading="west"))
    assert game.state.extras_queue[0].start == TERRAIN


@pytest.mark.parametrize("rule", ["divisionPointsOnly", "ownOffice", "anyOffice"])
@pytest.mark.parametrize("land", ["plains", "curves", "tunnel", "double-track", "heavy-grade"])
def test_a_terrain_card_without_a_yard_is_refused(rule: str, land: str) -> None:
    game = two_player_extra_game(rule)
    game.state.mainline[TERRAIN].card = land
    reasons = game.check(Play(0, "extra-9", slot=TERRAIN, heading="east"))
    assert "no-yard" in codes(reasons), reasons


def test_an_extra_may_not_head_off_the_end_of_the_mainline() -> None:
    game = two_player_extra_game("anyOffice")
    assert "runs-off-the-mainline" in codes(game.check(Play(0, "extra-9", slot=WEST_DP, heading="west")))
    assert "runs-off-the-mainline" in codes(game.check(Play(0, "extra-9", slot=EAST_DP, heading="east")))


def test_an_extra_made_up_at_an_office_leaves_short_with_a_report() -> None:
    game = new_game(seed=28)
    set_hand(game, "extra-9", "straight", "straight")
    game.apply(Play(0, "extra-9", slot=2, heading="east"))
    end_stage(game)
    assert any("X9 Stock Extra left Depot short: it wanted 3 more freight car(s)" in line for line in game.state.log), game.state.log[-5:]


# -- the Red Flag ----------------------------------------------------------------------------


def _train_at(game: Game, train_id: str, card: str, position: int, heading: str = "east") -> Train:
    s = game.state
    s.serial += 1
    train = Train(train_id, card, None, heading, position, [Car("coach", True)], False, sequence=s.serial)  # type: ignore[arg-type]
    s.trains.append(train)
    s.crew_trays_free -= 1
    return train


def test_a_red_flag_holds_a_train_for_one_mainline_phase() -> None:
    game = new_game(seed=29, terrain="curves")
    s = game.state
    set_hand(game, "red-flag", "straight", "straight")
    train = _train_at(game, "t", "train-1", 0)
    assert RedFlag(0, train="t") in game.legal_actions()
    game.apply(RedFlag(0, train="t"))
    assert "red-flag" not in s.hands[0] and s.salvage.count("red-flag") == 1
    assert train.held == 1
    end_stage(game)
    assert (train.position, train.remaining) == (0, 0), "held where it stands"
    end_stage(game)
    assert train.position == 1, "moves again the Phase after"
    assert game.census() == dealt(game)


def test_without_a_red_flag_the_train_moves() -> None:
    game = new_game(seed=29, terrain="curves")
    train = _train_at(game, "t", "train-1", 0)
    end_stage(game)
    assert train.position == 1


def test_a_red_flag_needs_a_red_flag_in_hand_and_a_real_train() -> None:
    game = new_game(seed=30)
    set_hand(game, "straight", "straight", "curve-left")
    _train_at(game, "t", "train-1", 0)
    assert "card-not-held" in codes(game.check(RedFlag(0, train="t")))
    set_hand(game, "red-flag", "straight", "curve-left")
    assert "no-such-train" in codes(game.check(RedFlag(0, train="nope")))


def _two_flags_and_a_train() -> tuple[Game, Counter[str]]:
    game = new_game(seed=31)
    set_hand(game, "red-flag", "red-flag", "straight")
    _train_at(game, "t", "train-1", 0)
    return game, dealt(game)


def test_playing_a_red_flag_card_does_not_lose_a_card() -> None:
    game, deck = _two_flags_and_a_train()
    action = Play(0, "red-flag", train="t")
    if game.check(action) == []:
        game.apply(action)
    assert game.census() == deck


def test_playing_a_single_red_flag_card_is_refused_or_works() -> None:
    game = new_game(seed=32)
    set_hand(game, "red-flag", "straight", "straight")
    _train_at(game, "t", "train-1", 0)
    action = Play(0, "red-flag", train="t")
    before = game.state_json()
    try:
        game.apply(action)
    except IllegalActionError:
        assert game.state_json() == before
        return
    assert game.census() == dealt(game)


# -- the Second Section ------------------------------------------------------------------------


def second_section_game(terrain: str = "curves") -> Game:
    game = new_game(seed=33, terrain=terrain)
    take(game, "train-1")
    game.state.timetable[0] = "train-1"  # due out at Stage 1
    set_hand(game, "second-section", "straight", "straight")
    return game


def test_a_second_section_must_follow_the_train_due_out_this_stage() -> None:
    game = second_section_game()
    for train in (None, "train-2", "train-1/d1"):
        reasons = game.check(Play(0, "second-section", train=train))
        assert "not-the-train-due" in codes(reasons), (train, reasons)
    assert game.check(Play(0, "second-section", train="train-1")) == []
    assert Play(0, "second-section", train="train-1") in game.legal_actions()


def test_a_second_section_is_refused_with_nothing_due() -> None:
    game = second_section_game()
    game.state.timetable[0] = None
    game.state.timetable[5] = "train-1"
    assert "not-the-train-due" in codes(game.check(Play(0, "second-section", train="train-1")))


def test_a_second_section_needs_a_spare_crew_tray() -> None:
    game = second_section_game()
    game.state.crew_trays_free = 1  # enough for the train due, none for a second
    reasons = game.check(Play(0, "second-section", train="train-1"))
    assert "no-crew-tray" in codes(reasons), reasons
    game.state.crew_trays_free = 2
    assert game.check(Play(0, "second-section", train="train-1")) == []


def test_a_second_section_departs_right_behind_the_first() -> None:
    game = second_section_game()
    s = game.state
    trays = s.crew_trays_free
    coaches = sum(c.type == "coach" for c in s.mainline[0].yard)
    assert coaches >= 4
    game.apply(Play(0, "second-section", train="train-1"))
    assert "second-section" in s.salvage and "second-section" not in s.hands[0]
    end_stage(game)
    runs = [t for t in s.trains if t.card == "train-1"]
    assert len(runs) == 2
    first, second = sorted(runs, key=lambda t: t.sequence)
    assert first.id != second.id
    assert first.heading == second.heading == "east"
    assert first.position == second.position == 1, "both on the first card, the second right behind"
    # the same card, made up from the same yard after the first took its pick
    assert [c.type for c in first.cars] == ["coach"] * 3
    assert second.cars and all(c.type == "coach" for c in second.cars)
    assert s.crew_trays_free == trays - 2
    assert not any("collision" in line for line in s.log)
    assert game.census() == dealt(game)
    assert s.second_sections == []  # the order was for that Stage only


def test_without_a_second_section_only_one_train_departs() -> None:
    game = second_section_game()
    end_stage(game)
    assert [t.card for t in game.state.trains] == ["train-1"]


# -- opponent-directed cards -------------------------------------------------------------------


@pytest.mark.parametrize("card", ["strike", "derailment", "eminent-domain", "arbitration", "deed-of-title"])
def test_opponent_directed_cards_are_not_played_with_play(catalog: Catalog, card: str) -> None:
    """An attack is played with its own action, a defence only answers; the
    ordinary Play refuses both, for that reason and not for being out of hand."""
    game = new_game(seed=34)
    game.state.hands[0].append(card)  # a solitaire deck deals none: put it in hand by hand
    reasons = game.check(Play(0, card))
    expected = "nothing-to-answer" if catalog.by_id[card].answers else "attack-card"  # type: ignore[attr-defined]
    assert codes(reasons) == [expected], reasons
    assert Play(0, card) not in game.legal_actions()
    before = game.state_json()
    with pytest.raises(IllegalActionError):
        game.apply(Play(0, card))
    assert game.state_json() == before


@pytest.mark.parametrize("card", ["strike", "washout", "trackage-rights"])
def test_a_solitaire_game_has_no_rival_to_attack(card: str) -> None:
    game = new_game(seed=34)
    game.state.hands[0].append(card)
    reasons = game.check(Attack(0, card, rival=0, x=0, y=-1, slot=1))
    assert "no-rival" in codes(reasons), reasons
    assert not any(isinstance(a, Attack) for a in game.legal_actions())


# -- an Extra's load, chosen by the player ------------------------------------------------


def _yard_game(yard: list[Car], seed: int = 31) -> Game:
    """The West Division Point's yard holds ``yard``, and no other yard holds a car."""
    game = new_game(seed=seed)
    for slot in game.state.mainline:
        slot.yard = []
    game.state.mainline[0].yard = list(yard)
    set_hand(game, "extra-12", "extra-5", "straight")
    return game


def test_a_chosen_load_is_taken_in_the_order_named() -> None:
    game = _yard_game([Car("reefer", False), Car("reefer", True), Car("boxcar", True), Car("reefer", True)])
    play = Play(0, "extra-12", slot=0, heading="east", load=("empty reefer", "loaded reefer"))
    assert game.check(play) == []
    from command.stationmaster.textview import describe_action, render_state

    assert describe_action(game, play).endswith("heading east, taking empty reefer, loaded reefer")
    game.apply(play)
    assert game.state.extras_queue[0].load == ("empty reefer", "loaded reefer")
    assert "heading east, taking empty reefer, loaded reefer" in render_state(game)
    end_stage(game)
    train = next(t for t in game.state.trains if t.card == "extra-12")
    assert [(c.type, c.loaded) for c in train.cars] == [("reefer", False), ("reefer", True)]
    assert [(c.type, c.loaded) for c in game.state.mainline[0].yard] == [("boxcar", True), ("reefer", True)]
    assert game.census() == dealt(game)


def test_an_empty_load_leaves_light_and_none_lets_the_yard_choose() -> None:
    game = _yard_game([Car("reefer", True)])
    from command.stationmaster.textview import describe_action

    assert describe_action(game, Play(0, "extra-12", slot=0, heading="east", load=())).endswith(", leaving light")
    game.apply(Play(0, "extra-12", slot=0, heading="east", load=()))
    end_stage(game)
    train = next(t for t in game.state.trains if t.card == "extra-12")
    assert train.cars == [] and len(game.state.mainline[0].yard) == 1
    assert not any("short" in line for line in game.state.log[-4:]), "leaving light by choice is not short"


def test_a_load_the_card_or_the_yard_cannot_give_is_refused_with_every_reason() -> None:
    game = _yard_game([Car("reefer", True), Car("boxcar", True)])
    reasons = game.check(Play(0, "extra-12", slot=0, heading="east", load=("loaded boxcar", "loaded reefer", "loaded reefer", "empty reefer")))
    assert {"too-many-freight-cars", "reefers-only", "load-not-in-yard"} <= set(codes(reasons)), reasons
    coach = game.check(Play(0, "extra-12", slot=0, heading="east", load=("empty coach",)))
    assert "too-many-coaches" in codes(coach), coach


def test_a_load_for_an_office_start_is_refused_there_is_no_yard() -> None:
    game = _yard_game([])
    office = next(i for i, slot in enumerate(game.state.mainline) if slot.kind == "office")
    reasons = game.check(Play(0, "extra-5", slot=office, heading="east", load=("empty coach",)))
    assert "office-keeps-no-cars" in codes(reasons), reasons
    assert game.check(Play(0, "extra-5", slot=office, heading="east", load=())) == []


def test_only_an_extra_takes_a_load() -> None:
    game = _yard_game([])
    reasons = game.check(Play(0, "straight", x=1, y=0, rotation=0, load=()))
    assert "load-only-for-extras" in codes(reasons), reasons


@pytest.mark.parametrize("name", ["boxcar", "full boxcar", "loaded spaceship", "loaded  boxcar extra", ""])
def test_a_load_naming_no_car_is_invalid_input(name: str) -> None:
    from engine.errors import InvalidActionError

    game = _yard_game([])
    with pytest.raises(InvalidActionError, match="load: .* is not a car: write 'loaded TYPE' or 'empty TYPE'"):
        game.check(Play(0, "extra-12", slot=0, heading="east", load=(name,)))


def test_cars_gone_before_make_up_leave_the_extra_short_with_a_report() -> None:
    game = _yard_game([Car("reefer", True), Car("reefer", False)])
    game.apply(Play(0, "extra-12", slot=0, heading="east", load=("loaded reefer", "empty reefer")))
    game.state.mainline[0].yard = [Car("reefer", True)]  # another train took the empty first
    end_stage(game)
    train = next(t for t in game.state.trains if t.card == "extra-12")
    assert [(c.type, c.loaded) for c in train.cars] == [("reefer", True)]
    assert any("left" in line and "short: the yard no longer had the empty reefer chosen for it" in line for line in game.state.log), game.state.log[-6:]


def test_a_chosen_load_goes_through_json_as_a_save_writes_it() -> None:
    import json

    from engine.errors import InvalidActionError
    from engine.stationmaster.rules.actions import from_json

    play = Play(0, "extra-12", slot=0, heading="east", load=("loaded reefer",))
    assert from_json(json.loads(json.dumps(play.to_json()))) == play
    assert from_json({"kind": "play", "player": 0, "card": "extra-12", "slot": 0, "heading": "east", "load": ["loaded reefer"]}) == play
    for bad in ("loaded reefer", [1, 2], ["x" * 41], ["empty coach"] * 17):
        with pytest.raises(InvalidActionError, match="field 'load' must be list\\[str\\]"):
            from_json({"kind": "play", "player": 0, "card": "extra-12", "load": bad})
