"""``stationmaster validate``: every kind of bad input gives exit 1 (or 2 for
an unusable command) and a ``path:line:column: message`` the designer can act
on, never a traceback, and never a write into the content directory.

The content is edited often, so the tests find what they damage by its key or
shape (a regex, a card's block, data read from the shipped file) rather than by
its current value, and every expected position is computed from the damaged
text itself.

Tests marked ``xfail(strict=True, reason="BUG: ...")`` pin down defects found
while writing this file; they start to XPASS (and so fail) once fixed, at which
point the marker should simply be removed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from tests.kit import hang_guard
from tests.kit.cli import CliResult, PROBLEM_LINE, RunCli
from tests.kit.project import PROJECT_ROOT, SHIPPED_CONTENT
from engine.content.yamlread import MAX_DEPTH, YamlReadError, read_yaml
from tests.kit.validate import HEADER, SUMMARY, SUPPLIES_HEADER, Validate, at, card_at, card_span, card_start, cards, expect_problem, no_traceback, position, read, shipped, snapshot, sub, value_at, write

@pytest.fixture
def validate(content_copy: Path, run_cli: RunCli, tmp_path: Path) -> Validate:
    """Run ``stationmaster validate content`` from ``tmp_path`` (or ``cwd``)
    and check the things every run must satisfy."""

    def run(*args: str, target: str = "content", cwd: Path | None = None) -> CliResult:
        before = snapshot(content_copy)
        result = run_cli(["validate", target, *args], cwd or tmp_path)
        assert snapshot(content_copy) == before, "validate changed the content directory"
        no_traceback(result)
        return result

    return run


# ---------------------------------------------------------- the clean content


def test_shipped_content_validates_with_a_one_line_summary(validate: Validate) -> None:
    result = validate()
    assert result.code == 0, result.output
    assert result.err == ""
    lines = result.out.splitlines()
    assert len(lines) == 1 and SUMMARY.match(lines[0]), result.out


def test_shipped_content_in_place(run_cli: RunCli, shipped_content: Path) -> None:
    """The real checkout's content, run from the project root, is clean."""
    before = snapshot(shipped_content)
    result = run_cli(["validate"], PROJECT_ROOT)
    assert snapshot(shipped_content) == before
    assert result.code == 0, result.output
    # one summary line per pack, each naming its folder
    lines = result.out.splitlines()
    assert "content/stationmaster: ok, " in result.out
    assert lines and all(re.match(r"^content/[a-z][a-z0-9]*: ok, ", line) and SUMMARY.match("content" + line[line.index(":"):]) for line in lines), result.out


@pytest.mark.parametrize("fmt, expected", [("json", "[]\n"), ("github", "")])
def test_clean_content_in_machine_formats(validate: Validate, fmt: str, expected: str) -> None:
    result = validate("--format", fmt)
    assert result.code == 0, result.output
    assert result.out == expected
    assert result.err == ""


def test_end_to_end_subprocess_clean_and_broken(content_copy: Path, tmp_path: Path, run_cli_subprocess: Callable[..., CliResult]) -> None:
    result = run_cli_subprocess(["validate", "content"], tmp_path)
    assert result.code == 0, result.output
    assert SUMMARY.match(result.out.strip()) and len(result.out.splitlines()) == 1

    text, off = sub(content_copy, "game.yaml", r"^  handLimit: .*$", "  handLimit: many")
    result = run_cli_subprocess(["validate", "content"], tmp_path)
    no_traceback(result)
    expect_problem(result, "content/game.yaml", *value_at(text, off), "field 'table.handLimit'", "expected a whole number")


def test_legitimate_anchors_and_aliases_are_accepted(content_copy: Path, validate: Validate) -> None:
    """The alias checks must not refuse ordinary, small reuse."""
    sub(content_copy, "home-deck/facilities.yaml", r"^    carTypes: (.*)$", r"    carTypes: &types \1")
    sub(content_copy, "home-deck/facilities.yaml", r"^    carTypes: \[.*$", "    carTypes: *types")
    result = validate()
    assert result.code == 0, result.output


def test_hidden_files_are_not_content(content_copy: Path, validate: Validate) -> None:
    write(content_copy, ".notes.txt.swp", b"\x00\xff editor swap file")
    write(content_copy, "home-deck/.DS_Store", b"\x00\x01")
    result = validate()
    assert result.code == 0, result.output


# ---------------------------------------------------------- YAML syntax


@pytest.mark.parametrize(
    "rel, pattern, repl, shift, fragments",
    [
        ("game.yaml", r"^title: .*$", "title: Station: Master", len("title: Station"), ["this value holds ': '", "put the whole value in quotes"]),
        ("game.yaml", r"^  departments:", " departments:", 1, ["this line starts at column 2, which fits no level above it (the line above starts at column 3)"]),
        ("game.yaml", r"^  departments:", "      departments:", 6, ["this line is indented further than the line above it", "line it up"]),
        ("game.yaml", r"^  departments:", "  departments", 2, ["this line has no ':' after its key", "write 'key: value'"]),
        ("game.yaml", r"^  departments: ", "  departments:", 2 + len("departments"), ["a ':' after a key needs a space after it: write 'departments: "]),
        ("home-deck/offices.yaml", r"^  - id: ", " - id: ", 1, ["this list item starts at column 2, but the item above it", "starts at column 3"]),
    ],
    ids=["colon-in-plain-value", "indented-less", "indented-more", "missing-colon", "no-space-after-colon", "list-item-at-the-wrong-level"],
)
def test_syntax_error(content_copy: Path, validate: Validate, rel: str, pattern: str, repl: str, shift: int, fragments: list[str]) -> None:
    """A common slip is said in plain words with its fix, where the fix goes."""
    text, off = sub(content_copy, rel, pattern, repl, nth=2 if rel.startswith("home-deck") else 1)
    result = validate()
    expect_problem(result, f"content/{rel}", *at(text, off + shift), "YAML syntax error", *fragments)
    assert len(result.problems) == 1


@pytest.mark.parametrize(
    "rel, pattern, repl",
    [
        ("game.yaml", r"^  handLimit:", "\thandLimit:"),
        ("game.yaml", r"^  departments:", "  \tdepartments:"),
        ("home-deck/trains.yaml", r"^    name:", "\tname:"),
    ],
    ids=["tab-instead-of-spaces", "tab-after-spaces", "tab-inside-a-card"],
)
def test_tab_used_for_indentation(content_copy: Path, validate: Validate, rel: str, pattern: str, repl: str) -> None:
    text, _ = sub(content_copy, rel, pattern, repl)
    assert text.count("\t") == 1
    result = validate()
    expect_problem(result, f"content/{rel}", *position(text, "\t"), "YAML syntax error: a tab character indents this line; YAML indents with spaces only")
    assert len(result.problems) == 1


def _unterminated_quote(content: Path) -> tuple[str, tuple[int, int]]:
    """Open a double quote on the last line of game.yaml and never close it."""
    text, off = sub(content, "game.yaml", r'^( *[\w-]+: )([^"\n]+)\n?\Z', '\\1"\\2\n')
    return text, at(text, text.index('"', off))


def test_unterminated_quoted_string(content_copy: Path, validate: Validate) -> None:
    text, (quote_line, quote_col) = _unterminated_quote(content_copy)
    result = validate()
    assert result.code == 1, result.output
    assert len(result.problems) == 1, result.out
    (problem,) = result.problems
    assert problem.path == "content/game.yaml"
    assert "YAML syntax error: the text opened with a double quote (\") here is never closed" in problem.message
    # At the opening quote: the parser only notices at the end of the file.
    assert (problem.line, problem.column) == (quote_line, quote_col)


def _truncate_facilities(content: Path) -> str:
    path = content / "home-deck/facilities.yaml"
    data = path.read_bytes()
    # Cut mid-line, inside a word of a flow list past the middle, so the file
    # ends inside an unfinished construct (a cut that leaves a plain scalar
    # behind would still be valid YAML).
    cut = data.index(b"[", len(data) // 2) + 2
    assert data[cut - 1 : cut + 1].isalpha(), "no flow list of words past the middle (the content changed shape?)"
    path.write_bytes(data[:cut])
    return data[:cut].decode("utf-8")


def test_truncated_file(content_copy: Path, validate: Validate) -> None:
    cut = _truncate_facilities(content_copy)
    result = validate()
    assert result.code == 1, result.output
    assert len(result.problems) == 1, result.out
    (problem,) = result.problems
    assert problem.path == "content/home-deck/facilities.yaml"
    assert problem.message.startswith("YAML syntax error")
    assert problem.line >= cut.count("\n") + 1  # the damage is at the end


def test_truncated_file_problem_is_on_its_last_line(content_copy: Path, validate: Validate) -> None:
    lines = _truncate_facilities(content_copy).split("\n")
    result = validate()
    (problem,) = result.problems
    assert problem.line == len(lines), f"{problem}: the file has {len(lines)} lines"
    assert 1 <= problem.column <= len(lines[-1]) + 1


@pytest.mark.parametrize("case", ["unterminated-quote-at-eof", "unclosed-flow-sequence", "duplicate-anchor"])
def test_syntax_error_names_where_the_broken_construct_starts(content_copy: Path, validate: Validate, case: str) -> None:
    if case == "unterminated-quote-at-eof":
        text, (line, col) = _unterminated_quote(content_copy)
    elif case == "unclosed-flow-sequence":
        text, off = sub(content_copy, "game.yaml", r"^title: ", "title: [")
        line, col = at(text, off + len("title: "))
    else:
        sub(content_copy, "game.yaml", r"^(  handLimit: )", r"\1&n ")
        text, _ = sub(content_copy, "game.yaml", r"^(  departments: )", r"\1&n ")
        line, col = position(text, "&n")
    result = validate()
    assert result.code == 1
    (problem,) = result.problems
    assert (problem.line, problem.column) == (line, col) or f"line {line}" in problem.message, problem


# ---------------------------------------------------------- mapping keys


def test_repeated_key_in_a_block_mapping_names_the_first(content_copy: Path, validate: Validate) -> None:
    text, _ = sub(content_copy, "game.yaml", r"^  dieSides: .*$", "\\g<0>\n  handLimit: 4")
    # the first two: the table's own and the repeat (tableSources has one too)
    first, second = sorted(m.start() for m in re.finditer(r"^  handLimit:", text, re.M))[:2]
    result = validate()
    expect_problem(
        result, "content/game.yaml", *at(text, second + 2),
        "key 'handLimit' is repeated in this mapping", f"(first at line {at(text, first)[0]})",
    )
    assert len(result.problems) == 1


def test_repeated_key_in_a_flow_mapping_names_the_first(content_copy: Path, validate: Validate) -> None:
    text, off = sub(content_copy, "home-deck/trains.yaml", r"consist: \{(\w+): ", r"consist: {\1: 1, \1: ")
    key = cast("re.Match[str]", re.match(r"consist: \{(\w+)", text[off:]))[1]
    first = off + len("consist: {")
    second = first + len(key) + len(": 1, ")
    result = validate()
    expect_problem(
        result, "content/home-deck/trains.yaml", *at(text, second),
        f"key '{key}' is repeated in this mapping", f"(first at line {at(text, first)[0]})",
    )
    assert len(result.problems) == 1


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
        result, f"content/{rel}", *at(text, off + indent),
        where, f"unknown key '{wrong}'", f"(did you mean '{right}'?)",
    )
    # The misspelt key also leaves the real one missing: one mistake, said once.
    assert len(result.problems) == 1, result.out


# ---------------------------------------------------------- values and types


@pytest.mark.parametrize(
    "rel, key, value, fragments",
    [
        ("game.yaml", "  handLimit", "three", ["field 'table.handLimit'", "expected a whole number, got the text 'three' (a number is written in digits, as handLimit: 1)"]),
        ("home-deck/facilities.yaml", "    count", "one", ["card '{card}', field 'count'", "got the text 'one' (a number is written in digits, as count: 1)"]),
        ("home-deck/facilities.yaml", "    count", '"1"', ["card '{card}', field 'count'", "got the text '1' (write the number without quotes)"]),
        ("game.yaml", "  handLimit", '"3"', ["field 'table.handLimit'", "expected a whole number, got the text '3'", "without quotes"]),
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
        result, "content/home-deck/trains.yaml", *value_at(text, off),
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
        f"card '{card}': missing required key 'commodity'",
        f"card '{card}': missing required key 'traffic'",
    ], result.out


@pytest.mark.parametrize(
    "rel, pattern, repl, where, fragment",
    [
        ("home-deck/facilities.yaml", r"^    traffic: .*$", "    traffic: outbond", "card '{card}', field 'traffic'",
         "the text 'outbond' is not one of: inbound, outbound, both (did you mean 'outbound'?)"),
        ("home-deck/facilities.yaml", r"^    carTypes: \[[\w]+", "    carTypes: [refer", "card '{card}', field 'carTypes[0]'",
         "the text 'refer' is not one of: boxcar, reefer, hopper, tank, flatcar, stockcar (did you mean 'reefer'?)"),
        ("mainline.yaml", r"^    role: .*$", "    role: terain", "card '{card}', field 'role'",
         "the text 'terain' is not one of: terrain, divisionPoint (did you mean 'terrain'?)"),
        ("home-deck/mainline-modifiers.yaml", r"^    playOption: .*$", "    playOption: drow", "card '{card}', field 'playOption'",
         "the text 'drow' is not one of: draw (did you mean 'draw'?)"),
    ],
    ids=["traffic", "car-type-in-list", "mainline-role", "play-option"],
)
def test_enum_value_out_of_range_with_did_you_mean(content_copy: Path, validate: Validate, rel: str, pattern: str, repl: str, where: str, fragment: str) -> None:
    text, off = sub(content_copy, rel, pattern, repl)
    start = off + len(cast("re.Match[str]", re.match(r"\s*\w+: \[?", repl))[0])
    result = validate()
    expect_problem(result, f"content/{rel}", *at(text, start), where.format(card=card_at(text, off)), fragment)
    assert len(result.problems) == 1, result.out


# ---------------------------------------------------------- cross-file rules


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
    pytest.param("home-deck/facilities.yaml", r"lockouts: \[([\w-]+)", "lockout '{bad}' is not a known facility", id="lockout-partner"),
    pytest.param("home-deck/modifiers.yaml", r"hosts: \[([\w-]+)", "host '{bad}' is not a known facility", id="modifier-host"),
    pytest.param("home-deck/enhancements.yaml", r"answers: \[([\w-]+)", "answers '{bad}' is not a known opponent-directed card", id="enhancement-answers"),
    pytest.param("home-deck/opponent.yaml", r"answers: \[([\w-]+)", "answers '{bad}' is not a known opponent-directed card", id="defence-answers"),
    pytest.param("home-deck/mainline-modifiers.yaml", r"playOn: \[([\w-]+)", "playOn '{bad}' is not a known Mainline terrain card", id="mainline-modifier-host"),
    pytest.param("home-deck/mainline-modifiers.yaml", r"requires: ([\w-]+)", "requires '{bad}' is not a known Mainline modifier", id="requires"),
]


def _misspell(m: re.Match[str]) -> str:
    return m.group(0)[: m.start(1) - m.start()] + m.group(1) + "q" + m.group(0)[m.end(1) - m.start() :]


@pytest.mark.parametrize("rel, pattern, says", DANGLING)
def test_dangling_reference(content_copy: Path, validate: Validate, rel: str, pattern: str, says: str) -> None:
    good = cast("re.Match[str]", re.search(pattern, read(content_copy, rel), re.M))[1]
    bad = good + "q"
    text, off = sub(content_copy, rel, pattern, _misspell)
    card = card_at(text, off)
    entry = text.index(bad, off)
    field = text.index(": ", off) + 2  # the list (or the scalar) holding it
    result = validate()
    assert result.code == 1, result.output
    problems = [p for p in result.problems if f"card '{card}': " + says.format(bad=bad) in p.message]
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
        ("home-deck/modifiers.yaml", "hosts", "host '{bad}' is not a known facility"),
        ("home-deck/opponent.yaml", "answers", "answers '{bad}' is not a known"),
        ("home-deck/facilities.yaml", "lockouts", "lockout '{bad}' is not a known facility"),
    ],
    ids=["modifier-host", "answers", "lockout"],
)
def test_dangling_entry_of_a_block_list_points_at_the_entry(content_copy: Path, validate: Validate, rel: str, field: str, says: str) -> None:
    text, off = sub(content_copy, rel, rf"^    {field}: \[(.*)\]\n", _as_block_list_plus(field))
    bad = re.findall(r"^      - (\S+)$", text[off:], re.M)[-1]
    entry = text.index(f"- {bad}\n", off) + 2
    result = validate()
    assert result.code == 1, result.output
    found = [p for p in result.problems if says.format(bad=bad) in p.message]
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
    found = [p for p in result.problems if f"realign '{bad}' is not a known Mainline terrain card" in p.message]
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
        result, "content/home-deck/facilities.yaml", *at(text, field),
        f"card '{a['id']}': locks out '{b}', but '{b}' does not list '{a['id']}' in its lockouts", "symmetric",
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
    (p1, c1), (p2, c2) = next(
        (x, y) for i, x in enumerate(pairs) for y in pairs[i + 1 :] if x[0]["commodity"] != y[0]["commodity"]
    )
    # Re-pair consistently (each side lists the other) but across commodities.
    for card, other in ((p1, c2), (c2, p1), (p2, c1), (c1, p2)):
        sub(content_copy, "home-deck/facilities.yaml", r"^    lockouts: .*$", f"    lockouts: [{other['id']}]", card=card["id"])
    text = read(content_copy, "home-deck/facilities.yaml")
    lo, _ = card_span(text, p1["id"])
    field = text.index("lockouts: [", lo) + len("lockouts: [")  # the entry inside the list
    result = validate()
    expect_problem(
        result, "content/home-deck/facilities.yaml", *at(text, field),
        f"card '{p1['id']}': lockout pair with '{c2['id']}' mixes commodities ({p1['commodity']} and {c2['commodity']})",
    )
    # Each of the four cards in the two mixed pairs is named.
    named = {p.message.split("'")[1] for p in result.problems}
    assert named == {p1["id"], c1["id"], p2["id"], c2["id"]}, result.out
    assert all("mixes commodities" in p.message for p in result.problems)


def test_undeclared_effect_with_did_you_mean(content_copy: Path, validate: Validate) -> None:
    good = cast("re.Match[str]", re.search(r"^    effect: ([\w-]+)", read(content_copy, "home-deck/maneuvers.yaml"), re.M))[1]
    text, off = sub(content_copy, "home-deck/maneuvers.yaml", r"^    effect: ([\w-]+)", _misspell)
    result = validate()
    expect_problem(
        result, "content/home-deck/maneuvers.yaml", *value_at(text, off),
        f"card '{card_at(text, off)}': effect '{good}q' is not declared in effects.yaml",
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
        result, "content/home-deck/offices.yaml", *value_at(text, off),
        f"card '{third['id']}': '{base['id']}' already upgrades to '{second['id']}'", "strict sequence",
    )


def test_upgrades_from_typo_is_one_problem(content_copy: Path, validate: Validate) -> None:
    """The tiers above a misspelt upgradesFrom are off the ladder only
    because of it: no "loop" is reported for them."""
    base, second = _office_ladder()[:2]
    text, off = sub(content_copy, "home-deck/offices.yaml", r"^    upgradesFrom: .*$", f"    upgradesFrom: {base['id']}x", card=second["id"])
    result = validate()
    expect_problem(result, "content/home-deck/offices.yaml", *value_at(text, off), f"card '{second['id']}': upgradesFrom '{base['id']}x' is not a known office tier", f"did you mean '{base['id']}'?")
    assert len(result.problems) == 1, result.out


def test_upgrades_from_loop_is_one_problem(content_copy: Path, validate: Validate) -> None:
    ladder = _office_ladder()
    text, off = sub(content_copy, "home-deck/offices.yaml", r"^    upgradesFrom: .*$", f"    upgradesFrom: {ladder[-1]['id']}", card=ladder[1]["id"])
    result = validate()
    loop = " -> ".join(t["id"] for t in [ladder[1], *reversed(ladder[1:])])
    expect_problem(result, "content/home-deck/offices.yaml", *value_at(text, off), f"card '{ladder[1]['id']}': upgradesFrom goes round in a loop ({loop})", f"never reaches the base tier '{ladder[0]['id']}'")
    assert len(result.problems) == 1, result.out


def test_one_wrong_tier_count_is_one_problem(content_copy: Path, validate: Validate) -> None:
    """A middle tier's wrong count is not also blamed on the tier above it."""
    ladder = _office_ladder()
    lower, middle = ladder[0], ladder[1]
    text, off = sub(content_copy, "home-deck/offices.yaml", r"^    adTracks: .*$", f"    adTracks: {middle['adTracks'] + 1}", card=middle["id"])
    result = validate()
    expect_problem(result, "content/home-deck/offices.yaml", *value_at(text, off), f"card '{middle['id']}': each tier adds exactly one to adTracks ({lower['id']} has {lower['adTracks']}, so {middle['id']} needs {middle['adTracks']})")
    assert len(result.problems) == 1, result.out


def test_office_tier_must_add_exactly_one_ad_track(content_copy: Path, validate: Validate) -> None:
    *_, lower, top = _office_ladder()
    wrong = top["adTracks"] + 1
    text, off = sub(content_copy, "home-deck/offices.yaml", r"^    adTracks: .*$", f"    adTracks: {wrong}", card=top["id"])
    result = validate()
    expect_problem(
        result, "content/home-deck/offices.yaml", *value_at(text, off),
        f"card '{top['id']}': each tier adds exactly one to adTracks ({lower['id']} has {lower['adTracks']}, so {top['id']} needs {lower['adTracks'] + 1})",
    )
    assert len(result.problems) == 1, result.out


def _set_consist(content: Path, consist: str, caboose: bool) -> tuple[str, int, str]:
    card = cards("home-deck/trains.yaml")[0]["id"]
    sub(content, "home-deck/trains.yaml", r"^    caboose: .*$", f"    caboose: {'true' if caboose else 'false'}", card=card)
    text, off = sub(content, "home-deck/trains.yaml", r"^    consist: .*$", f"    consist: {consist}", card=card)
    return text, off, card


def test_consist_with_caboose_over_the_crew_tray(content_copy: Path, validate: Validate) -> None:
    pieces = shipped("game.yaml")["table"]["crewTrayPieces"]
    text, off, card = _set_consist(content_copy, f"{{freight: {pieces}}}", caboose=True)
    result = validate()
    expect_problem(
        result, "content/home-deck/trains.yaml", *value_at(text, off),
        f"card '{card}': {pieces} car(s) and a caboose need {pieces + 1} places; a Crew Tray holds {pieces}",
    )
    assert len(result.problems) == 1, result.out


def test_consist_alone_over_the_crew_tray(content_copy: Path, validate: Validate) -> None:
    pieces = shipped("game.yaml")["table"]["crewTrayPieces"]
    text, off, card = _set_consist(content_copy, f"{{coach: {pieces - 1}, freight: 2}}", caboose=False)
    result = validate()
    expect_problem(
        result, "content/home-deck/trains.yaml", *value_at(text, off),
        f"card '{card}': {pieces + 1} car(s) need {pieces + 1} places; a Crew Tray holds {pieces}",
    )
    assert len(result.problems) == 1, result.out


def test_consist_that_exactly_fills_the_crew_tray_is_fine(content_copy: Path, validate: Validate) -> None:
    pieces = shipped("game.yaml")["table"]["crewTrayPieces"]
    _set_consist(content_copy, f"{{coach: {pieces - 1}}}", caboose=True)
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


# ---------------------------------------------------------- hostile YAML


@pytest.mark.parametrize(
    "value, tag",
    [
        ('!!python/object/apply:os.system ["touch PWNED"]', "!!python/object/apply:os.system"),
        ("!!python/object/new:os.system [touch PWNED]", "!!python/object/new:os.system"),
        ("!!python/object:os.system {}", "!!python/object:os.system"),
        ("!!python/name:os.system", "!!python/name:os.system"),
        ("!local [touch PWNED]", "!local"),
        ("!e!system [touch PWNED]", "!e!system"),
    ],
    ids=["apply", "new", "object", "name", "local-tag", "tag-directive"],
)
def test_object_constructing_tag_is_refused(content_copy: Path, validate: Validate, tmp_path: Path, value: str, tag: str) -> None:
    text, _ = sub(content_copy, "game.yaml", r"^title: .*$", f"title: {value}")
    if tag == "!e!system":
        text = write(content_copy, "game.yaml", text.replace(HEADER, HEADER + "%TAG !e! tag:yaml.org,2002:python/object/apply:os.\n---\n", 1))
    result = validate()
    expect_problem(result, "content/game.yaml", *position(text, tag), "is not allowed: content is plain data and no tag is ever run")
    assert len(result.problems) == 1, result.out
    assert list(tmp_path.rglob("PWNED")) == []
    assert not (PROJECT_ROOT / "PWNED").exists()
    assert not Path("PWNED").exists()


def test_reader_refuses_python_tags_without_running_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(YamlReadError) as caught:
        read_yaml('a: !!python/object/apply:os.system ["touch PWNED"]\n')
    assert (caught.value.issues[0].line, caught.value.issues[0].column) == (1, 4)
    assert not (tmp_path / "PWNED").exists()


def _billion_laughs() -> str:
    lines = [HEADER, 'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n']
    for level in range(1, 10):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]\n")
    return "".join(lines)


def test_alias_expansion_bomb_is_refused_quickly(content_copy: Path, tmp_path: Path, run_cli_subprocess: Callable[..., CliResult]) -> None:
    text = write(content_copy, "supplies.yaml", _billion_laughs())
    before = snapshot(content_copy)
    # Expanding the aliases would never end: the hang guard fails the test then.
    result = run_cli_subprocess(["validate", "content"], tmp_path)
    assert snapshot(content_copy) == before
    no_traceback(result)
    assert result.code == 1, result.output
    (problem,) = result.problems
    assert problem.path == "content/supplies.yaml"
    assert "refused (an alias bomb?)" in problem.message
    assert position(text, "a0:")[0] <= problem.line <= position(text, "a9:")[0]


@pytest.mark.parametrize("value", ["&t [1, *t]", "&t {a: *t}", "&t [[1, [2, *t]]]"], ids=["list", "mapping", "nested"])
def test_alias_to_its_own_collection(content_copy: Path, validate: Validate, value: str) -> None:
    text = write(content_copy, "supplies.yaml", SUPPLIES_HEADER + f"title: {value}\n")
    result = validate()
    assert result.code == 1, result.output
    (problem,) = result.problems
    assert problem.path == "content/supplies.yaml"
    assert (problem.line, problem.column) in (position(text, "&t"), position(text, "*t")), problem
    assert "an alias refers to the collection that contains it" in problem.message


@pytest.mark.parametrize(
    "pattern, repl",
    [
        (rb"^title: ", b"title: \xff"),
        (rb"^title: .*$", "title: Stätiön ".encode() + b"\xffMaster"),
        (rb"^# yaml", b"# yaml\xff"),
        (rb"^(.+)\n?\Z", b"\\1\xfe\xfe\n"),
    ],
    ids=["ascii-line", "after-non-ascii", "first-line", "last-line"],
)
def test_non_utf8_bytes(content_copy: Path, validate: Validate, pattern: bytes, repl: bytes) -> None:
    path = content_copy / "game.yaml"
    data, count = re.subn(pattern, repl, path.read_bytes(), count=1, flags=re.M)
    assert count == 1
    path.write_bytes(data)
    bad = min(i for i in (data.find(b"\xff"), data.find(b"\xfe")) if i >= 0)
    good = data[:bad].decode("utf-8")
    result = validate()
    expect_problem(
        result, "content/game.yaml", *at(good, len(good)),
        "the file is not UTF-8 text", f"byte 0x{data[bad]:02x}", "save it as UTF-8",
    )
    assert len(result.problems) == 1, result.out


def test_control_character_position_in_ascii_text(content_copy: Path, validate: Validate) -> None:
    text, _ = sub(content_copy, "game.yaml", r"^  handLimit: .*$", "\\g<0>\x01")
    result = validate()
    expect_problem(result, "content/game.yaml", *position(text, "\x01"), "a character YAML does not allow")
    assert len(result.problems) == 1


def test_control_character_position_after_non_ascii_text(content_copy: Path, validate: Validate) -> None:
    write(content_copy, "game.yaml", read(content_copy, "game.yaml").replace(HEADER, HEADER + "# Éditiön stämps — “quoted”\n", 1))
    text, _ = sub(content_copy, "game.yaml", r"^  handLimit: .*$", "\\g<0>\x01")
    result = validate()
    expect_problem(result, "content/game.yaml", *position(text, "\x01"), "a character YAML does not allow")


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"], ids=["LS", "PS", "NEL"])
def test_line_numbers_count_only_newlines(content_copy: Path, validate: Validate, char: str) -> None:
    # YAML counts these as line breaks where editors do not; rather than let
    # every later line number drift, the loader refuses them where they stand.
    text, off = sub(content_copy, "game.yaml", r"^title: .*$", f'title: "Station{char}Master"')
    result = validate()
    expect_problem(result, "content/game.yaml", *at(text, text.index(char)), "which YAML reads as a line break")
    assert len(result.problems) == 1, result.out


def test_lone_carriage_return_is_refused_where_it_stands(content_copy: Path, validate: Validate) -> None:
    # libyaml breaks the line at a CR with no LF after it; with a quote left
    # open after one, placing the problem used to index past a line's end
    # (an internal error), and elsewhere every later line number drifted.
    data = b"whistlePosts:\r  office: 'whistle-post\r  count: 4\r"
    write(content_copy, "supplies.yaml", data)
    result = validate()
    expect_problem(result, "content/supplies.yaml", 1, len("whistlePosts:") + 1, "carriage return (U+000D) with no newline after it")
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    "text, offset",
    [("a:\n  - 1\n\r  - 'x", 9), ("a: 1\rb: 2\rc: [1, 2\r", 4), ("a: 1\r\nb: 2\rc: 3\r\n", 10)],
    ids=["before-open-quote", "before-open-list", "after-crlf"],
)
def test_read_yaml_refuses_lone_carriage_return(text: str, offset: int) -> None:
    with pytest.raises(YamlReadError) as caught:
        read_yaml(text)
    (issue,) = caught.value.issues
    assert (issue.line, issue.column) == at(text, offset)
    assert "carriage return" in issue.message


def test_windows_line_ends_still_read() -> None:
    assert read_yaml("a: 1\r\nb: 'two'\r\nc: [1, 2]\r\n").value == {"a": 1, "b": "two", "c": [1, 2]}


def test_bad_escape_in_closed_string_is_not_called_unclosed(content_copy: Path, validate: Validate) -> None:
    text, _ = sub(content_copy, "game.yaml", r"^title: .*$", lambda _: 'title: "Station\\qMaster"')
    result = validate()
    problem = expect_problem(result, "content/game.yaml", *position(text, "\\q"), "\\q is not an escape YAML knows", "write a backslash as \\\\")
    assert "never closed" not in problem
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize("number", [".nan", ".NaN", ".inf", "-.inf", "+.Inf", "1e999"])
def test_nan_and_infinity_are_refused_where_written(content_copy: Path, validate: Validate, number: str) -> None:
    # The whistle posts' count has a minimum and a maximum: NaN compares
    # false with both, so the quick check said invalid, jsonschema said
    # valid, and the count passed as within its bounds.
    text, _ = sub(content_copy, "supplies.yaml", r"^(  count: )[0-9]+$", lambda m: m[1] + number)
    result = validate()
    expect_problem(result, "content/supplies.yaml", *position(text, f"count: {number}", shift=len("count: ")), f"'{number}' is", "write one")
    assert len(result.problems) == 1, result.out


def test_nan_never_passes_the_schema_check_of_a_bounded_number(tmp_path: Path) -> None:
    # Both checkers over the value itself, for code that builds documents.
    from engine.content.schemas import SchemaSet

    schema = tmp_path / "schema"
    schema.mkdir()
    (schema / "things.schema.json").write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"n": {"type": "number", "minimum": 0, "maximum": 10}}}), encoding="utf-8")
    checked = SchemaSet(schema)
    assert checked.check("things", {"n": 5.0}) == []
    assert [i.pointer for i in checked.check("things", {"n": float("nan")})] == [("n",)]


# ---------------------------------------------------------- file shapes


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b"", "the first line must name the file's schema"),
        (b"\n\n", "the first line must name the file's schema"),
        (HEADER.encode(), "the file is empty; it should hold a mapping"),
        ((HEADER + "# nothing yet\n\n# still nothing\n").encode(), "the file is empty; it should hold a mapping"),
    ],
    ids=["zero-bytes", "blank-lines", "header-only", "header-and-comments"],
)
def test_empty_file(content_copy: Path, validate: Validate, data: bytes, fragment: str) -> None:
    write(content_copy, "supplies.yaml", data)
    result = validate()
    expect_problem(result, "content/supplies.yaml", 1, 1, fragment)
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    "body, fragment",
    [
        ("- title\n- Station Master\n", "expected a mapping, got a list"),
        ("just words\n", "expected a mapping, got the text 'just words'"),
        ("42\n", "expected a mapping, got the number 42"),
    ],
    ids=["list", "scalar", "number"],
)
def test_top_level_of_the_wrong_shape(content_copy: Path, validate: Validate, body: str, fragment: str) -> None:
    write(content_copy, "supplies.yaml", SUPPLIES_HEADER + body)
    result = validate()
    expect_problem(result, "content/supplies.yaml", 2, 1, fragment)
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    "rel, hint",
    [("notes.txt", ""), ("home-deck/extra-cards.yml", " (rename it to .yaml)"), ("schema/readme.md", "")],
    ids=["txt", "yml", "in-schema-dir"],
)
def test_stray_non_yaml_file(content_copy: Path, validate: Validate, rel: str, hint: str) -> None:
    write(content_copy, rel, "cards: []\n")
    result = validate()
    where = expect_problem(result, f"content/{rel}", 1, 1, f"not a content file{hint}: content/ holds only .yaml files")
    if not hint:
        assert "rename" not in where
    assert len(result.problems) == 1, result.out


def test_absurdly_deep_flow_nesting(content_copy: Path, validate: Validate) -> None:
    write(content_copy, "supplies.yaml", SUPPLIES_HEADER + "title: " + "[" * 5000 + "]" * 5000 + "\n")
    result = validate()
    assert result.code == 1, result.output
    (problem,) = result.problems
    assert problem.path == "content/supplies.yaml" and problem.line == 2
    assert len("title: ") < problem.column <= len("title: ") + 5000
    assert "nesting" in problem.message


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 100, 900])
def test_flow_nesting_past_the_depth_limit(content_copy: Path, validate: Validate, levels: int) -> None:
    text = write(content_copy, "supplies.yaml", SUPPLIES_HEADER + "title: " + "[" * levels + "]" * levels + "\n")
    result = validate()
    # The document is depth 0, its 'title' value depth 1: bracket MAX_DEPTH+1 is too deep.
    expect_problem(result, "content/supplies.yaml", *position(text, "[", shift=MAX_DEPTH), f"nesting deeper than {MAX_DEPTH} levels")
    assert len(result.problems) == 1


def test_nesting_at_the_depth_limit_is_not_refused_as_too_deep(content_copy: Path, validate: Validate) -> None:
    write(content_copy, "supplies.yaml", SUPPLIES_HEADER + "title: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n")
    result = validate()
    assert result.code == 1
    assert not any("nesting" in p.message for p in result.problems), result.out
    assert any("field 'title'" in p.message for p in result.problems), result.out


def test_absurdly_deep_block_nesting(content_copy: Path, validate: Validate) -> None:
    body = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "leaf\n"
    text = write(content_copy, "supplies.yaml", SUPPLIES_HEADER + body)
    result = validate()
    assert result.code == 1, result.output
    (problem,) = result.problems
    assert problem.path == "content/supplies.yaml"
    assert f"nesting deeper than {MAX_DEPTH} levels" in problem.message
    # The mapping holding k<i> is at depth i (the document is depth 0), so the
    # first thing too deep is key k<MAX_DEPTH> (as a node at depth MAX_DEPTH+1)
    # or the mapping that starts at k<MAX_DEPTH+1>; either place is right.
    assert (problem.line, problem.column) in (position(text, f"k{MAX_DEPTH}:"), position(text, f"k{MAX_DEPTH + 1}:")), problem


_NO_LIBYAML = """
import sys
sys.modules["yaml.cyaml"] = None  # as on a PyYAML build without libyaml
import engine.content.yamlread as yamlread
assert not yamlread.HAVE_LIBYAML
from command.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _run_without_libyaml(cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT))
    return hang_guard.run([sys.executable, "-c", _NO_LIBYAML, "validate", "content"], "validate without libyaml to end", cwd=cwd, env=env)


def test_deep_nesting_without_libyaml(content_copy: Path, tmp_path: Path) -> None:
    write(content_copy, "game.yaml", HEADER + "title: " + "[" * 5000 + "]" * 5000 + "\n")
    proc = _run_without_libyaml(tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "RecursionError" not in proc.stdout + proc.stderr
    assert PROBLEM_LINE.match(proc.stdout.splitlines()[0])


def test_pure_python_parser_gives_the_same_problems(content_copy: Path, tmp_path: Path) -> None:
    """The libyaml fallback must locate problems exactly as libyaml does."""
    text, off = sub(content_copy, "home-deck/trains.yaml", r"^    caboose: .*$", "    caboose: on")
    line, col = value_at(text, off)
    proc = _run_without_libyaml(tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"content/home-deck/trains.yaml:{line}:{col}: card '{card_at(text, off)}', field 'caboose'"), proc.stdout


# ---------------------------------------------------------- the schema line


def test_missing_schema_line(content_copy: Path, validate: Validate) -> None:
    write(content_copy, "game.yaml", read(content_copy, "game.yaml").split("\n", 1)[1])
    result = validate()
    expect_problem(
        result, "content/game.yaml", 1, 1,
        "the first line must name the file's schema, as '# yaml-language-server: $schema=schema/<kind>.schema.json'",
        "game",
    )
    assert len(result.problems) == 1, result.out


@pytest.mark.parametrize(
    "rel, target, fragments",
    [
        ("game.yaml", "schema/gme.schema.json",
         ["'schema/gme.schema.json' is not a content schema: 'gme' is not a kind of content file (did you mean schema/game.schema.json?)", "use schema/<kind>.schema.json"]),
        ("game.yaml", "schema/xxx.schema.json",
         ["'schema/xxx.schema.json' is not a content schema: 'xxx' is not a kind of content file; use schema/<kind>.schema.json"]),
        ("home-deck/offices.yaml", "schema/offices.schema.json",
         ["'schema/offices.schema.json' does not point at the schema folder; from this file the schema is ../schema/offices.schema.json"]),
        ("home-deck/trains.yaml", "../schemas/trains.schema.json",
         ["'../schemas/trains.schema.json' does not point at the schema folder; from this file the schema is ../schema/trains.schema.json"]),
        ("home-deck/trains.yaml", "../schema/trains.json",
         ["'../schema/trains.json' names 'trains.json', not a .schema.json file; from this file the schema is ../schema/trains.schema.json"]),
        ("game.yaml", "schema/defs.schema.json",
         ["'schema/defs.schema.json' is not a content schema: 'defs' is the shared definitions", "use schema/<kind>.schema.json"]),
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


def test_schema_line_naming_another_single_file_kind(content_copy: Path, validate: Validate) -> None:
    sub(content_copy, "game.yaml", r"schema/game\.schema\.json", "schema/supplies.schema.json")
    result = validate()
    expect_problem(result, "content/supplies.yaml", 1, 1, "a second 'supplies' file; it must be one file (the first is content/game.yaml)")
    assert any(p.path == "content/game.yaml" and "unknown key 'title'" in p.message for p in result.problems)


def test_nul_in_schema_line(content_copy: Path, validate: Validate) -> None:
    sub(content_copy, "game.yaml", r"schema/game\.schema\.json", "schema/game\x00.schema.json")
    result = validate()
    assert result.code == 1
    assert result.problems and result.problems[0].path == "content/game.yaml" and result.problems[0].line == 1


# ---------------------------------------------------------- usage errors


def test_nonexistent_directory(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli(["validate", "no-such-dir"], tmp_path)
    no_traceback(result)
    assert result.code == 2
    assert result.out == ""
    assert "no-such-dir: no such content directory" in result.err


def test_a_file_is_not_a_content_directory(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text("title: x\n")
    result = run_cli(["validate", "game.yaml"], tmp_path)
    no_traceback(result)
    assert result.code == 2
    assert "game.yaml: no such content directory" in result.err


def test_unreadable_file(content_copy: Path, run_cli: RunCli, tmp_path: Path) -> None:
    path = content_copy / "home-deck/trains.yaml"
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as a user (root) who can read a mode-000 file")
        result = run_cli(["validate", "content"], tmp_path)
    finally:
        path.chmod(0o644)
    no_traceback(result)
    assert result.code == 2, result.output
    assert "content/home-deck/trains.yaml: cannot read" in result.err


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["validate", "--format", "xml"], "invalid choice: 'xml'"),
        (["validate", "--fromat", "json"], "unrecognized arguments"),
        (["validate", "a", "b"], "unrecognized arguments"),
        ([], "required"),
        (["vaildate"], "invalid choice"),
    ],
    ids=["unknown-format", "unknown-option", "two-dirs", "no-command", "unknown-command"],
)
def test_bad_arguments(content_copy: Path, run_cli: RunCli, tmp_path: Path, args: list[str], fragment: str) -> None:
    result = run_cli(args, tmp_path)
    no_traceback(result)
    assert result.code == 2, result.output
    assert fragment in result.err
    assert result.out == ""


# ---------------------------------------------------------- reporting


def test_every_problem_in_every_file_is_listed(content_copy: Path, validate: Validate) -> None:
    game, g = sub(content_copy, "game.yaml", r"^title: .*$", "title: Station: Master")
    trains, t = sub(content_copy, "home-deck/trains.yaml", r"^    caboose: .*$", "    caboose: yes")
    offices, o = sub(content_copy, "home-deck/offices.yaml", r"^    porters:", "    portrs:")
    result = validate()
    expect_problem(result, "content/game.yaml", *at(game, g + len("title: Station")), "YAML syntax error")
    expect_problem(result, "content/home-deck/trains.yaml", *value_at(trains, t), "got the text 'yes'")
    expect_problem(result, "content/home-deck/offices.yaml", *at(offices, o + 4), "unknown key 'portrs'", "did you mean 'porters'?")
    assert {p.path for p in result.problems} == {"content/game.yaml", "content/home-deck/trains.yaml", "content/home-deck/offices.yaml"}


def test_schema_and_cross_file_problems_are_listed_together(content_copy: Path, validate: Validate) -> None:
    trains, t = sub(content_copy, "home-deck/trains.yaml", r"^    speed: .*$", "    speed: slo")
    mods, m = sub(content_copy, "home-deck/modifiers.yaml", r"hosts: \[([\w-]+)", _misspell)
    moves, e = sub(content_copy, "home-deck/maneuvers.yaml", r"^    effect: ([\w-]+)", _misspell, nth=len(cards("home-deck/maneuvers.yaml")))
    result = validate()
    expect_problem(result, "content/home-deck/trains.yaml", *value_at(trains, t), f"card '{card_at(trains, t)}', field 'speed'", "did you mean 'slow'?")
    assert any(p.line == at(mods, m)[0] and f"card '{card_at(mods, m)}': host" in p.message for p in result.problems), result.out
    expect_problem(result, "content/home-deck/maneuvers.yaml", *value_at(moves, e), f"card '{card_at(moves, e)}': effect", "is not declared")
    assert len(result.problems) == 3, result.out
    # Sorted by file, then line.
    assert result.problems == sorted(result.problems)


def test_cross_file_problems_are_listed_beside_broken_files(content_copy: Path, validate: Validate) -> None:
    """A section of a one-of-a-kind file that fails its schema, and a file
    that does not read at all, leave out only themselves: the rules spanning
    files still run over the rest in the same run."""
    game, g = sub(content_copy, "game.yaml", r"^  handLimit: .*$", "  handLimit: three")
    supplies, s = sub(content_copy, "supplies.yaml", r"^cabooses: .*$", "cabooses: [")
    offices = cards("home-deck/offices.yaml")
    text, off = sub(content_copy, "home-deck/offices.yaml", rf"^  - id: {offices[-1]['id']}$", f"  - id: {offices[1]['id']}")
    pieces = shipped("game.yaml")["table"]["crewTrayPieces"]
    trains, t, card = _set_consist(content_copy, f"{{freight: {pieces + 1}}}", caboose=False)
    result = validate()
    expect_problem(result, "content/game.yaml", *value_at(game, g), "expected a whole number")
    assert any(p.path == "content/supplies.yaml" and "YAML syntax error" in p.message for p in result.problems), result.out
    first = card_start(text, offices[1]["id"])
    expect_problem(result, "content/home-deck/offices.yaml", *value_at(text, off), f"is already used in content/home-deck/offices.yaml:{first[0]}:{first[1] + len('id: ')}")
    expect_problem(result, "content/home-deck/trains.yaml", *value_at(trains, t), f"card '{card}': {pieces + 1} car(s) need {pieces + 1} places")
    # And nothing that follows from those four: the office ladder, the
    # supplied Office and the terrain inventory wait for their files.
    assert len(result.problems) == 4, result.out


def test_github_format(content_copy: Path, validate: Validate) -> None:
    game, g = sub(content_copy, "game.yaml", r"^  handLimit: .*$", "  handLimit: x")
    trains, t = sub(content_copy, "home-deck/trains.yaml", r"^    speed: .*$", "    speed: slo")
    (line, col), (tline, tcol) = value_at(game, g), value_at(trains, t)
    result = validate("--format", "github")
    assert result.code == 1, result.output
    assert result.out.splitlines() == [
        f"::error file=content/game.yaml,line={line},col={col}::field 'table.handLimit': expected a whole number, got the text 'x' (a number is written in digits, as handLimit: 1)",
        f"::error file=content/home-deck/trains.yaml,line={tline},col={tcol}::card '{card_at(trains, t)}', field 'speed': the text 'slo' is not one of: fast, slow (did you mean 'slow'?)",
    ]
    assert result.err == ""


def test_github_format_escapes_path_and_message(tmp_path: Path, content_copy: Path, validate: Validate) -> None:
    odd = tmp_path / "odd,dir"
    content_copy.rename(odd)
    text, off = sub(odd, "game.yaml", r"^  handLimit: .*$", '  handLimit: "5%\\\\nx"')
    line, col = value_at(text, off)
    result = validate("--format", "github", target="odd,dir")
    assert result.code == 1, result.output
    assert result.out == (
        f"::error file=odd%2Cdir/game.yaml,line={line},col={col}::field 'table.handLimit': "
        "expected a whole number, got the text '5%25%0Ax' (a number is written in digits, as handLimit: 1)\n"
    )


def test_json_format(content_copy: Path, validate: Validate, run_cli: RunCli, tmp_path: Path) -> None:
    sub(content_copy, "game.yaml", r"^  handLimit: .*$", "  handLimit: x")
    sub(content_copy, "home-deck/trains.yaml", r"^    speed: .*$", "    speed: slo")
    write(content_copy, "notes.txt", "hello")
    result = validate("--format", "json")
    assert result.code == 1, result.output
    data = json.loads(result.out)
    assert isinstance(data, list) and len(data) == 3
    for item in data:
        assert set(item) == {"path", "line", "column", "message"}
        assert isinstance(item["line"], int) and isinstance(item["column"], int) and item["message"]
    text = run_cli(["validate", "content"], tmp_path)
    assert [(d["path"], d["line"], d["column"], d["message"]) for d in data] == [tuple(p) for p in text.problems]


def test_text_format_is_one_problem_per_line_for_ordinary_content(content_copy: Path, validate: Validate) -> None:
    sub(content_copy, "game.yaml", r"^  handLimit: .*$", "  handLimit: x")
    sub(content_copy, "mainline.yaml", r"^    role: .*$", "    role: terain")
    result = validate()
    assert result.code == 1
    assert len(result.problems) == 2
    assert all(PROBLEM_LINE.match(line) for line in result.out.splitlines()), result.out


@pytest.mark.parametrize("value", ['"5\\\\nx"', "|\n    5\n    x"], ids=["quoted", "block-scalar"])
def test_text_format_one_problem_per_line_with_line_breaks_in_values(content_copy: Path, validate: Validate, value: str) -> None:
    sub(content_copy, "game.yaml", r"^  handLimit: .*$", f"  handLimit: {value}")
    result = validate()
    assert result.code == 1
    assert all(PROBLEM_LINE.match(line) for line in result.out.splitlines()), result.out


def test_file_name_that_is_not_utf8(content_copy: Path, validate: Validate) -> None:
    os.rename(content_copy / "supplies.yaml", os.fsencode(content_copy) + b"/s\xffupplies.yaml")
    result = validate()
    assert result.code == 1, result.output
    assert result.problems


def _first_id_as_block_scalar(content: Path) -> tuple[str, int]:
    return sub(content, "home-deck/enhancements.yaml", r"^  - id: (.*)$", "  - id: |\n      \\1")


def _id_duplicating_another(content: Path) -> tuple[str, int]:
    dup = cards("home-deck/facilities.yaml")[0]["id"]
    return sub(content, "home-deck/enhancements.yaml", r"^  - id: .*$", f'  - id: "{dup}\\\\n"')


def _version_with_newline(content: Path) -> tuple[str, int]:
    return sub(content, "game.yaml", r'^    version: "?([^"\n]*)"?$', '    version: "\\1\\\\n"')


@pytest.mark.parametrize(
    "damage, rel",
    [
        (_first_id_as_block_scalar, "home-deck/enhancements.yaml"),
        (_id_duplicating_another, "home-deck/enhancements.yaml"),
        (_version_with_newline, "game.yaml"),
    ],
    ids=["id-as-block-scalar", "id-duplicating-another", "version"],
)
def test_value_with_a_trailing_newline_does_not_match_a_pattern(content_copy: Path, validate: Validate, damage: Callable[[Path], tuple[str, int]], rel: str) -> None:
    text, off = damage(content_copy)
    result = validate()
    assert result.code == 1, result.output
    assert any(p.path == f"content/{rel}" and (p.line, p.column) == value_at(text, off) for p in result.problems), result.out


@pytest.mark.parametrize(
    "cwd_rel, target, prefix",
    [
        ("", "content", "content/"),
        ("", "content/", "content/"),
        ("content", ".", ""),
        ("content/home-deck", "..", "../"),
        ("elsewhere", "../content", "../content/"),
        ("", "ABSOLUTE", "content/"),
    ],
    ids=["parent", "trailing-slash", "inside-dot", "subdir-dotdot", "sibling", "absolute-argument"],
)
def test_paths_are_relative_to_the_current_directory(content_copy: Path, validate: Validate, tmp_path: Path, cwd_rel: str, target: str, prefix: str) -> None:
    text, off = sub(content_copy, "game.yaml", r"^  handLimit: .*$", "  handLimit: x")
    line, col = value_at(text, off)
    cwd = tmp_path / cwd_rel
    cwd.mkdir(exist_ok=True)
    if target == "ABSOLUTE":
        target = str(content_copy)
    result = validate(target=target, cwd=cwd)
    expect_problem(result, f"{prefix}game.yaml", line, col, "field 'table.handLimit'")
    assert result.out.startswith(f"{prefix}game.yaml:{line}:{col}: ")


# ------------------------------------------- facts the engine reads from content


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
        result, "content/home-deck/track.yaml", *value_at(text, off),
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
        content_copy, "home-deck/trains.yaml", "home-deck/x-trains.yaml", (f"words: {rule['words']}", f"words: {rule['words']} here"),
        '  - id: train-99\n    name: No. 99 Test\n    count: 0\n    number: "99"\n    service: timetabled\n    speed: fast\n    consist: {coach: 1}\n    caboose: false\n    source: homeDeck-0.8.6\n',
    )
    result = validate()
    expect_problem(
        result, "content/home-deck/x-trains.yaml", *at(text, text.index(f"  {rid}: ") + len(f"  {rid}: ")),
        f"restriction '{rid}' differs from its entry in content/home-deck/trains.yaml",
    )
    assert len(result.problems) == 1, result.out


_PLAINS_TWO = "  - id: plains-two\n    name: Plains Two\n    count: 0\n    role: terrain\n    speedMph: {passenger: 60, freight: 60}\n    source: mainline-0.4.5\n"


def test_two_mainline_files_with_different_crossing_tables(content_copy: Path, validate: Validate) -> None:
    adds = shipped("mainline.yaml")["crossing"]["slowTrainAdds"]
    text = _second_file(
        content_copy, "mainline.yaml", "more-mainline.yaml", (f"slowTrainAdds: {adds}", f"slowTrainAdds: {adds + 1}"),
        _PLAINS_TWO,
    )
    result = validate()
    expect_problem(result, "content/more-mainline.yaml", *at(text, text.index("crossing:")), "this crossing table differs from the one in content/mainline.yaml")
    assert len(result.problems) == 1, result.out


def test_two_mainline_files_that_source_the_crossing_table_differently(content_copy: Path, validate: Validate) -> None:
    text = _second_file(
        content_copy, "mainline.yaml", "more-mainline.yaml", ("  fewestStages: mainline-0.4.5\n", "  fewestStages:\n    designed: A floor chosen for this test.\n"), _PLAINS_TWO,
    )
    result = validate()
    expect_problem(result, "content/more-mainline.yaml", *at(text, text.index("crossingSources:")), "these crossing sources differ from the ones in content/mainline.yaml")
    assert len(result.problems) == 1, result.out


def test_two_trains_files_that_source_a_restriction_differently(content_copy: Path, validate: Validate) -> None:
    rid = "emptiesOnly"
    text = _second_file(
        content_copy, "home-deck/trains.yaml", "home-deck/x-trains.yaml", (f"  {rid}: {{words: empties only, source: homeDeck-0.8.6}}", f"  {rid}: {{words: empties only, source: homeDeck-0.8.0.15}}"),
        '  - id: train-99\n    name: No. 99 Test\n    count: 0\n    number: "99"\n    service: timetabled\n    speed: fast\n    consist: {coach: 1}\n    caboose: false\n    source: homeDeck-0.8.6\n',
    )
    result = validate()
    expect_problem(
        result, "content/home-deck/x-trains.yaml", *at(text, text.index(f"  {rid}: ") + len(f"  {rid}: ")),
        f"restriction '{rid}' differs from its entry in content/home-deck/trains.yaml",
    )
    assert len(result.problems) == 1, result.out
# ------------------------------------------------------------------ provenance
# Every card and rule value says where it comes from: a declared edition's id,
# or {designed: <one-line reason>}. Each way of getting that wrong is located.


def _card_with_source(rel: str, kind: str) -> tuple[str, str]:
    """A card of ``rel`` whose source is an edition id (kind 'edition') or designed."""
    text = (SHIPPED_CONTENT / rel).read_text(encoding="utf-8")
    for card in cards(rel):
        source = card["source"]
        if (kind == "edition") == isinstance(source, str):
            start, end = card_span(text, card["id"])
            return card["id"], text[start:end]
    raise AssertionError(f"no card of {rel} has a {kind} source (the content changed shape?)")


@pytest.mark.parametrize("rel", ["home-deck/facilities.yaml", "home-deck/trains.yaml", "mainline.yaml"])
def test_card_without_a_source(content_copy: Path, validate: Validate, rel: str) -> None:
    card, _ = _card_with_source(rel, "edition")
    text, _ = sub(content_copy, rel, r"^    source: \S+\n", "", card=card)
    result = validate()
    expect_problem(result, f"content/{rel}", *card_start(text, card), f"card '{card}': missing required key 'source'")


def test_designed_card_without_its_reason(content_copy: Path, validate: Validate) -> None:
    card, _ = _card_with_source("home-deck/trains.yaml", "designed")
    text, _ = sub(content_copy, "home-deck/trains.yaml", r"^    source:\n      designed: .*\n", "", card=card)
    result = validate()
    expect_problem(result, "content/home-deck/trains.yaml", *card_start(text, card), f"card '{card}': missing required key 'source'")


def test_card_citing_an_undeclared_edition(content_copy: Path, validate: Validate) -> None:
    card, _ = _card_with_source("home-deck/maneuvers.yaml", "edition")
    text, off = sub(content_copy, "home-deck/maneuvers.yaml", r"^    source: (\S+)\n", r"    source: \g<1>9\n", card=card)
    result = validate()
    line = expect_problem(
        result, "content/home-deck/maneuvers.yaml", *value_at(text, off),
        f"card '{card}', field 'source': '", "is not a declared edition (did you mean '", "game.yaml declares: homeDeck-0.8.6",
    )
    assert "9' is not a declared edition" in line


@pytest.mark.parametrize(
    "written, says",
    [
        ("source: homedeck", "expected the id of a published edition"),
        ("source: 0.8.6", "expected the id of a published edition"),
        ("source:\n      desgined: The rules are silent on this card.", "unknown key 'desgined' (did you mean 'designed'?)"),
        ("source:\n      designed: ''", "needs at least 8 character(s)"),
        ("source:\n      designed: \"First line.\\nSecond line.\"", "is not valid here"),
        ("source:\n      designed: 12", "expected text, got the number 12"),
        ("source:\n      designed: '          '", "expected one line saying why the value was designed"),
        ("source: {}", "missing required key 'designed'"),
    ],
    ids=["not-an-edition-id", "bare-version", "misspelt-designed", "empty-reason", "two-line-reason", "reason-not-text", "blank-reason", "empty-mapping"],
)
def test_malformed_source(content_copy: Path, validate: Validate, written: str, says: str) -> None:
    card, _ = _card_with_source("home-deck/facilities.yaml", "designed")
    text, off = sub(content_copy, "home-deck/facilities.yaml", r"^    source:\n      designed: .*\n", lambda m: f"    {written}\n", card=card)
    result = validate()
    assert result.code == 1, result.output
    found = [p for p in result.problems if p.path == "content/home-deck/facilities.yaml" and f"card '{card}', field 'source" in p.message and says in p.message]
    assert len(found) == 1, result.out
    # On the source: its key, its value or the value's inner key.
    assert at(text, off)[0] <= found[0].line <= at(text, off)[0] + written.count("\n"), found[0]


@pytest.mark.parametrize(
    "rel, pattern, what",
    [
        ("effects.yaml", r"^    source: (homeDeck-\S+)\n", "effect '{key}': source"),
        ("house-rules.yaml", r"^    source: (homeDeck-\S+)\n", "house rule '{key}': source"),
        ("game.yaml", r"^  handLimit: (\S+)\n(?=(?:.*\n)*?^tableSources:)", None),
        ("supplies.yaml", r"^  limitsSigns: (homeDeck-\S+)\n", "supply 'limitsSigns': source"),
        ("home-deck/facilities.yaml", r"^  source: (\S+)\n", "facility start 'everyFacility': source"),
    ],
    ids=["effect", "house-rule", "table-constant", "supply", "every-facility"],
)
def test_rule_value_citing_an_undeclared_edition(content_copy: Path, validate: Validate, rel: str, pattern: str, what: str | None) -> None:
    text = read(content_copy, rel)
    if what is None:  # the table constant's source: the handLimit line under tableSources
        at_sources = text.index("\ntableSources:")
        m = re.compile(r"^  handLimit: (\S+)\n", re.M).search(text, at_sources)
        assert m, "tableSources has no handLimit (the content changed shape?)"
        text = text[: m.start(1)] + m.group(1) + "9" + text[m.end(1) :]
        write(content_copy, rel, text)
        off, what = m.start(), "table constant 'handLimit': source"
    else:
        text, off = sub(content_copy, rel, pattern, r"    source: \g<1>9\n" if pattern.startswith("^    ") else (r"  limitsSigns: \g<1>9\n" if "limitsSigns" in pattern else r"  source: \g<1>9\n"))
    key = ""
    if "{key}" in what:
        key = re.findall(r"^  - id: (\S+)", text[:off], re.M)[-1]
    result = validate()
    expect_problem(result, f"content/{rel}", *value_at(text, off), what.format(key=key), "9' is not a declared edition", "did you mean")


@pytest.mark.parametrize(
    "rel, pattern, repl, what",
    [
        ("game.yaml", r"^  paidStop: homeDeck-\S+\n", "  paidStop: homeDeck-0.8.9\n", "scoring 'paidStop': source"),
        ("game.yaml", r"^  departmentCards:\n    designed: .*\n", "  departmentCards: homeDeck-0.8.9\n", "setup 'departmentCards': source"),
        ("game.yaml", r"^  oddNumbersHead:\n    designed: .*\n", "  oddNumbersHead: homeDeck-0.8.9\n", "timetable 'oddNumbersHead': source"),
        ("mainline.yaml", r"^  fewestStages: mainline-\S+\n", "  fewestStages: homeDeck-0.8.9\n", "crossing 'fewestStages': source"),
        ("home-deck/trains.yaml", r"source: homeDeck-[0-9.]+(?=\})", "source: homeDeck-0.8.9", "restriction 'emptiesOnly': source"),
        ("home-deck/trains.yaml", r"^    source:\n      designed: .*\n", "    source: homeDeck-0.8.9\n", "restriction 'mayNotSwitch': source"),
        ("supplies.yaml", r"^  carCategories:\n    designed: .*\n", "  carCategories: homeDeck-0.8.9\n", "supply 'carCategories': source"),
    ],
    ids=["scoring", "setup", "timetable", "crossing", "restriction", "designed-restriction", "car-categories"],
)
def test_moved_rule_value_citing_an_undeclared_edition(content_copy: Path, validate: Validate, rel: str, pattern: str, repl: str, what: str) -> None:
    """The values moved out of code into content (scoring, setup, timetable,
    crossing, restrictions, car categories) are held to the declared editions too."""
    text, off = sub(content_copy, rel, pattern, repl)
    result = validate()
    line = expect_problem(
        result, f"content/{rel}", *at(text, text.index("homeDeck-0.8.9", off)),
        what, "'homeDeck-0.8.9' is not a declared edition", "did you mean 'homeDeck-0.8.6'",
    )
    assert len(result.problems) == 1, line


@pytest.mark.parametrize(
    "rel, pattern, says",
    [
        ("game.yaml", r"^  gameDays:\n    designed: .*\n", "field 'tableSources': missing required key 'gameDays'"),
        ("supplies.yaml", r"^  crewTrays:\n    designed: .*\n", "field 'sources': missing required key 'crewTrays'"),
        ("game.yaml", r"^tableSources:\n(?:  .*\n)+", "missing required key 'tableSources'"),
        ("effects.yaml", r"^    source: \S+\n", "field 'effects[0]': missing required key 'source'"),
        ("house-rules.yaml", r"^    source: \S+\n", "field 'houseRules[0]': missing required key 'source'"),
        ("game.yaml", r"^  paidStop: homeDeck-\S+\n", "field 'scoringSources': missing required key 'paidStop'"),
        ("game.yaml", r"^  loadWorked:\n    designed: .*\n", "field 'scoringSources': missing required key 'loadWorked'"),
        ("game.yaml", r"^scoringSources:\n(?:  .*\n)+", "missing required key 'scoringSources'"),
        ("game.yaml", r"^setupSources:\n(?:  .*\n)+", "missing required key 'setupSources'"),
        ("game.yaml", r"^timetableSources:\n(?:  .*\n)+", "missing required key 'timetableSources'"),
        ("mainline.yaml", r"^  slowTrainAdds: mainline-\S+\n", "field 'crossingSources': missing required key 'slowTrainAdds'"),
        ("mainline.yaml", r"^crossingSources:\n(?:  .*\n)+", "missing required key 'crossingSources'"),
        ("home-deck/trains.yaml", r", source: homeDeck-[0-9.]+(?=\})", "field 'restrictions.emptiesOnly': missing required key 'source'"),
        ("home-deck/trains.yaml", r"^    source:\n      designed: .*\n", "field 'restrictions.mayNotSwitch': missing required key 'source'"),
        ("supplies.yaml", r"^  carCategories:\n    designed: .*\n", "field 'sources': missing required key 'carCategories'"),
    ],
    ids=[
        "table-constant", "supply", "whole-table", "effect", "house-rule", "scoring", "designed-scoring", "whole-scoring", "whole-setup",
        "whole-timetable", "crossing", "whole-crossing", "restriction", "designed-restriction", "car-categories",
    ],
)
def test_rule_value_without_a_source(content_copy: Path, validate: Validate, rel: str, pattern: str, says: str) -> None:
    text, off = sub(content_copy, rel, pattern, "")
    result = validate()
    assert result.code == 1, result.output
    found = [p for p in result.problems if p.path == f"content/{rel}" and says in p.message]
    assert len(found) == 1, result.out


@pytest.mark.parametrize(
    "pattern, repl, says",
    [
        (r'^    seed: "000"\n', "", "missing required key 'seed'"),
        (r'^    seed: "000"$', '    seed: "0"', "the text '0' is not valid here"),
        (r"^  homeDeck-0\.8\.6:$", "  home deck:", "key 'home deck' is not valid here"),
    ],
    ids=["no-seed", "bad-seed", "bad-edition-id"],
)
def test_malformed_edition_declaration(content_copy: Path, validate: Validate, pattern: str, repl: str, says: str) -> None:
    sub(content_copy, "game.yaml", pattern, repl)
    result = validate()
    assert result.code == 1, result.output
    found = [p for p in result.problems if p.path == "content/game.yaml" and "sourceEditions" in p.message and says in p.message]
    assert found, result.out
