"""``stationmaster validate`` against the schemas: unknown keys (with a
did-you-mean), values of the wrong type, counts, missing keys, enum values
out of range, and the ``$schema`` line each file opens with."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest

from engine.content.yamlread import read_yaml
from tests.kit.validate import Validate, at, card_at, card_start, expect_problem, position, read, schema_key, sub, value_at, write

# -- keys ------------------------------------------------------------------


@pytest.mark.parametrize(
    "rel, pattern, indent, wrong, right, where",
    [
        ("game.yaml", r"^  dieSides:", 2, "dieSide", "dieSides", "field 'table.dieSide'"),
        ("home-deck/trains.yaml", r"^    caboose:", 4, "cabose", "caboose", "card '{card}', field 'cabose'"),
        ("home-deck/facilities.yaml", r"^  laborers:", 2, "laborer", "laborers", "field 'everyFacility.laborer'"),
    ],
    ids=["table-constant", "card-field", "nested-block"],
)
def test_unknown_key_with_did_you_mean(content_copy: Path, validate: Validate, rel: str, pattern: str, indent: int, wrong: str, right: str, where: str) -> None:
    text, off = sub(content_copy, rel, pattern, " " * indent + wrong + ":")
    where = where.format(card=card_at(text, off) if "{card}" in where else "")
    result = validate()
    expect_problem(
        result,
        f"content/{rel}",
        *at(text, off + indent),
        where,
        f"unknown key '{wrong}'",
        f"(did you mean '{right}'?)",
    )
    # The misspelt key also leaves the real one missing: one mistake, said once.
    assert len(result.problems) == 1, result.out


# -- values and types --------------------------------------------------------


@pytest.mark.parametrize(
    "rel, key, value, fragments",
    [
        ("game.yaml", "  handLimit", "three", ["field 'table.handLimit'", "expected a whole number, got the text 'three' (a number is written in digits, as handLimit: 1)"]),
        ("home-deck/facilities.yaml", "    count", "one", ["card '{card}', field 'count'", "got the text 'one' (a number is written in digits, as count: 1)"]),
        ("home-deck/facilities.yaml", "    count", '"1"', ["card '{card}', field 'count'", "write 1 without quotes: the quotes make it text, where a whole number is expected"]),
        ("game.yaml", "  handLimit", '"3"', ["field 'table.handLimit'", "write 3 without quotes: the quotes make it text"]),
        ("home-deck/facilities.yaml", "    inboundBoxes", "[0]", ["card '{card}', field 'inboundBoxes'", "expected a whole number, got a list"]),
        ("home-deck/maneuvers.yaml", "    name", "42", ["card '{card}', field 'name'", "expected text, got the number 42"]),
    ],
    ids=["word-for-integer", "word-for-count", "quoted-count", "quoted-integer", "list-for-integer", "integer-for-text"],
)
def test_wrong_type(content_copy: Path, validate: Validate, rel: str, key: str, value: str, fragments: list[str]) -> None:
    text, off = sub(content_copy, rel, rf"^{key}: .*$", f"{key}: {value}")
    fragments = [f.format(card=card_at(text, off)) if "{card}" in f else f for f in fragments]
    result = validate()
    expect_problem(result, f"content/{rel}", *value_at(text, off), *fragments)
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize("word, meant", [("yes", "true"), ("no", "false"), ("on", "true"), ("off", "false")])
def test_yaml11_boolean_words_stay_text(content_copy: Path, validate: Validate, word: str, meant: str) -> None:
    text, off = sub(content_copy, "home-deck/trains.yaml", r"^    caboose: .*$", f"    caboose: {word}")
    result = validate()
    expect_problem(
        result,
        "content/home-deck/trains.yaml",
        *value_at(text, off),
        f"card '{card_at(text, off)}', field 'caboose'",
        f"expected true or false, got the text '{word}'",
        f"write {meant}",
    )
    assert len(result.problems) == 1, result.out


def test_reader_keeps_yaml11_words_as_strings() -> None:
    doc = read_yaml("a: yes\nb: no\nc: on\nd: off\ne: y\nf: n\ng: true\nh: 2026-09-29\ni: 012\nj: ~\n")
    assert doc.value == {"a": "yes", "b": "no", "c": "on", "d": "off", "e": "y", "f": "n", "g": True, "h": "2026-09-29", "i": 12, "j": None}
    assert type(doc.value["a"]) is str and type(doc.value["g"]) is bool


@pytest.mark.parametrize(
    "value, fragment",
    [
        ("-1", "the number -1 is below the minimum 0"),
        ("100000", "the number 100000 is above the maximum 40"),
        ("9" * 5000, "is far too long"),
    ],
    ids=["negative", "absurd", "5000-digits"],
)
def test_bad_counts(content_copy: Path, validate: Validate, value: str, fragment: str) -> None:
    text, off = sub(content_copy, "home-deck/facilities.yaml", r"^    count: .*$", f"    count: {value}")
    result = validate()
    where = expect_problem(result, "content/home-deck/facilities.yaml", *value_at(text, off), fragment)
    assert len(result.problems) == 1, result.out
    if len(value) > 100:
        assert len(where) < 300, "the huge literal is echoed back whole"
    else:
        assert f"card '{card_at(text, off)}', field 'count'" in where


def test_missing_required_key_of_a_card(content_copy: Path, validate: Validate) -> None:
    text, off = sub(content_copy, "home-deck/facilities.yaml", r"^    commodity: .*\n", "")
    card = card_at(text, off)
    result = validate()
    expect_problem(result, "content/home-deck/facilities.yaml", *card_start(text, card), f"card '{card}': missing required key 'commodity'")
    assert len(result.problems) == 1, result.out


def test_missing_required_nested_mapping(content_copy: Path, validate: Validate) -> None:
    text, _ = sub(content_copy, "game.yaml", r"^  mainline:\n(?:    .*\n)+", "")
    first_key = text.index("editions:\n") + len("editions:\n") + 2
    result = validate()
    expect_problem(result, "content/game.yaml", *at(text, first_key), "field 'editions': missing required key 'mainline'")
    assert len(result.problems) == 1, result.out


def test_each_missing_required_key_is_reported_once(content_copy: Path, validate: Validate) -> None:
    text, off = sub(content_copy, "home-deck/facilities.yaml", r"^    commodity: .*\n", "")
    card = card_at(text, off)
    sub(content_copy, "home-deck/facilities.yaml", r"^    traffic: .*\n", "", card=card)
    result = validate()
    assert sorted(p.message for p in result.problems) == [
        f"card '{card}': missing required key 'commodity' (what the industry works; the two sides of a lockout pair work the same one; for example commodity: coal)",
        f"card '{card}': missing required key 'traffic' (it takes one of: inbound, outbound, both)",
    ], result.out


@pytest.mark.parametrize(
    "rel, pattern, repl, where, fragment",
    [
        (
            "home-deck/facilities.yaml",
            r"^    traffic: .*$",
            "    traffic: outbond",
            "card '{card}', field 'traffic'",
            "the text 'outbond' is not one of: inbound, outbound, both (did you mean 'outbound'?)",
        ),
        (
            "home-deck/facilities.yaml",
            r"^    carTypes: \[[\w]+",
            "    carTypes: [refer",
            "card '{card}', field 'carTypes[0]'",
            "the text 'refer' is not one of: boxcar, reefer, hopper, tank, flatcar, stockcar (did you mean 'reefer'?)",
        ),
        ("mainline.yaml", r"^    role: .*$", "    role: terain", "card '{card}', field 'role'", "the text 'terain' is not one of: terrain, divisionPoint (did you mean 'terrain'?)"),
        ("home-deck/mainline-modifiers.yaml", r"^    playOption: .*$", "    playOption: drow", "card '{card}', field 'playOption'", "the text 'drow' is not one of: draw (did you mean 'draw'?)"),
    ],
    ids=["traffic", "car-type-in-list", "mainline-role", "play-option"],
)
def test_enum_value_out_of_range_with_did_you_mean(content_copy: Path, validate: Validate, rel: str, pattern: str, repl: str, where: str, fragment: str) -> None:
    text, off = sub(content_copy, rel, pattern, repl)
    start = off + len(cast("re.Match[str]", re.match(r"\s*\w+: \[?", repl))[0])
    result = validate()
    expect_problem(result, f"content/{rel}", *at(text, start), where.format(card=card_at(text, off)), fragment)
    assert len(result.problems) == 1, result.out


# -- the schema line ---------------------------------------------------------


def test_missing_schema_line(content_copy: Path, validate: Validate) -> None:
    write(content_copy, "game.yaml", read(content_copy, "game.yaml").split("\n", 1)[1])
    result = validate()
    expect_problem(
        result,
        "content/game.yaml",
        1,
        1,
        "the first line must name the file's schema, as '# yaml-language-server: $schema=schema/<kind>.schema.json'",
        "game",
    )
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    "rel, target, fragments",
    [
        (
            "game.yaml",
            "schema/gme.schema.json",
            ["'schema/gme.schema.json' is not a content schema: 'gme' is not a kind of content file (did you mean schema/game.schema.json?)", "use schema/<kind>.schema.json"],
        ),
        ("game.yaml", "schema/xxx.schema.json", ["'schema/xxx.schema.json' is not a content schema: 'xxx' is not a kind of content file; use schema/<kind>.schema.json"]),
        ("home-deck/offices.yaml", "schema/offices.schema.json", ["'schema/offices.schema.json' does not point at the schema folder; from this file the schema is ../schema/offices.schema.json"]),
        ("home-deck/trains.yaml", "../schemas/trains.schema.json", ["'../schemas/trains.schema.json' does not point at the schema folder; from this file the schema is ../schema/trains.schema.json"]),
        ("home-deck/trains.yaml", "../schema/trains.json", ["'../schema/trains.json' names 'trains.json', not a .schema.json file; from this file the schema is ../schema/trains.schema.json"]),
        ("game.yaml", "schema/defs.schema.json", ["'schema/defs.schema.json' is not a content schema: 'defs' is the shared definitions", "use schema/<kind>.schema.json"]),
        ("game.yaml", "/etc/passwd", ["'/etc/passwd' is not a content schema", "outside the schema folder (schema/ from this file)"]),
    ],
    ids=["misspelt-kind", "unknown-kind", "wrong-relative-dir", "wrong-folder-name", "not-a-schema-file", "shared-defs", "outside-content"],
)
def test_wrong_schema_line(content_copy: Path, validate: Validate, rel: str, target: str, fragments: list[str]) -> None:
    text, _ = sub(content_copy, rel, r"\A(# yaml-language-server: \$schema=)\S+", rf"\g<1>{target}")
    line, col = position(text, "$schema=", shift=len("$schema="))
    assert line == 1
    result = validate()
    message = expect_problem(result, f"content/{rel}", line, col, *fragments)
    # A suggestion is made only when it differs from what is written.
    assert not re.search(rf"did you mean [^)]*{re.escape(target)}", message), message
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    "rel, kind",
    [("game.yaml", "supplies"), ("editions.yaml", "trains"), ("game.yaml", "mainline"), ("home-deck/trains.yaml", "modifiers"), ("home-deck/mainline-modifiers.yaml", "modifiers")],
    ids=["single-file-kind", "editions-as-trains", "game-as-mainline", "cards-as-other-cards", "longest-kind-named"],
)
def test_schema_line_naming_another_kind_than_the_file_name(content_copy: Path, validate: Validate, rel: str, kind: str) -> None:
    # A schema line copied from another file once read game.yaml as a
    # Mainline file and stopped on a missing table (KeyError, exit 3).
    depth = "../" * rel.count("/")
    sub(content_copy, rel, r"\A(# yaml-language-server: \$schema=)\S+", rf"\g<1>{depth}schema/{kind}.schema.json")
    result = validate()
    named = Path(rel).stem
    expect_problem(result, f"content/{rel}", 1, 1, f"the schema line names kind '{kind}', but the file is named for kind '{named}'", f"the schema is {depth}schema/{named}.schema.json")
    assert len(result.problems) == 1, result.out


def test_a_required_key_reported_as_misspelt_is_not_read(content_copy: Path, validate: Validate) -> None:
    # Under a name of no kind the schema line decides; 'editions' reads as
    # a misspelt 'restrictions', which must then count as missing.
    text = read(content_copy, "editions.yaml").split("\n", 1)[1]
    write(content_copy, "home-deck/notes.yaml", "# yaml-language-server: $schema=../schema/trains.schema.json\n" + text)
    result = validate()
    assert result.code == 1, result.out
    assert any(p.path == "content/home-deck/notes.yaml" and "did you mean 'restrictions'" in p.message for p in result.problems), result.out


def test_nul_in_schema_line(content_copy: Path, validate: Validate) -> None:
    sub(content_copy, "game.yaml", r"schema/game\.schema\.json", "schema/game\x00.schema.json")
    result = validate()
    assert result.code == 1
    assert result.problems and result.problems[0].path == "content/game.yaml" and result.problems[0].line == 1


# -- what to write, in both packs ---------------------------------------------
# Each case: the pack, the file, a regex of what to damage and what to put
# there, the text before the value in the match, and what the message says.

SM, TOTR = "stationmaster", "trickoftherails"
FACILITIES = "home-deck/facilities.yaml"


@pytest.mark.parametrize(
    "pack, rel, pattern, repl, says",
    [
        (SM, FACILITIES, r"^(    count: )(\d+)$", r'\g<1>"\2"', "field 'count': write {value} without quotes: the quotes make it text, where a whole number is expected"),
        (SM, "home-deck/trains.yaml", r"^(    caboose: )(true|false)$", r'\g<1>"\2"', "field 'caboose': write {value} without quotes: the quotes make it text, where true or false is expected"),
        (TOTR, "railway.yaml", r"(stationValue: )(\d+)", r'\g<1>"\2"', "field 'stationValue': write {value} without quotes: the quotes make it text (one of: 10, 20, 30, 40)"),
        (TOTR, "railway.yaml", r"(number: )(\d+)", r'\g<1>"\2"', "field 'number': write {value} without quotes: the quotes make it text, where a whole number is expected"),
        (TOTR, "locomotives.yaml", r"(reach: )(\d+)", r'\g<1>"\2"', "field 'reach': write {value} without quotes: the quotes make it text, where a whole number or 'all' is expected"),
    ],
    ids=["sm-count", "sm-boolean", "totr-number-in-a-set", "totr-integer", "totr-one-of-two-kinds"],
)
def test_a_quoted_number_or_boolean_says_to_drop_the_quotes(pack_copy: Callable[[str], Path], validate_pack: Validate, pack: str, rel: str, pattern: str, repl: str, says: str) -> None:
    content = pack_copy(pack)
    text, off = sub(content, rel, pattern, repl)
    m = cast("re.Match[str]", re.compile(pattern.replace(r"(\d+)", r'"(\d+)"').replace("(true|false)", '"(true|false)"'), re.M).match(text, off))
    result = validate_pack(content)
    expect_problem(result, f"content/{rel}", *at(text, m.start(2) - 1), f"card '{card_of(text, off)}', " + says.format(value=m[2]))
    assert len(result.problems) == 1, result.out


def card_of(text: str, offset: int) -> str:
    """Id of the card whose record holds ``offset``, in block or one-line form."""
    ids = list(re.finditer(r"^  - \{?id: ([\w-]+)", text[: offset + 1], re.M))
    assert ids, "offset is before the first card"
    return ids[-1].group(1)


@pytest.mark.parametrize(
    "pack, rel, pattern, key, takes",
    [
        (SM, FACILITIES, r"^    traffic: .*\n", "traffic", "it takes one of: inbound, outbound, both"),
        (SM, FACILITIES, r"^    count: .*\n", "count", "copies the deck deals: a whole number from 0 to"),
        (SM, FACILITIES, r"^    commodity: .*\n", "commodity", "; for example commodity: coal"),
        (TOTR, "railway.yaml", r", stationValue: \d+", "stationValue", "it takes one of: 10, 20, 30, 40"),
        (TOTR, "locomotives.yaml", r"reach: \d+, ", "reach", "a whole number from 1 to 10 or 'all'"),
        (TOTR, "railway.yaml", r"company: [\w-]+, ", "company", "a company declared in companies.yaml"),
    ],
    ids=["sm-a-set", "sm-a-count", "sm-an-example", "totr-a-set", "totr-one-of-two-kinds", "totr-schema-words"],
)
def test_a_missing_required_key_says_what_it_takes(pack_copy: Callable[[str], Path], validate_pack: Validate, pack: str, rel: str, pattern: str, key: str, takes: str) -> None:
    content = pack_copy(pack)
    text, off = sub(content, rel, pattern, "")
    card = card_of(text, off)
    result = validate_pack(content)
    record = text.rfind("  - ", 0, text.index(f"id: {card}")) + len("  - ")  # where its mapping opens
    line = expect_problem(result, f"content/{rel}", *at(text, record), f"card '{card}': missing required key '{key}' (", takes)
    assert line.endswith(")"), line
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    "pack, rel, pattern, repl, schema, after",
    [
        (SM, FACILITIES, r"^(    traffic: )\w+", r"\g<1>outbond", "defs.schema.json", '"traffic": {'),
        (TOTR, "railway.yaml", r"(stationValue: )\d+", r"\g<1>15", "defs.schema.json", '"stationValue": {'),
        (TOTR, "companies.yaml", r"(colour: )\w+", r"\g<1>bleu", "companies.schema.json", '"colour": {'),
    ],
    ids=["sm-set-in-defs", "totr-set-in-defs", "totr-set-in-its-own-file"],
)
def test_a_value_outside_a_set_names_the_schema_file_holding_it(
    pack_copy: Callable[[str], Path], validate_pack: Validate, pack: str, rel: str, pattern: str, repl: str, schema: str, after: str
) -> None:
    content = pack_copy(pack)
    text, off = sub(content, rel, pattern, repl)
    value = text.index(": ", off) + 2
    result = validate_pack(content)
    held = schema_key(content, f"schema/{schema}", after, "enum")
    line = expect_problem(result, f"content/{rel}", *at(text, value), "is not one of: ", f"; the allowed set is listed in {held}")
    assert line.endswith(held), line
    assert len(result.problems) == 1, result.out


def test_a_value_every_alternative_refuses_names_them_all(pack_copy: Callable[[str], Path], validate_pack: Validate) -> None:
    content = pack_copy(TOTR)
    text, off = sub(content, "locomotives.yaml", r"(reach: )\d+", r"\g<1>yes")
    result = validate_pack(content)
    expect_problem(result, "content/locomotives.yaml", *at(text, off + len("reach: ")), f"card '{card_of(text, off)}', field 'reach': expected a whole number or 'all', got the text 'yes'")
    assert len(result.problems) == 1, result.out
