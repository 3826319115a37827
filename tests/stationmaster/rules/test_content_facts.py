"""The engine takes its figures from the catalog: change one in the content
and the game follows. Each test builds a catalog that differs from the
shipped one in a single fact and checks that the engine's answer moves."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from engine.stationmaster.content.model import Catalog, CrossingRule, MainlineCard, Restriction, TimetableRule, TrainCard
from engine.stationmaster.rules.consist import car_refusal
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.industry import deliver
from engine.stationmaster.rules.mainline import crossing_stages
from engine.stationmaster.rules.state import Car
from generator.stationmaster.tables import crossing_times, facility_modifiers
from tests.kit.stationmaster import CATALOG


def _with_game(catalog: Catalog, **changes: Any) -> Catalog:
    return dataclasses.replace(catalog, game=dataclasses.replace(catalog.game, **changes))


def _terrain(card_id: str) -> MainlineCard:
    card = CATALOG.by_id[card_id]
    assert isinstance(card, MainlineCard)
    return card


def test_department_cards_at_setup_come_from_game_yaml(catalog: Catalog) -> None:
    setup = catalog.game.setup
    more = _with_game(catalog, setup=dataclasses.replace(setup, department_cards=setup.department_cards + 1))
    shipped = Game(catalog, seed=3).state.departments
    changed = Game(more, seed=3).state.departments
    assert [len(p) for p in shipped] == [setup.department_cards] * len(shipped)
    assert [len(p) for p in changed] == [setup.department_cards + 1] * len(changed)


def test_points_for_a_delivered_load_come_from_game_yaml() -> None:
    freight = next(kind for kind, _ in CATALOG.supplies.cars if CATALOG.supplies.car_categories[kind] == "freight")
    for points in (CATALOG.game.scoring.load_delivered, 7):
        catalog = _with_game(CATALOG, scoring=dataclasses.replace(CATALOG.game.scoring, load_delivered=points))
        game = Game(catalog, seed=1)
        deliver(game, [Car(freight, True, shipper=0)], "the East Division Point")
        assert game.state.scores[0] == points


def test_a_car_counts_against_the_limit_its_category_names(catalog: Catalog) -> None:
    train = next(t for t in catalog.of_type(TrainCard) if t.consist.coach == 0 and not t.restrictions)
    freight = next(kind for kind, _ in catalog.supplies.cars if catalog.supplies.car_categories[kind] == "freight")
    assert car_refusal(train, Car(freight, False), pickup=False) is None
    as_coach = dataclasses.replace(train, car_categories={**train.car_categories, freight: "coach"})
    why = car_refusal(as_coach, Car(freight, False), pickup=False)
    assert why is not None and why.code == "takes-no-category", why


def test_a_restriction_limits_freight_to_the_car_types_it_lists(catalog: Catalog) -> None:
    rid, rule = next((k, r) for k, r in catalog.restrictions.items() if r.car_types)
    train = next(t for t in catalog.of_type(TrainCard) if rid in t.restrictions)
    other = next(kind for kind, _ in catalog.supplies.cars if catalog.supplies.car_categories[kind] == "freight" and kind not in rule.car_types)
    refusal = car_refusal(train, Car(other, False), pickup=False)
    assert refusal is not None and refusal.code == re.sub(r"(?<!^)(?=[A-Z])", "-", rid).lower(), refusal  # reefersOnly -> reefers-only
    widened = {**train.restriction_rules, rid: Restriction(rule.words, (*rule.car_types, other), rule.origin)}
    assert car_refusal(dataclasses.replace(train, restriction_rules=widened), Car(other, False), pickup=False) is None


def test_crossing_stages_follow_the_crossing_table() -> None:
    plains = _terrain("plains")
    assert plains.crossing_rule is not None and plains.speed_mph is not None
    mph = plains.speed_mph.passenger
    slower = CrossingRule(tuple((m, s + 2) for m, s in plains.crossing_rule.stages_at_mph), slow_train_adds=3, fewest_stages=1, origin=plains.crossing_rule.origin)
    changed = dataclasses.replace(plains, crossing_rule=slower)
    base = plains.crossing_rule.stages_at(mph)
    assert base is not None
    assert crossing_stages(changed, carries_coach=True, slow=False) == base + 2
    assert crossing_stages(changed, carries_coach=True, slow=True) == base + 2 + 3


def test_the_crossing_floor_comes_from_the_table() -> None:
    plains = _terrain("plains")
    assert plains.crossing_rule is not None
    high_floor = dataclasses.replace(plains.crossing_rule, fewest_stages=9)
    assert crossing_stages(dataclasses.replace(plains, crossing_rule=high_floor), carries_coach=False, slow=False) == 9


def test_the_crossing_times_block_shows_the_table(catalog: Catalog) -> None:
    rule = catalog.crossing
    assert rule is not None
    rows = crossing_times(catalog)["rows"]
    assert {r["mph"]: r["fast"] for r in rows} == {mph: max(rule.fewest_stages, s) for mph, s in rule.stages_at_mph}


def test_timetable_direction_comes_from_game_yaml(catalog: Catalog) -> None:
    east = TimetableRule("east")
    west = TimetableRule("west")
    assert (east.heading("1"), east.heading("2")) == ("east", "west")
    assert (west.heading("1"), west.heading("2")) == ("west", "east")
    assert catalog.game.timetable.odd_numbers_head in ("east", "west")


def test_passenger_modifier_hosts_name_the_lowest_passenger_tier(catalog: Catalog) -> None:
    ladder = [t for t in Game(catalog).ladder()]
    lowest = next(catalog.by_id[t] for t in ladder if getattr(catalog.by_id[t], "passenger_facility", False))
    words = {r["host_words"] for r in facility_modifiers(catalog)["rows"] if r["passenger"]}
    assert words == {f"any Passenger Facility ({lowest.name} or above)"}


def _paid_stop(catalog: Catalog) -> int:
    """Points a fully loaded paying train earns for one qualifying stop."""
    from engine.stationmaster.effects.pays_for_stopping import EFFECT, pays_for_stopping
    from engine.stationmaster.rules.state import Train

    card = next(t for t in catalog.of_type(TrainCard) if t.effect == EFFECT)
    freight = next(kind for kind, _ in catalog.supplies.cars if catalog.supplies.car_categories[kind] == "freight")
    coach = next(kind for kind, _ in catalog.supplies.cars if catalog.supplies.car_categories[kind] == "coach")
    cars = [Car(coach, True)] * card.consist.coach + [Car(freight, True)] * card.consist.freight
    game = Game(catalog, seed=1)
    train = Train(id=card.id, card=card.id, player=0, heading="east", position=0, cars=cars, caboose=card.caboose)
    pays_for_stopping(game, train, game.state.districts[0], card)
    return game.state.scores[0]


def test_the_paid_stop_figure_on_the_site_is_what_the_handler_pays(catalog: Catalog) -> None:
    assert _paid_stop(catalog) == catalog.game.scoring.paid_stop


def test_points_for_a_paid_stop_come_from_game_yaml(catalog: Catalog) -> None:
    changed = _with_game(catalog, scoring=dataclasses.replace(catalog.game.scoring, paid_stop=catalog.game.scoring.paid_stop + 4))
    assert _paid_stop(changed) == catalog.game.scoring.paid_stop + 4


def _departure_heading(catalog: Catalog, number_parity: int) -> tuple[str, str]:
    """(heading the engine gave, heading game.yaml asks for) for a timetabled
    train of the given parity due out now."""
    from engine.stationmaster.rules.mainline_phase import mainline_phase

    card = next(t for t in catalog.of_type(TrainCard) if t.service == "timetabled" and int(t.number) % 2 == number_parity)
    game = Game(catalog, seed=1)
    s = game.state
    s.timetable[s.stage - 1] = card.id
    mainline_phase(game)
    train = next(t for t in s.trains if t.card == card.id)
    return train.heading, catalog.game.timetable.heading(card.number)


def test_timetabled_trains_run_the_way_game_yaml_says(catalog: Catalog) -> None:
    for parity in (0, 1):
        given, wanted = _departure_heading(catalog, parity)
        assert given == wanted


def test_turning_the_timetable_round_in_game_yaml_turns_the_trains(catalog: Catalog) -> None:
    flipped = TimetableRule("west" if catalog.game.timetable.odd_numbers_head == "east" else "east")
    given, wanted = _departure_heading(_with_game(catalog, timetable=flipped), 1)
    assert given == wanted
