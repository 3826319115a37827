"""Consists: what a train may take (engine.stationmaster.rules.consist), checked card by card
against the printed consist and restrictions, and the made-up-short report."""

from __future__ import annotations

import dataclasses

import pytest

from engine.stationmaster.content.model import Catalog, Consist, TrainCard
from engine.stationmaster.rules.consist import car_refusal, consist_refusals, make_up
from engine.stationmaster.rules.state import Car
from tests.kit.stationmaster import CATALOG, codes

PIECES = CATALOG.game.table.crew_tray_pieces


def train(card_id: str) -> TrainCard:
    card = CATALOG.by_id[card_id]
    assert isinstance(card, TrainCard)
    return card


def cars(*spec: str) -> list[Car]:
    """``"coach"`` is a loaded coach, ``"-boxcar"`` an empty boxcar."""
    return [Car(s.lstrip("-"), loaded=not s.startswith("-")) for s in spec]


def test_a_crew_tray_holds_four_pieces() -> None:
    assert PIECES == 4


def test_a_legal_consist_has_no_refusal() -> None:
    assert consist_refusals(train("train-1"), cars("coach", "coach", "coach"), False, PIECES) == []
    assert consist_refusals(train("train-3"), cars("boxcar", "-hopper", "tank"), True, PIECES) == []
    assert consist_refusals(train("train-7"), cars("coach", "boxcar", "-flatcar"), True, PIECES) == []


def test_the_consist_is_a_maximum_not_a_minimum() -> None:
    assert consist_refusals(train("train-1"), [], False, PIECES) == []
    assert consist_refusals(train("train-3"), cars("boxcar"), True, PIECES) == []


def test_too_many_cars() -> None:
    reasons = consist_refusals(train("train-1"), cars("coach", "coach", "coach", "coach"), False, PIECES)
    assert "too-many-coaches" in codes(reasons), reasons
    reasons = consist_refusals(train("train-2"), cars("coach", "boxcar", "reefer"), False, PIECES)
    assert "too-many-freight-cars" in codes(reasons), reasons


def test_wrong_category() -> None:
    reasons = consist_refusals(train("train-1"), cars("boxcar"), False, PIECES)
    assert "too-many-freight-cars" in codes(reasons), reasons
    reasons = consist_refusals(train("train-3"), cars("coach"), True, PIECES)
    assert "too-many-coaches" in codes(reasons), reasons
    for card_id, kind in (("train-1", "boxcar"), ("train-3", "coach")):
        why = car_refusal(train(card_id), Car(kind, True), pickup=False)
        assert why is not None and why.code == "takes-no-category", (card_id, why)


def test_a_caboose_on_a_train_that_runs_without_one() -> None:
    assert train("train-1").caboose is False
    reasons = consist_refusals(train("train-1"), cars("coach"), True, PIECES)
    assert "runs-without-caboose" in codes(reasons), reasons
    assert consist_refusals(train("train-3"), cars("boxcar"), True, PIECES) == []


def test_more_than_four_pieces_counting_the_caboose() -> None:
    # a card whose consist alone would allow four freight cars: only the Crew Tray refuses five pieces
    roomy = dataclasses.replace(train("train-3"), consist=Consist(freight=4))
    four = cars("boxcar", "boxcar", "hopper", "tank")
    assert consist_refusals(roomy, four, False, PIECES) == []
    reasons = consist_refusals(roomy, four, True, PIECES)
    assert codes(reasons) == ["crew-tray-full"], reasons
    # the shipped cards: three cars and a caboose is exactly a full tray
    assert "crew-tray-full" not in codes(consist_refusals(train("train-3"), cars("boxcar", "boxcar", "tank"), True, PIECES))


def test_reefers_only() -> None:
    card = train("train-4")
    assert "reefersOnly" in card.restrictions
    assert car_refusal(card, Car("reefer", True), pickup=False) is None
    assert car_refusal(card, Car("reefer", False), pickup=True) is None
    why = car_refusal(card, Car("boxcar", True), pickup=False)
    assert why is not None and why.code == "reefers-only", why
    reasons = consist_refusals(card, cars("reefer", "tank"), True, PIECES)
    assert "reefers-only" in codes(reasons), reasons
    # the same car is fine for a train without the restriction
    assert car_refusal(train("train-3"), Car("boxcar", True), pickup=False) is None


def test_empties_only() -> None:
    card = train("train-5")
    assert "emptiesOnly" in card.restrictions
    assert car_refusal(card, Car("hopper", False), pickup=False) is None
    why = car_refusal(card, Car("hopper", True), pickup=False)
    assert why is not None and why.code == "empties-only", why
    assert car_refusal(card, Car("hopper", True), pickup=True)
    assert "empties-only" in codes(consist_refusals(card, cars("-hopper", "hopper"), True, PIECES))


def test_pick_up_empties_only() -> None:
    card = train("train-8")
    assert "pickUpEmptiesOnly" in card.restrictions
    assert car_refusal(card, Car("boxcar", True), pickup=False) is None, "made up loaded in a yard is fine"
    assert car_refusal(card, Car("boxcar", False), pickup=True) is None
    why = car_refusal(card, Car("boxcar", True), pickup=True)
    assert why is not None and why.code == "pick-up-empties-only", why


def test_drop_only() -> None:
    card = train("train-6")
    assert "dropOnly" in card.restrictions
    assert car_refusal(card, Car("boxcar", True), pickup=False) is None
    for loaded in (True, False):
        why = car_refusal(card, Car("boxcar", loaded), pickup=True)
        assert why is not None and why.code == "drop-only", why
    assert car_refusal(train("train-3"), Car("boxcar", True), pickup=True) is None


@pytest.mark.parametrize("card_id", ["train-10", "extra-17", "extra-18"])
def test_may_not_switch(card_id: str) -> None:
    card = train(card_id)
    assert "mayNotSwitch" in card.restrictions
    kind = "coach" if card.consist.coach else "boxcar"
    assert car_refusal(card, Car(kind, True), pickup=False) is None
    for loaded in (True, False):
        why = car_refusal(card, Car(kind, loaded), pickup=True)
        assert why is not None and why.code == "may-not-switch", why


def test_make_up_takes_loaded_cars_first_up_to_the_maximum() -> None:
    yard = cars("-boxcar", "hopper", "coach", "-tank", "reefer", "flatcar")
    taken, short = make_up(train("train-3"), yard, "West Division Point", PIECES)
    assert short is None
    assert [(c.type, c.loaded) for c in taken] == [("hopper", True), ("reefer", True), ("flatcar", True)]
    assert [(c.type, c.loaded) for c in yard] == [("boxcar", False), ("coach", True), ("tank", False)]
    assert consist_refusals(train("train-3"), taken, True, PIECES) == []


def test_make_up_respects_the_restrictions() -> None:
    yard = cars("hopper", "-hopper", "-tank", "boxcar", "-flatcar")
    taken, short = make_up(train("train-5"), yard, "East Division Point", PIECES)
    assert all(not c.loaded for c in taken) and len(taken) == 3
    assert short is None
    yard = cars("reefer", "boxcar", "-reefer", "tank")
    taken, _ = make_up(train("train-4"), yard, "East Division Point", PIECES)
    assert [c.type for c in taken] == ["reefer", "reefer"]


def test_made_up_short_reports_what_it_wanted_and_why() -> None:
    yard = cars("boxcar", "tank", "-hopper", "reefer")
    taken, short = make_up(train("train-4"), yard, "West Division Point", PIECES)
    assert [c.type for c in taken] == ["reefer"]
    assert short is not None
    assert "No. 4 Fruit Block" in short and "West Division Point" in short and "short" in short
    assert "2 more freight car(s)" in short
    assert "reefers only" in short
    empty, report = make_up(train("train-1"), [], "Depot", PIECES)
    assert empty == [] and report is not None and "3 more coach(es)" in report


def test_make_up_of_a_mixed_train_reports_each_category() -> None:
    taken, short = make_up(train("train-7"), cars("boxcar"), "Depot", PIECES)
    assert [c.type for c in taken] == ["boxcar"]
    assert short is not None and "1 more coach(es)" in short and "1 more freight car(s)" in short


def test_a_full_make_up_has_no_report() -> None:
    taken, short = make_up(train("train-1"), cars("coach", "coach", "-coach", "coach"), "West Division Point", PIECES)
    assert len(taken) == 3 and short is None


@pytest.mark.parametrize("card", [c for c in CATALOG.of_type(TrainCard)], ids=lambda c: c.id)
def test_every_card_made_up_from_a_full_yard_is_a_legal_consist(catalog: Catalog, card: TrainCard) -> None:
    yard = [Car(t, loaded) for t, n in catalog.supplies.cars for _ in range(n) for loaded in (True, False)]
    taken, _ = make_up(card, yard, "yard", PIECES)
    assert consist_refusals(card, taken, card.caboose, PIECES) == []
    assert len(taken) + card.caboose <= PIECES
