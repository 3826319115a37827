"""``stationmaster validate``'s checks across records and files: duplicate
ids, references to nothing, pairs and ladders that must agree, and the facts
the engine reads from content (labels, categories, restrictions, crossing
tables), each located where a designer would fix it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
import yaml

from tests.kit.validate import Validate, at, card_at, card_span, cards, expect_problem, misspell, read, set_consist, shipped, sub, value_at, write

# -- cross-file rules --------------------------------------------------------


@pytest.mark.parametrize(
    "rel, nth, other_rel, other_nth",
    [
        ("home-deck/enhancements.yaml", 1, "home-deck/facilities.yaml", 1),
        ("home-deck/maneuvers.yaml", 2, "home-deck/maneuvers.yaml", 1),
    ],
    ids=["across-two-files", "within-one-file"],
)
def test_duplicate_card_id(content_copy: Path, validate: Validate, rel: str, nth: int, other_rel: str, other_nth: int) -> None:
    dup = cards(other_rel)[other_nth - 1]["id"]
    text, off = sub(content_copy, rel, r"^  - id: .*$", f"  - id: {dup}", nth=nth)
    other_text = read(content_copy, other_rel)
    edited = (f"content/{rel}", *value_at(text, off))
    original = (f"content/{other_rel}", *value_at(other_text, other_text.index(f"  - id: {dup}\n")))
    # Files are read in name order and cards in file order: the later use is
    # reported, naming the earlier one's exact place.
    first, second = sorted([edited, original])
    result = validate()
    expect_problem(result, *second, f"card id '{dup}' is already used in {first[0]}:{first[1]}:{first[2]}", "unique")
    # The two cards under one id cause nothing else: a reference to the id is
    # not reported as pointing at the wrong kind of card.
    assert len(result.problems) == 1, result.out


DANGLING = [
    pytest.param("home-deck/facilities.yaml", r"lockouts: \[([\w-]+)", "field 'lockouts[0]': '{bad}' is not a known facility", id="lockout-partner"),
    pytest.param("home-deck/modifiers.yaml", r"hosts: \[([\w-]+)", "field 'hosts[0]': '{bad}' is not a known facility", id="modifier-host"),
    pytest.param("home-deck/enhancements.yaml", r"answers: \[([\w-]+)", "field 'answers[0]': '{bad}' is not a known opponent-directed card", id="enhancement-answers"),
    pytest.param("home-deck/opponent.yaml", r"answers: \[([\w-]+)", "field 'answers[0]': '{bad}' is not a known opponent-directed card", id="defence-answers"),
    pytest.param("home-deck/mainline-modifiers.yaml", r"playOn: \[([\w-]+)", "field 'playOn[0]': '{bad}' is not a known Mainline terrain card", id="mainline-modifier-host"),
    pytest.param("home-deck/mainline-modifiers.yaml", r"requires: ([\w-]+)", "field 'requires': '{bad}' is not a known Mainline modifier", id="requires"),
]


@pytest.mark.parametrize("rel, pattern, says", DANGLING)
def test_dangling_reference(content_copy: Path, validate: Validate, rel: str, pattern: str, says: str) -> None:
    good = cast("re.Match[str]", re.search(pattern, read(content_copy, rel), re.M))[1]
    bad = good + "q"
    text, off = sub(content_copy, rel, pattern, misspell)
    card = card_at(text, off)
    entry = text.index(bad, off)
    field = text.index(": ", off) + 2  # the list (or the scalar) holding it
    result = validate()
    assert result.code == 1, result.output
    problems = [p for p in result.problems if f"card '{card}', " + says.format(bad=bad) in p.message]
    assert len(problems) == 1, result.out
    (problem,) = problems
    assert f"(did you mean '{good}'?)" in problem.message
    assert problem.path == f"content/{rel}"
    # On the line of the reference: at the entry itself, or at its one-line list.
    assert problem.line == at(text, entry)[0], problem
    assert problem.column in (at(text, entry)[1], at(text, field)[1]), problem


def _as_block_list_plus(field: str) -> Callable[[re.Match[str]], str]:
    def repl(m: re.Match[str]) -> str:
        items = [i.strip() for i in m.group(1).split(",")]
        return f"    {field}:\n" + "".join(f"      - {i}\n" for i in items + [items[0] + "q"])

    return repl


@pytest.mark.parametrize(
    "rel, field, says",
    [
        ("home-deck/modifiers.yaml", "hosts", "field 'hosts[{i}]': '{bad}' is not a known facility"),
        ("home-deck/opponent.yaml", "answers", "field 'answers[{i}]': '{bad}' is not a known"),
        ("home-deck/facilities.yaml", "lockouts", "field 'lockouts[{i}]': '{bad}' is not a known facility"),
    ],
    ids=["modifier-host", "answers", "lockout"],
)
def test_dangling_entry_of_a_block_list_points_at_the_entry(content_copy: Path, validate: Validate, rel: str, field: str, says: str) -> None:
    text, off = sub(content_copy, rel, rf"^    {field}: \[(.*)\]\n", _as_block_list_plus(field))
    bad = re.findall(r"^      - (\S+)$", text[off:], re.M)[-1]
    entry = text.index(f"- {bad}\n", off) + 2
    result = validate()
    assert result.code == 1, result.output
    index = len(re.findall(r"^      - ", text[off:entry], re.M)) - 1  # the entry's place in its list
    found = [p for p in result.problems if says.format(bad=bad, i=index) in p.message]
    assert found, result.out
    assert (found[0].line, found[0].column) == at(text, entry), f"{found[0]}; the reference is at {at(text, entry)}"


@pytest.mark.parametrize("end", ["target", "source"])
def test_dangling_realign_entry_points_at_the_entry(content_copy: Path, validate: Validate, end: str) -> None:
    text = read(content_copy, "home-deck/mainline-modifiers.yaml")
    block = cast("re.Match[str]", re.search(r"^    realign:\n((?:      .*\n)+)", text, re.M))
    entries = block.group(1).splitlines()
    assert len(entries) >= 2, "the realign map needs two entries for this test"
    last = entries[-1]
    source, target = (s.strip() for s in last.split(":"))
    new = f"      {source}: {target}q" if end == "target" else f"      {source}q: {target}"
    text, off = sub(content_copy, "home-deck/mainline-modifiers.yaml", rf"^{re.escape(last)}$", new)
    bad = target + "q" if end == "target" else source + "q"
    result = validate()
    found = [p for p in result.problems if f"field 'realign.{source}{'q' if end == 'source' else ''}': '{bad}' is not a known Mainline terrain card" in p.message]
    assert found, result.out
    assert (found[0].line, found[0].column) == at(text, text.index(bad, off)), found[0]


def test_asymmetric_lockout_pair(content_copy: Path, validate: Validate) -> None:
    facilities = cards("home-deck/facilities.yaml")
    a = next(c for c in facilities if c.get("lockouts"))
    b = a["lockouts"][0]
    partner_list = [x for x in next(c for c in facilities if c["id"] == b)["lockouts"] if x != a["id"]]
    repl = f"    lockouts: [{', '.join(partner_list)}]\n" if partner_list else ""
    sub(content_copy, "home-deck/facilities.yaml", r"^    lockouts: .*\n", repl, card=b)
    text = read(content_copy, "home-deck/facilities.yaml")
    lo, _ = card_span(text, a["id"])
    field = text.index("lockouts: [", lo) + len("lockouts: [")  # the entry inside the list
    result = validate()
    expect_problem(
        result,
        "content/home-deck/facilities.yaml",
        *at(text, field),
        f"card '{a['id']}': locks out '{b}', but '{b}' does not list '{a['id']}' in its lockouts",
        "symmetric",
    )
    assert len(result.problems) == 1, result.out


def test_lockout_pair_of_different_commodities(content_copy: Path, validate: Validate) -> None:
    facilities = {c["id"]: c for c in cards("home-deck/facilities.yaml")}
    pairs = []
    for c in facilities.values():
        if c["traffic"] == "outbound" and len(c.get("lockouts", [])) == 1:
            partner = facilities[c["lockouts"][0]]
            if partner["traffic"] == "inbound" and partner.get("lockouts") == [c["id"]]:
                pairs.append((c, partner))
    (p1, c1), (p2, c2) = next((x, y) for i, x in enumerate(pairs) for y in pairs[i + 1 :] if x[0]["commodity"] != y[0]["commodity"])
    # Re-pair consistently (each side lists the other) but across commodities.
    for card, other in ((p1, c2), (c2, p1), (p2, c1), (c1, p2)):
        sub(content_copy, "home-deck/facilities.yaml", r"^    lockouts: .*$", f"    lockouts: [{other['id']}]", card=card["id"])
    text = read(content_copy, "home-deck/facilities.yaml")
    lo, _ = card_span(text, p1["id"])
    field = text.index("lockouts: [", lo) + len("lockouts: [")  # the entry inside the list
    result = validate()
    expect_problem(
        result,
        "content/home-deck/facilities.yaml",
        *at(text, field),
        f"card '{p1['id']}': lockout pair with '{c2['id']}' mixes commodities ({p1['commodity']} and {c2['commodity']})",
    )
    # Each of the four cards in the two mixed pairs is named.
    named = {p.message.split("'")[1] for p in result.problems}
    assert named == {p1["id"], c1["id"], p2["id"], c2["id"]}, result.out
    assert all("mixes commodities" in p.message for p in result.problems)


def test_undeclared_effect_with_did_you_mean(content_copy: Path, validate: Validate) -> None:
    good = cast("re.Match[str]", re.search(r"^    effect: ([\w-]+)", read(content_copy, "home-deck/maneuvers.yaml"), re.M))[1]
    text, off = sub(content_copy, "home-deck/maneuvers.yaml", r"^    effect: ([\w-]+)", misspell)
    result = validate()
    expect_problem(
        result,
        "content/home-deck/maneuvers.yaml",
        *value_at(text, off),
        f"card '{card_at(text, off)}', field 'effect': '{good}q' is not declared in effects.yaml",
        f"(did you mean '{good}'?)",
    )
    assert len(result.problems) == 1, result.out


def _office_ladder() -> list[dict[str, Any]]:
    tiers = cards("home-deck/offices.yaml")
    ladder = [next(t for t in tiers if "upgradesFrom" not in t)]
    while nxt := [t for t in tiers if t.get("upgradesFrom") == ladder[-1]["id"]]:
        ladder.append(nxt[0])
    assert len(ladder) >= 3, "the office ladder needs three tiers for these tests"
    return ladder


def test_office_tier_out_of_sequence(content_copy: Path, validate: Validate) -> None:
    base, second, third = _office_ladder()[:3]
    text, off = sub(content_copy, "home-deck/offices.yaml", r"^    upgradesFrom: .*$", f"    upgradesFrom: {base['id']}", card=third["id"])
    result = validate()
    expect_problem(
        result,
        "content/home-deck/offices.yaml",
        *value_at(text, off),
        f"card '{third['id']}': '{base['id']}' already upgrades to '{second['id']}'",
        "strict sequence",
    )


def test_upgrades_from_typo_is_one_problem(content_copy: Path, validate: Validate) -> None:
    """The tiers above a misspelt upgradesFrom are off the ladder only
    because of it: no "loop" is reported for them."""
    base, second = _office_ladder()[:2]
    text, off = sub(content_copy, "home-deck/offices.yaml", r"^    upgradesFrom: .*$", f"    upgradesFrom: {base['id']}x", card=second["id"])
    result = validate()
    expect_problem(
        result, "content/home-deck/offices.yaml", *value_at(text, off), f"card '{second['id']}', field 'upgradesFrom': '{base['id']}x' is not a known office tier", f"did you mean '{base['id']}'?"
    )
    assert len(result.problems) == 1, result.out


def test_upgrades_from_loop_is_one_problem(content_copy: Path, validate: Validate) -> None:
    ladder = _office_ladder()
    text, off = sub(content_copy, "home-deck/offices.yaml", r"^    upgradesFrom: .*$", f"    upgradesFrom: {ladder[-1]['id']}", card=ladder[1]["id"])
    result = validate()
    loop = " -> ".join(t["id"] for t in [ladder[1], *reversed(ladder[1:])])
    expect_problem(
        result, "content/home-deck/offices.yaml", *value_at(text, off), f"card '{ladder[1]['id']}': upgradesFrom goes round in a loop ({loop})", f"never reaches the base tier '{ladder[0]['id']}'"
    )
    assert len(result.problems) == 1, result.out


def test_one_wrong_tier_count_is_one_problem(content_copy: Path, validate: Validate) -> None:
    """A middle tier's wrong count is not also blamed on the tier above it."""
    ladder = _office_ladder()
    lower, middle = ladder[0], ladder[1]
    text, off = sub(content_copy, "home-deck/offices.yaml", r"^    adTracks: .*$", f"    adTracks: {middle['adTracks'] + 1}", card=middle["id"])
    result = validate()
    expect_problem(
        result,
        "content/home-deck/offices.yaml",
        *value_at(text, off),
        f"card '{middle['id']}': each tier adds exactly one to adTracks ({lower['id']} has {lower['adTracks']}, so {middle['id']} needs {middle['adTracks']})",
    )
    assert len(result.problems) == 1, result.out


def test_office_tier_must_add_exactly_one_ad_track(content_copy: Path, validate: Validate) -> None:
    *_, lower, top = _office_ladder()
    wrong = top["adTracks"] + 1
    text, off = sub(content_copy, "home-deck/offices.yaml", r"^    adTracks: .*$", f"    adTracks: {wrong}", card=top["id"])
    result = validate()
    expect_problem(
        result,
        "content/home-deck/offices.yaml",
        *value_at(text, off),
        f"card '{top['id']}': each tier adds exactly one to adTracks ({lower['id']} has {lower['adTracks']}, so {top['id']} needs {lower['adTracks'] + 1})",
    )
    assert len(result.problems) == 1, result.out


def test_consist_with_caboose_over_the_crew_tray(content_copy: Path, validate: Validate) -> None:
    pieces = shipped("game.yaml")["table"]["crewTrayPieces"]
    text, off, card = set_consist(content_copy, f"{{freight: {pieces}}}", caboose=True)
    result = validate()
    expect_problem(
        result,
        "content/home-deck/trains.yaml",
        *value_at(text, off),
        f"card '{card}': {pieces} car(s) and a caboose need {pieces + 1} places; a Crew Tray holds {pieces}",
    )
    assert len(result.problems) == 1, result.out


def test_consist_alone_over_the_crew_tray(content_copy: Path, validate: Validate) -> None:
    pieces = shipped("game.yaml")["table"]["crewTrayPieces"]
    text, off, card = set_consist(content_copy, f"{{coach: {pieces - 1}, freight: 2}}", caboose=False)
    result = validate()
    expect_problem(
        result,
        "content/home-deck/trains.yaml",
        *value_at(text, off),
        f"card '{card}': {pieces + 1} car(s) need {pieces + 1} places; a Crew Tray holds {pieces}",
    )
    assert len(result.problems) == 1, result.out


def test_consist_that_exactly_fills_the_crew_tray_is_fine(content_copy: Path, validate: Validate) -> None:
    pieces = shipped("game.yaml")["table"]["crewTrayPieces"]
    set_consist(content_copy, f"{{coach: {pieces - 1}}}", caboose=True)
    result = validate()
    assert result.code == 0, result.output


def _bad_base_tier(content: Path) -> tuple[str, int, str]:
    base = _office_ladder()[0]["id"]
    text, off = sub(content, "home-deck/offices.yaml", r"^    controlPoint: .*$", "    controlPoint: no", card=base)
    return text, off, "base tier"


def _bad_division_point(content: Path) -> tuple[str, int, str]:
    west = next(c for c in cards("mainline.yaml") if c.get("end") == "west")["id"]
    text, off = sub(content, "mainline.yaml", r"^    count: .*$", "    count: yes", card=west)
    return text, off, "Division Point"


@pytest.mark.parametrize("damage", [_bad_base_tier, _bad_division_point], ids=["base-office-tier", "division-point"])
def test_one_bad_value_gives_one_problem(content_copy: Path, validate: Validate, damage: Callable[[Path], tuple[str, int, str]]) -> None:
    text, off, follow_on = damage(content_copy)
    rel = "home-deck/offices.yaml" if follow_on == "base tier" else "mainline.yaml"
    result = validate()
    expect_problem(result, f"content/{rel}", *value_at(text, off), "got the text")
    assert [p for p in result.problems if follow_on in p.message] == []
    assert len(result.problems) == 1, result.out


# -- facts the engine reads from content -------------------------------------


def test_track_label_longer_than_the_grid_cell(content_copy: Path, validate: Validate) -> None:
    card = cards("home-deck/track.yaml")[0]["id"]
    text, off = sub(content_copy, "home-deck/track.yaml", r"^    label: .*$", "    label: Tenletters", card=card)
    result = validate()
    expect_problem(result, "content/home-deck/track.yaml", *value_at(text, off), "label", "9")
    assert len(result.problems) == 1, result.out


def test_two_track_cards_with_one_label(content_copy: Path, validate: Validate) -> None:
    first, second = cards("home-deck/track.yaml")[:2]
    text, off = sub(content_copy, "home-deck/track.yaml", r"^    label: .*$", f"    label: {first['label']}", card=second["id"])
    result = validate()
    expect_problem(
        result,
        "content/home-deck/track.yaml",
        *value_at(text, off),
        f"card '{second['id']}': label '{first['label']}' is already the label of '{first['id']}'",
    )
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    ("pattern", "repl", "fragment"),
    [
        (r"^  loadWorked: .*$", "  loadWorked: -1", "scoring.loadWorked"),
        (r"^  departmentCards: .*$", "  departmentCards: one", "setup.departmentCards"),
        (r"^  oddNumbersHead: .*$", "  oddNumbersHead: north", "not one of: east, west"),
    ],
)
def test_bad_game_fact(content_copy: Path, validate: Validate, pattern: str, repl: str, fragment: str) -> None:
    text, off = sub(content_copy, "game.yaml", pattern, repl)
    result = validate()
    expect_problem(result, "content/game.yaml", *value_at(text, off), fragment)
    assert len(result.problems) == 1, result.out


def test_car_category_must_be_coach_or_freight(content_copy: Path, validate: Validate) -> None:
    text, off = sub(content_copy, "supplies.yaml", r"category: freight", "category: fright")
    result = validate()
    expect_problem(result, "content/supplies.yaml", *at(text, off + len("category: ")), "not one of: coach, freight", "did you mean 'freight'?")
    assert len(result.problems) == 1, result.out


def _limiting_restriction() -> tuple[str, str]:
    """A restriction that limits a train to some car types, and its first type."""
    rid, rule = next((k, v) for k, v in shipped("home-deck/trains.yaml")["restrictions"].items() if v.get("carTypes"))
    return rid, rule["carTypes"][0]


def test_restriction_car_type_that_is_a_coach(content_copy: Path, validate: Validate) -> None:
    rid, kind = _limiting_restriction()
    sub(content_copy, "supplies.yaml", rf"^  {kind}: \{{count: (\d+), category: freight\}}$", rf"  {kind}: {{count: \1, category: coach}}")
    text = read(content_copy, "home-deck/trains.yaml")
    line = text.index(f"  {rid}: ")
    where = text.index("carTypes: [", line) + len("carTypes: [")
    result = validate()
    expect_problem(result, "content/home-deck/trains.yaml", *at(text, where), f"restriction '{rid}': '{kind}' is a coach car in supplies.yaml")
    assert len(result.problems) == 1, result.out


def test_restriction_car_type_missing_from_the_supplies(content_copy: Path, validate: Validate) -> None:
    rid, kind = _limiting_restriction()
    sub(content_copy, "supplies.yaml", rf"^  {kind}: .*\n", "")
    text = read(content_copy, "home-deck/trains.yaml")
    line = text.index(f"  {rid}: ")
    where = text.index("carTypes: [", line) + len("carTypes: [")
    result = validate()
    expect_problem(result, "content/home-deck/trains.yaml", *at(text, where), f"restriction '{rid}': car type '{kind}' is not among the cars in supplies.yaml")


def test_train_restriction_with_no_words(content_copy: Path, validate: Validate) -> None:
    train = next(c for c in cards("home-deck/trains.yaml") if c.get("restrictions"))
    rid = train["restrictions"][0]
    sub(content_copy, "home-deck/trains.yaml", rf"^  {rid}: .*\n", "")
    text = read(content_copy, "home-deck/trains.yaml")
    lo, _ = card_span(text, train["id"])
    where = text.index("restrictions: [", lo) + len("restrictions: [")
    result = validate()
    expect_problem(result, "content/home-deck/trains.yaml", *at(text, where), f"card '{train['id']}': restriction '{rid}' has no entry under restrictions")


def test_terrain_speed_missing_from_the_crossing_table(content_copy: Path, validate: Validate) -> None:
    rows = shipped("mainline.yaml")["crossing"]["stagesAtMph"]
    dropped = rows[-1]["mph"]
    sub(content_copy, "mainline.yaml", rf"^    - \{{mph: {dropped}, .*\n", "")
    text = read(content_copy, "mainline.yaml")
    slow = [c for c in shipped("mainline.yaml")["cards"] if c.get("speedMph", {}).get("passenger") == dropped]
    assert slow, "no terrain card runs at the dropped speed"
    lo, _ = card_span(text, slow[0]["id"])
    where = text.index("passenger: ", lo) + len("passenger: ")
    result = validate()
    expect_problem(result, "content/mainline.yaml", *at(text, where), f"card '{slow[0]['id']}': no crossing time for {dropped} mph")


def test_crossing_table_lists_a_speed_twice(content_copy: Path, validate: Validate) -> None:
    rows = shipped("mainline.yaml")["crossing"]["stagesAtMph"]
    text, off = sub(content_copy, "mainline.yaml", rf"^    - \{{mph: {rows[0]['mph']}, ", f"    - {{mph: {rows[0]['mph']}, stages: 1}}\n    - {{mph: {rows[0]['mph']}, ")
    second = text.index(f"- {{mph: {rows[0]['mph']}", off + len("    - {")) + len("- {mph: ")
    result = validate()
    expect_problem(result, "content/mainline.yaml", *at(text, second), f"crossing: {rows[0]['mph']} mph is listed twice")
    assert len(result.problems) == 1, result.out


def test_mainline_file_without_its_crossing_table(content_copy: Path, validate: Validate) -> None:
    sub(content_copy, "mainline.yaml", r"^crossing:\n(?:  .*\n)+", "")
    result = validate()
    assert result.code == 1, result.output
    assert any(p.path == "content/mainline.yaml" and "missing required key 'crossing'" in p.message for p in result.problems), result.out


def _second_file(content: Path, rel: str, new_rel: str, change: tuple[str, str], card: str) -> str:
    """A second file of one family: the first file's pack-wide tables with one
    change, then a single card of its own."""
    text = read(content, rel)
    head = text[: text.index("cards:\n")]
    assert head.count(change[0]) == 1, f"{change[0]!r} not in the head of {rel}"
    return str(write(content, new_rel, head.replace(change[0], change[1]) + "cards:\n" + card))


def test_two_trains_files_that_word_a_restriction_differently(content_copy: Path, validate: Validate) -> None:
    rid, rule = next(iter(shipped("home-deck/trains.yaml")["restrictions"].items()))
    text = _second_file(
        content_copy,
        "home-deck/trains.yaml",
        "home-deck/x-trains.yaml",
        (f"words: {rule['words']}", f"words: {rule['words']} here"),
        '  - id: train-99\n    name: No. 99 Test\n    count: 0\n    number: "99"\n    service: timetabled\n    speed: fast\n    consist: {coach: 1}\n    caboose: false\n    source: homeDeck-0.8.6\n',
    )
    result = validate()
    expect_problem(
        result,
        "content/home-deck/x-trains.yaml",
        *at(text, text.index(f"  {rid}: ") + len(f"  {rid}: ")),
        f"restriction '{rid}' differs from its entry in content/home-deck/trains.yaml",
    )
    assert len(result.problems) == 1, result.out


_PLAINS_TWO = "  - id: plains-two\n    name: Plains Two\n    count: 0\n    role: terrain\n    speedMph: {passenger: 60, freight: 60}\n    source: mainline-0.4.5\n"


def test_two_mainline_files_with_different_crossing_tables(content_copy: Path, validate: Validate) -> None:
    adds = shipped("mainline.yaml")["crossing"]["slowTrainAdds"]
    text = _second_file(
        content_copy,
        "mainline.yaml",
        "more-mainline.yaml",
        (f"slowTrainAdds: {adds}", f"slowTrainAdds: {adds + 1}"),
        _PLAINS_TWO,
    )
    result = validate()
    expect_problem(result, "content/more-mainline.yaml", *at(text, text.index("crossing:")), "this crossing table differs from the one in content/mainline.yaml")
    assert len(result.problems) == 1, result.out


def test_two_mainline_files_that_source_the_crossing_table_differently(content_copy: Path, validate: Validate) -> None:
    text = _second_file(
        content_copy,
        "mainline.yaml",
        "more-mainline.yaml",
        ("  fewestStages: mainline-0.4.5\n", "  fewestStages:\n    designed: A floor chosen for this test.\n"),
        _PLAINS_TWO,
    )
    result = validate()
    expect_problem(result, "content/more-mainline.yaml", *at(text, text.index("crossingSources:")), "these crossing sources differ from the ones in content/mainline.yaml")
    assert len(result.problems) == 1, result.out


def test_two_trains_files_that_source_a_restriction_differently(content_copy: Path, validate: Validate) -> None:
    rid = "emptiesOnly"
    text = _second_file(
        content_copy,
        "home-deck/trains.yaml",
        "home-deck/x-trains.yaml",
        (f"  {rid}: {{words: empties only, source: homeDeck-0.8.6}}", f"  {rid}: {{words: empties only, source: homeDeck-0.8.0.15}}"),
        '  - id: train-99\n    name: No. 99 Test\n    count: 0\n    number: "99"\n    service: timetabled\n    speed: fast\n    consist: {coach: 1}\n    caboose: false\n    source: homeDeck-0.8.6\n',
    )
    result = validate()
    expect_problem(
        result,
        "content/home-deck/x-trains.yaml",
        *at(text, text.index(f"  {rid}: ") + len(f"  {rid}: ")),
        f"restriction '{rid}' differs from its entry in content/home-deck/trains.yaml",
    )
    assert len(result.problems) == 1, result.out


# -- one mistake, one problem, worded alike in both packs ----------------------

SM, TOTR = "stationmaster", "trickoftherails"


def _misspelt(content: Path, rel: str, pattern: str, typo: str = "q") -> tuple[str, int, str, str]:
    """Misspell the first reference ``pattern`` captures (``typo`` typed
    after it): the new text, the reference's offset, the name it had and
    the one it has now."""
    text, off = sub(content, rel, pattern, lambda m: m[0][: m.end(1) - m.start()] + typo + m[0][m.end(1) - m.start() :])
    m = cast("re.Match[str]", re.compile(pattern, re.M).match(text, off))
    return text, m.start(1), m[1][: -len(typo)], m[1]


def _record(text: str, offset: int) -> str:
    """Id of the card whose record (block or one-line) holds ``offset``."""
    found: list[str] = re.findall(r"^  - \{?id: ([\w-]+)", text[: offset + 1], re.M)
    return found[-1]


@pytest.mark.parametrize(
    "pack, rel, pattern, field, says",
    [
        (SM, "home-deck/facilities.yaml", r"lockouts: \[([\w-]+)", "lockouts[0]", "'{bad}' is not a known facility (did you mean '{good}'?)"),
        (TOTR, "locomotives.yaml", r"brings: ([\w-]+)", "brings", "'{bad}' is not a locomotive (did you mean '{good}'?)"),
        (TOTR, "stations.yaml", r"^  - \{.*?company: ([\w-]+)", "company", "'{bad}' is not a company (did you mean '{good}'?)"),
        (TOTR, "railway.yaml", r"^  - \{.*?company: ([\w-]+)", "company", "'{bad}' is not a company (did you mean '{good}'?)"),
    ],
    ids=["sm-lockout", "totr-brings", "totr-station-company", "totr-railway-company"],
)
def test_a_misspelt_reference_is_one_problem(pack_copy: Callable[[str], Path], validate_pack: Validate, pack: str, rel: str, pattern: str, field: str | None, says: str) -> None:
    """The partner that no longer locks it out, the [∞] no longer brought,
    the company now short of a card: each follows from the typo, and is
    not reported beside it."""
    content = pack_copy(pack)
    text, ref, good, bad = _misspelt(content, rel, pattern)
    result = validate_pack(content)
    who = f"card '{_record(text, ref)}'" + (f", field '{field}'" if field else "")
    expect_problem(result, f"content/{rel}", *at(text, ref), f"{who}: " + says.format(bad=bad, good=good))
    assert len(result.problems) == 1, result.out


def test_a_misspelt_lane_slot_is_one_problem(pack_copy: Callable[[str], Path], validate_pack: Validate) -> None:
    """A misspelt locomotive slot: the locomotive is not also said to be missing from the lane."""
    content = pack_copy(TOTR)
    text, ref, good, bad = _misspelt(content, "lane.yaml", r"basic: \[(?:[\w-]+, )*?(loco-[\w-]+)")
    result = validate_pack(content)
    expect_problem(result, "content/lane.yaml", *at(text, ref), "field 'layouts[", "].basic[", f"]': '{bad}' is not a lane slot (did you mean '{good}'?)")
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    "pack, rel, pattern, typo",
    [(SM, "home-deck/facilities.yaml", r"^    source: (homeDeck-[\w.-]+)$", "9"), (TOTR, "railway.yaml", r"source: ([\w-]+)", "q")],
    ids=["sm", "totr"],
)
def test_an_undeclared_edition_is_worded_alike_in_both_packs(pack_copy: Callable[[str], Path], validate_pack: Validate, pack: str, rel: str, pattern: str, typo: str) -> None:
    """One function words it for every pack: only the names differ."""
    content = pack_copy(pack)
    text, ref, good, bad = _misspelt(content, rel, pattern, typo)
    declared = ", ".join(yaml.safe_load(read(content, "game.yaml"))["sourceEditions"])
    result = validate_pack(content)
    expect_problem(
        result,
        f"content/{rel}",
        *at(text, ref),
        f"card '{_record(text, ref)}', field 'source': '{bad}' is not a declared edition (did you mean '{good}'?); game.yaml's sourceEditions declare: {declared}",
    )
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    "rel, pattern, field, says",
    [
        ("cities.yaml", r"effect: ([\w-]+)", "effect", "'{bad}' is not declared in effects.yaml (did you mean '{good}'?)"),
        ("locomotives.yaml", r"brings: ([\w-]+)", "brings", "'{bad}' is not a locomotive"),
        ("stations.yaml", r"^  - \{.*?company: ([\w-]+)", "company", "'{bad}' is not a company"),
    ],
    ids=["effect", "brings", "company"],
)
def test_trick_of_the_rails_cross_file_messages_name_card_and_field(pack_copy: Callable[[str], Path], validate_pack: Validate, rel: str, pattern: str, field: str, says: str) -> None:
    content = pack_copy(TOTR)
    text, ref, good, bad = _misspelt(content, rel, pattern)
    result = validate_pack(content)
    expect_problem(result, f"content/{rel}", *at(text, ref), f"card '{_record(text, ref)}', field '{field}': " + says.format(bad=bad, good=good))
