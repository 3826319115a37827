"""Trick of the Rails' content: the shipped pack loads clean and holds the
published facts (the rules page, games/trick-of-the-rails.md §1.1, §1.2 and
§1.8), and every kind of bad input is refused with a located problem.

As in ``test_validate``, the bad-input tests pick what to damage from the
shipped data by meaning (a company, a card's number, a locomotive's reach),
not by its current value, and compute every expected line and column from the
damaged text itself.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.content.problems import Problem
from engine.errors import ContentError
from engine.trickoftherails import load_catalog
from engine.trickoftherails.content.model import Card, Catalog
from tests.kit.cli import PROBLEM_LINE, CliResult
from tests.kit.project import PROJECT_ROOT
from tests.kit.validate import at, no_traceback, read, write

# Its module-scoped fixture is built once: the whole module runs on one worker.
pytestmark = pytest.mark.xdist_group("trickoftherails-content")

TOTR_CONTENT = PROJECT_ROOT / "content" / "trickoftherails"
PACK = "content/trickoftherails"

# The Station Values reference card, company × number 1..10, exactly as the
# rules page's §1.1 prints it (from the Board Game Arena adaptation).
STATION_VALUES: dict[str, list[int]] = {
    "B&O": [10, 10, 10, 20, 20, 20, 20, 30, 30, 40],
    "C&O": [40, 30, 30, 20, 20, 20, 20, 10, 10, 10],
    "ERIE": [30, 20, 20, 10, 30, 10, 20, 20, 40, 10],
    "NYC": [20, 20, 30, 10, 20, 40, 10, 20, 30, 10],
    "PRR": [10, 20, 20, 30, 40, 30, 20, 20, 10, 10],
}
STOCK = ("exchange", "reservation")

Located = tuple[str, int, int, str]


# --------------------------------------------------------------------- helpers


def shipped(rel: str) -> Any:
    """The shipped file's data, to pick what to damage by meaning."""
    return yaml.safe_load((TOTR_CONTENT / rel).read_text(encoding="utf-8"))


def cards(rel: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = shipped(rel)["cards"]
    return found


def card_line(text: str, record_id: str) -> int:
    """Offset where the one-line record ``- {id: <record_id>, ...}`` starts."""
    m = re.search(rf"^  - \{{id: {re.escape(record_id)},", text, re.M)
    assert m, f"no one-line record {record_id!r} (the content changed shape?)"
    return m.start()


def record_start(text: str, record_id: str) -> tuple[int, int]:
    """(line, column) of the record's opening brace."""
    return at(text, card_line(text, record_id) + len("  - "))


def value_of(text: str, record_id: str, key: str) -> tuple[int, int]:
    """(line, column) of the value of ``key`` in the one-line record."""
    start = card_line(text, record_id)
    end = text.index("\n", start)
    m = re.compile(rf"[{{ ]{re.escape(key)}: ").search(text, start, end)
    assert m, f"record {record_id!r} has no {key!r}"
    return at(text, m.end())


def edit_record(content: Path, rel: str, record_id: str, change: Callable[[str], str]) -> str:
    """Rewrite the line of one record; returns the file's new text."""
    text = read(content, rel)
    start = card_line(text, record_id)
    end = text.index("\n", start)
    new_line = change(text[start:end])
    assert new_line != text[start:end], f"the edit of {record_id!r} changed nothing"
    return str(write(content, rel, text[:start] + new_line + text[end:]))


def set_field(content: Path, rel: str, record_id: str, key: str, value: object) -> str:
    """Set ``key: value`` inside one record's line (the key must be there)."""

    def change(line: str) -> str:
        new, n = re.subn(rf"([{{ ]{re.escape(key)}: )[^,}}]+", lambda m: m.group(1) + str(value), line, count=1)
        assert n == 1, f"no {key!r} in {line!r}"
        return new

    return edit_record(content, rel, record_id, change)


def replace_once(content: Path, rel: str, old: str, new: str) -> str:
    text = read(content, rel)
    assert text.count(old) == 1, f"{old!r} is not in {rel} exactly once"
    return str(write(content, rel, text.replace(old, new)))


def lane_line(players: int, variant: str = "basic") -> str:
    """The shipped lane line ``    basic: [...]`` for a player count."""
    layout = next(r for r in shipped("lane.yaml")["layouts"] if r["players"] == players)
    return f"    {variant}: [{', '.join(layout[variant])}]"


def hand_sizes() -> dict[int, int]:
    return {h["players"]: h["cards"] for h in shipped("game.yaml")["hands"]}


def refused(content: Path) -> list[Located]:
    """Every problem the loader finds, sorted, as (path, line, column, message)."""
    with pytest.raises(ContentError) as caught:
        load_catalog(content)
    problems: tuple[Problem, ...] = caught.value.problems
    assert problems, "ContentError without a problem"
    return [(p.path, p.line, p.column, p.message) for p in problems]


def expect(problems: list[Located], rel: str, where: tuple[int, int], *fragments: str) -> str:
    """A problem in ``rel`` at ``where`` whose message holds every fragment."""
    path = f"{PACK}/{rel}"
    here = [p for p in problems if p[:3] == (path, *where)]
    assert here, f"no problem at {path}:{where[0]}:{where[1]}; got:\n" + "\n".join(f"{p[0]}:{p[1]}:{p[2]}: {p[3]}" for p in problems)
    matching = [p[3] for p in here if all(f in p[3] for f in fragments)]
    assert matching, f"no problem at {path}:{where[0]}:{where[1]} says all of {fragments}; got:\n" + "\n".join(p[3] for p in here)
    return matching[0]


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the shipped pack at ``content/trickoftherails``,
    with the working directory where problems read as ``content/...``."""
    target = tmp_path / PACK
    shutil.copytree(TOTR_CONTENT, target)
    monkeypatch.chdir(tmp_path)
    return Path(PACK)


@pytest.fixture(scope="module")
def catalog() -> Iterator[Catalog]:
    yield load_catalog(TOTR_CONTENT)


# ------------------------------------------------------- the shipped content


def test_the_shipped_pack_loads_clean(catalog: Catalog) -> None:
    assert catalog.title == "Trick of the Rails"
    families = Counter(c.family for c in catalog.cards)
    assert families == {"railway": 50, "stations": 5, "cities": 3, "exchanges": 5, "reservations": 1, "locomotives": 5}


def test_fifty_railway_cards_each_company_numbered_one_to_ten_once(catalog: Catalog) -> None:
    railway = catalog.railway_cards
    assert len(railway) == 50
    assert [c.name for c in catalog.companies] == list(STATION_VALUES)
    for company in catalog.companies:
        numbers = sorted(c.number for c in railway if c.company == company.id and c.number is not None)
        assert numbers == list(range(1, 11)), company.id
    assert {c.company for c in railway} == {c.id for c in catalog.companies}


def test_every_company_has_the_same_spread_of_station_values(catalog: Catalog) -> None:
    """A property of the published content (§1.8), not a loader rule."""
    for company in catalog.companies:
        values = [c.station_value for c in catalog.railway_cards if c.company == company.id]
        assert sum(v for v in values if v is not None) == 210, company.id
        assert Counter(values) == {10: 3, 20: 4, 30: 2, 40: 1}, company.id


def test_the_station_values_matrix_is_the_rules_page_s(catalog: Catalog) -> None:
    def value(company: str, number: int) -> int | None:
        return next(c.station_value for c in catalog.railway_cards if c.company == company and c.number == number)

    matrix = {company.name: [value(company.id, n) for n in range(1, 11)] for company in catalog.companies}
    assert matrix == STATION_VALUES


def test_the_other_components_are_the_rules_page_s(catalog: Catalog) -> None:
    companies = {c.id for c in catalog.companies}

    def of(family: str) -> list[Card]:
        return catalog.of_family(family)

    assert sorted(c.company or "" for c in of("stations")) == sorted(companies)
    assert {c.station_value for c in of("stations")} == {10}
    assert sorted(c.company or "" for c in of("exchanges")) == sorted(companies)
    assert {c.name: c.station_value for c in of("cities")} == {"Pittsburgh": 20, "Baltimore": 30, "New York": 40}
    assert sum(c.count for c in of("reservations")) == 3
    locos = sorted((c.reach, c.cost) for c in of("locomotives") if c.reach is not None)
    assert locos == [(3, 40), (4, 50), (5, 60), (6, 70)]
    (whole,) = [c for c in of("locomotives") if c.reach is None]
    assert whole.cost == 80
    (bringer,) = [c for c in of("locomotives") if c.brings == whole.id]
    assert bringer.reach == 6


def test_hands_lanes_and_leftovers(catalog: Catalog) -> None:
    hands = {players: hand.cards for players, hand in catalog.hands.items()}
    assert hands == {3: 15, 4: 11, 5: 9}
    for players, layout in catalog.layouts.items():
        assert len(layout.basic) == len(layout.expert) == hands[players], players
    railway = len(catalog.railway_cards)
    assert {players: railway - players * cards for players, cards in hands.items()} == {3: 5, 4: 6, 5: 5}


def test_the_basic_lanes_hold_the_invariants_of_section_1_8(catalog: Catalog) -> None:
    """Stock/operating tricks, and the Cities, Reservations, Exchanges and
    Locomotives each basic lane uses, per player count."""
    expected = {3: (8, 7, 3, 3), 4: (6, 5, 1, 1), 5: (5, 4, 0, 0)}
    finite = sorted(c.id for c in catalog.of_family("locomotives") if c.reach is not None)
    for players, (stock, operating, cities, reservations) in expected.items():
        slots = catalog.layouts[players].basic
        kinds = Counter(slots)
        assert sum(1 for s in slots if s in STOCK) == stock, players
        assert len(slots) - stock == operating, players
        assert (kinds["city"], kinds["reservation"], kinds["exchange"]) == (cities, reservations, 5), players
        assert sorted(s for s in slots if s.startswith("loco-")) == finite, players
        # Railway cards removed from the game: stock tricks less the ones a Reservation keeps.
        assert stock - reservations == 5, players


# ---------------------------------------------------------- bad input, located


def test_a_company_missing_a_number(pack: Path) -> None:
    company = shipped("companies.yaml")["companies"][2]["id"]
    card = next(c for c in cards("railway.yaml") if c["company"] == company and c["number"] == 7)
    text = read(pack, "railway.yaml")
    start = card_line(text, card["id"])
    write(pack, "railway.yaml", text[:start] + text[text.index("\n", start) + 1 :])
    problems = refused(pack)
    companies = read(pack, "companies.yaml")
    expect(problems, "companies.yaml", value_of(companies, company, "id"), f"company '{company}': has no Railway card numbered 7", "from 1 to 10 once")
    assert len(problems) == 1, problems


def test_two_cards_with_one_company_and_number(pack: Path) -> None:
    company = shipped("companies.yaml")["companies"][1]["id"]
    first = next(c for c in cards("railway.yaml") if c["company"] == company and c["number"] == 3)
    later = next(c for c in cards("railway.yaml") if c["company"] == company and c["number"] == 8)
    text = set_field(pack, "railway.yaml", later["id"], "number", 3)
    problems = refused(pack)
    expect(
        problems,
        "railway.yaml",
        value_of(text, later["id"], "number"),
        f"card '{later['id']}', field 'number': company '{company}' number 3 is already card '{first['id']}'",
        "each company holds each number once",
    )
    # Its own number is now missing, and said so at the company.
    expect(problems, "companies.yaml", value_of(read(pack, "companies.yaml"), company, "id"), "has no Railway card numbered 8")
    assert len(problems) == 2, problems


def test_a_station_value_outside_the_four_printed_ones_is_a_schema_error(pack: Path) -> None:
    card = cards("railway.yaml")[13]
    text = set_field(pack, "railway.yaml", card["id"], "stationValue", 25)
    problems = refused(pack)
    expect(problems, "railway.yaml", value_of(text, card["id"], "stationValue"), f"card '{card['id']}', field 'stationValue'", "25 is not one of: 10, 20, 30, 40")
    assert len(problems) == 1, problems


def test_a_lane_longer_than_the_hands(pack: Path) -> None:
    players = max(hand_sizes())
    hand = hand_sizes()[players]
    old = lane_line(players)
    # Two slots more that keep stock and operating alternating, within the cards there are.
    text = replace_once(pack, "lane.yaml", old, old[:-1] + ", city, reservation]")
    problems = refused(pack)
    line_start = text.index(old[:-1])
    first_extra = text.index(", city, reservation]", line_start) + len(", ")
    expect(problems, "lane.yaml", at(text, first_extra), f"the basic lane for {players} players has {hand + 2} slots, longer than the hands ({hand} cards)", "must be equal")
    assert len(problems) == 1, problems


def test_a_slot_out_of_step_is_reported_once(pack: Path) -> None:
    """A slot slipped into the middle of a lane puts every later slot out of
    step; the designer is told once, where it starts."""
    players = min(hand_sizes())
    old = lane_line(players)
    slots = old[old.index("[") + 1 : -1].split(", ")
    head = old[: old.index("[") + 1] + ", ".join(slots[:3])
    new = head + ", " + ", ".join(["exchange", *slots[3:-1]]) + "]"
    text = replace_once(pack, "lane.yaml", old, new)
    problems = refused(pack)
    inserted = text.index(new) + len(head) + len(", ")
    steps = [p for p in problems if "alternates stock and operating" in p[3]]
    assert len(steps) == 1, problems
    expect(steps, "lane.yaml", at(text, inserted), "slot 4 is a stock slot", "shifts every slot after it")


@pytest.mark.parametrize("players", [p for p in sorted(hand_sizes()) if "reservation" in lane_line(p)])
def test_a_reservation_that_cannot_be_filled_in_time(pack: Path, players: int) -> None:
    """The first Reservation swapped with the first slot: both are stock
    slots, so the lane still alternates, and only this rule is broken."""
    old = lane_line(players)
    slots = old[old.index("[") + 1 : -1].split(", ")
    first_reservation = slots.index("reservation")
    slots[0], slots[first_reservation] = slots[first_reservation], slots[0]
    new = old[: old.index("[") + 1] + ", ".join(slots) + "]"
    text = replace_once(pack, "lane.yaml", old, new)
    problems = refused(pack)
    where = at(text, text.index(new) + new.index("[") + 1)
    expect(problems, "lane.yaml", where, "Reservation 1 (slot 1) would come up unfilled", "0 stock slot(s) come before it and it needs 1")
    assert len(problems) == 1, problems


def test_a_locomotive_whose_cost_does_not_rise_with_reach(pack: Path) -> None:
    finite = sorted((c for c in cards("locomotives.yaml") if isinstance(c["reach"], int)), key=lambda c: int(c["reach"]))
    cheaper, dearer = finite[0], finite[1]
    text = set_field(pack, "locomotives.yaml", dearer["id"], "cost", cheaper["cost"])
    problems = refused(pack)
    expect(
        problems,
        "locomotives.yaml",
        value_of(text, dearer["id"], "cost"),
        "costs rise with reach",
        f"{dearer['name']} (reach {dearer['reach']}) costs {cheaper['cost']}, not more than {cheaper['name']}'s {cheaper['cost']}",
    )
    assert len(problems) == 1, problems


def _whole_and_highest() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The [∞], the highest numbered locomotive (its bringer) and the next one down."""
    locos = cards("locomotives.yaml")
    whole = next(c for c in locos if c["reach"] == "all")
    finite = sorted((c for c in locos if isinstance(c["reach"], int)), key=lambda c: int(c["reach"]))
    assert finite[-1].get("brings") == whole["id"]
    return whole, finite[-1], finite[-2]


def test_rules_across_files_still_run_beside_broken_files(pack: Path) -> None:
    """A broken section of game.yaml and a file that does not read leave out
    only themselves: a repeated id and a locomotive cost are still reported."""
    game = replace_once(pack, "game.yaml", "\ntitle:", "\ntitel:")
    write(pack, "reservations.yaml", read(pack, "reservations.yaml").replace("count: 3,", "count: [3,", 1))
    taken = cards("railway.yaml")[0]["id"]
    railway = set_field(pack, "railway.yaml", cards("railway.yaml")[1]["id"], "id", taken)
    locos = [c for c in cards("locomotives.yaml") if isinstance(c["reach"], int)]
    cheaper, dearer = locos[0], locos[1]
    locomotives = set_field(pack, "locomotives.yaml", dearer["id"], "cost", cheaper["cost"])
    problems = refused(pack)
    expect(problems, "game.yaml", at(game, game.index("titel:")), "unknown key 'titel'", "did you mean 'title'?")
    assert any(p[0] == f"{PACK}/reservations.yaml" and "YAML syntax error" in p[3] for p in problems), problems
    second = [m.start() for m in re.finditer(rf"\{{id: {re.escape(taken)},", railway)][1]
    expect(problems, "railway.yaml", at(railway, second + len("{id: ")), f"card id '{taken}' is already used in {PACK}/railway.yaml:")
    expect(problems, "locomotives.yaml", value_of(locomotives, dearer["id"], "cost"), "costs rise with reach")
    # Each mistake once: no "missing title" beside the misspelt key, no
    # missing Railway number or lane slot count following from the others.
    assert len(problems) == 4, problems


def test_the_infinite_locomotive_not_brought_by_the_highest(pack: Path) -> None:
    whole, highest, _ = _whole_and_highest()
    text = edit_record(pack, "locomotives.yaml", highest["id"], lambda line: line.replace(f", brings: {whole['id']}", ""))
    problems = refused(pack)
    expect(problems, "locomotives.yaml", record_start(text, highest["id"]), f"{highest['name']} must say 'brings: {whole['id']}'", "highest numbered locomotive")
    assert len(problems) == 1, problems


def test_the_infinite_locomotive_brought_by_the_wrong_one(pack: Path) -> None:
    whole, highest, lower = _whole_and_highest()
    edit_record(pack, "locomotives.yaml", highest["id"], lambda line: line.replace(f", brings: {whole['id']}", ""))
    text = edit_record(pack, "locomotives.yaml", lower["id"], lambda line: line.replace(", source:", f", brings: {whole['id']}, source:"))
    problems = refused(pack)
    expect(problems, "locomotives.yaml", value_of(text, lower["id"], "brings"), f"{lower['name']} brings {whole['name']}, but only the highest numbered locomotive ({highest['name']}) does")
    expect(problems, "locomotives.yaml", record_start(text, highest["id"]), f"{highest['name']} must say 'brings: {whole['id']}'")
    assert len(problems) == 2, problems


def test_the_infinite_locomotive_brought_twice(pack: Path) -> None:
    """The highest still brings it; a second bringer is refused all the same."""
    whole, highest, lower = _whole_and_highest()
    text = edit_record(pack, "locomotives.yaml", lower["id"], lambda line: line.replace(", source:", f", brings: {whole['id']}, source:"))
    problems = refused(pack)
    expect(problems, "locomotives.yaml", value_of(text, lower["id"], "brings"), f"{lower['name']} brings {whole['name']}, but only the highest numbered locomotive")
    assert len(problems) == 1, problems


def test_a_locomotive_bringing_a_numbered_one(pack: Path) -> None:
    _, highest, lower = _whole_and_highest()
    text = edit_record(pack, "locomotives.yaml", lower["id"], lambda line: line.replace(", source:", f", brings: {highest['id']}, source:"))
    problems = refused(pack)
    expect(
        problems,
        "locomotives.yaml",
        value_of(text, lower["id"], "brings"),
        f"card '{lower['id']}', field 'brings': '{highest['id']}' is a numbered locomotive; only the one that reaches 'all' (the [∞]) is brought by another",
    )
    assert len(problems) == 1, problems


@pytest.mark.parametrize("rel", ["railway.yaml", "stations.yaml", "exchanges.yaml"])
def test_an_unknown_company(pack: Path, rel: str) -> None:
    card = cards(rel)[-2]
    company = card["company"]
    typo = company[:-1] + "k" if company[-1] != "k" else company[:-1] + "c"
    text = set_field(pack, rel, card["id"], "company", typo)
    problems = refused(pack)
    expect(problems, rel, value_of(text, card["id"], "company"), f"card '{card['id']}', field 'company': '{typo}' is not a company (did you mean '{company}'?)", "companies.yaml declares")
    # That the company it meant now lacks the card is the same typo: not a second problem.
    assert len(problems) == 1, problems


@pytest.mark.parametrize("rel", ["cities.yaml", "railway.yaml", "companies.yaml"])
def test_an_undeclared_source_id_on_a_record(pack: Path, rel: str) -> None:
    records: list[dict[str, Any]] = shipped(rel)["companies" if rel == "companies.yaml" else "cards"]
    record = records[1]
    assert record["source"] == "bga"
    text = set_field(pack, rel, record["id"], "source", "bgaa")
    problems = refused(pack)
    expect(
        problems,
        rel,
        value_of(text, record["id"], "source"),
        f"{'company' if rel == 'companies.yaml' else 'card'} '{record['id']}', field 'source': 'bgaa' is not a declared edition (did you mean 'bga'?)",
        "game.yaml's sourceEditions declare: seed, rulebook, bga",
    )
    assert len(problems) == 1, problems


def test_an_undeclared_source_id_on_a_rule_value(pack: Path) -> None:
    text = replace_once(pack, "game.yaml", "\n  shareFloorSource: bga\n", "\n  shareFloorSource: rulebok\n")
    problems = refused(pack)
    expect(
        problems,
        "game.yaml",
        at(text, text.index("shareFloorSource: rulebok") + len("shareFloorSource: ")),
        "scoring 'shareFloor': source 'rulebok' is not a declared edition (did you mean 'rulebook'?)",
    )
    assert len(problems) == 1, problems


def test_an_undeclared_effect(pack: Path) -> None:
    city = cards("cities.yaml")[1]
    assert city["effect"] == "place-city"
    text = set_field(pack, "cities.yaml", city["id"], "effect", "place-cty")
    problems = refused(pack)
    expect(problems, "cities.yaml", value_of(text, city["id"], "effect"), f"card '{city['id']}', field 'effect': 'place-cty' is not declared in effects.yaml (did you mean 'place-city'?)")
    assert len(problems) == 1, problems


def test_the_railway_cards_effect_left_undeclared_is_one_problem(pack: Path) -> None:
    """Railway cards do not name their effect; dropping its declaration is
    reported once, at the first Railway card, not fifty times."""
    text = read(pack, "effects.yaml")
    start = text.index("  - id: railway-section\n")
    end = text.index("  - id: ", start + 1)
    write(pack, "effects.yaml", text[:start] + text[end:])
    problems = refused(pack)
    first = cards("railway.yaml")[0]["id"]
    expect(problems, "railway.yaml", record_start(read(pack, "railway.yaml"), first), "Railway cards take effect 'railway-section', which is not declared in effects.yaml")
    assert len(problems) == 1, problems


@pytest.mark.parametrize(
    "rel, other_rel",
    [("exchanges.yaml", "stations.yaml"), ("railway.yaml", "railway.yaml")],
    ids=["across-files", "in-one-file"],
)
def test_a_duplicate_card_id(pack: Path, rel: str, other_rel: str) -> None:
    taken = cards(other_rel)[3]["id"]
    card = cards(rel)[3 if rel != other_rel else 4]
    text = set_field(pack, rel, card["id"], "id", taken)
    problems = refused(pack)
    # Files are read in name order and records in file order: the later use
    # is refused, naming the earlier one's exact place.
    other_text = read(pack, other_rel)
    edited = [m.start() for m in re.finditer(rf"^  - \{{id: {re.escape(taken)},", text, re.M)][-1]
    original = other_text.index(f"  - {{id: {taken},")
    first, second = sorted([(rel, *at(text, edited + len("  - {id: "))), (other_rel, *at(other_text, original + len("  - {id: ")))])
    expect(problems, second[0], second[1:], f"card id '{taken}' is already used in {PACK}/{first[0]}:{first[1]}:{first[2]};", "ids are unique within the pack")
    assert len(problems) == 1, problems


def test_a_lane_slot_naming_the_infinite_locomotive(pack: Path) -> None:
    whole, _, _ = _whole_and_highest()
    players = next(p for p in sorted(hand_sizes()) if lane_line(p).count("city") == 1)
    old = lane_line(players)
    new = old.replace(", city,", f", {whole['id']},")
    text = replace_once(pack, "lane.yaml", old, new)
    problems = refused(pack)
    where = at(text, text.index(new) + new.index(whole["id"]))
    expect(problems, "lane.yaml", where, f"'{whole['id']}' is not a lane slot", "comes with the one that brings it, never from the lane")
    assert len(problems) == 1, problems


def test_a_hand_size_too_big_for_the_railway_cards(pack: Path) -> None:
    players = max(hand_sizes())
    railway = len(cards("railway.yaml"))
    too_many = railway // players + 1
    old = f"{{players: {players}, cards: {hand_sizes()[players]},"
    text = replace_once(pack, "game.yaml", old, f"{{players: {players}, cards: {too_many},")
    problems = refused(pack)
    where = at(text, text.index(f"{{players: {players}, cards: {too_many},") + len(f"{{players: {players}, cards: "))
    expect(problems, "game.yaml", where, f"{players} hands of {too_many} need {players * too_many} Railway cards; there are {railway}")
    # Both lanes for that player count are now shorter than the hands, and say so.
    lanes = [p for p in problems if p[0] == f"{PACK}/lane.yaml"]
    assert len(lanes) == 2 and all("shorter than the hands" in p[3] for p in lanes), problems
    assert len(problems) == 3, problems


def test_a_game_file_naming_another_pack(pack: Path) -> None:
    text = replace_once(pack, "game.yaml", "\nid: trickoftherails\n", "\nid: stationmaster\n")
    problems = refused(pack)
    where = at(text, text.index("\nid: stationmaster\n") + len("\nid: "))
    assert problems == [(f"{PACK}/game.yaml", *where, "game.yaml names pack 'stationmaster', but this is the trickoftherails pack's loader")]


# ---------------------------------------------------------- the command line


def _broken_copy(pack: Path) -> tuple[str, tuple[int, int]]:
    """A copy with one bad station value: the file and place of the problem."""
    card = cards("railway.yaml")[5]
    text = set_field(pack, "railway.yaml", card["id"], "stationValue", 25)
    return f"{PACK}/railway.yaml", value_of(text, card["id"], "stationValue")


def test_validate_on_a_broken_copy_prints_located_lines_and_exits_1(pack: Path, tmp_path: Path, run_cli_subprocess: Callable[..., CliResult]) -> None:
    _broken_copy(pack)
    result = run_cli_subprocess(["validate", PACK], tmp_path)
    no_traceback(result)
    assert result.code == 1, result.output
    lines = result.out.splitlines()
    assert lines and all(PROBLEM_LINE.match(line) for line in lines), result.out
    assert all(p.path.startswith(f"{PACK}/") and p.line >= 1 and p.column >= 1 for p in result.problems), result.out
    assert re.fullmatch(rf"{len(lines)} problem\(s\) in {re.escape(PACK)}\n", result.err), result.err


def test_validate_on_a_broken_copy_reports_the_content_problem(pack: Path, tmp_path: Path, run_cli_subprocess: Callable[..., CliResult]) -> None:
    path, (line, column) = _broken_copy(pack)
    result = run_cli_subprocess(["validate", PACK], tmp_path)
    no_traceback(result)
    assert result.code == 1, result.output
    assert any(p[:3] == (path, line, column) and "25 is not one of: 10, 20, 30, 40" in p[3] for p in result.located()), result.out


def test_the_editions_are_dated_with_their_sources(catalog: Catalog) -> None:
    first = catalog.published[0]
    assert (first.year, first.publisher) == (2011, "OKAZU Brand") and set(first.sources) == {"dwp", "bga"}
    # Another listing gives 2012: the content says so beside the year it cites.
    assert first.note is not None and "2012" in first.note
    assert all(source in catalog.editions for p in catalog.published for source in p.sources)


def test_an_edition_citing_an_undeclared_source(pack: Path) -> None:
    replace_once(pack, "game.yaml", "sources: [dwp, bga]", "sources: [dwp, bgg]")
    text = read(pack, "game.yaml")
    problems = refused(pack)
    expect(problems, "game.yaml", at(text, text.index("bgg]")), "field 'published[", "].sources[1]': 'bgg' is not a declared edition", "did you mean 'bga'")
    assert len(problems) == 1, problems
