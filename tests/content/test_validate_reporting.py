"""How ``stationmaster validate`` reports: every problem of every file, in
the text, GitHub and JSON formats, one problem a line whatever a value
holds, with paths relative to where it was run."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.kit.cli import PROBLEM_LINE, RunCli
from tests.kit.validate import Validate, at, card_at, card_start, cards, expect_problem, misspell, schema_key, set_consist, shipped, sub, value_at, write


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
    mods, m = sub(content_copy, "home-deck/modifiers.yaml", r"hosts: \[([\w-]+)", misspell)
    moves, e = sub(content_copy, "home-deck/maneuvers.yaml", r"^    effect: ([\w-]+)", misspell, nth=len(cards("home-deck/maneuvers.yaml")))
    result = validate()
    expect_problem(result, "content/home-deck/trains.yaml", *value_at(trains, t), f"card '{card_at(trains, t)}', field 'speed'", "did you mean 'slow'?")
    assert any(p.line == at(mods, m)[0] and f"card '{card_at(mods, m)}', field 'hosts[0]'" in p.message for p in result.problems), result.out
    expect_problem(result, "content/home-deck/maneuvers.yaml", *value_at(moves, e), f"card '{card_at(moves, e)}', field 'effect'", "is not declared")
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
    trains, t, card = set_consist(content_copy, f"{{freight: {pieces + 1}}}", caboose=False)
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
    speeds = schema_key(content_copy, "schema/defs.schema.json", '"speed": {', "enum")
    result = validate("--format", "github")
    assert result.code == 1, result.output
    assert result.out.splitlines() == [
        f"::error file=content/game.yaml,line={line},col={col}::field 'table.handLimit': expected a whole number, got the text 'x' (a number is written in digits, as handLimit: 1)",
        f"::error file=content/home-deck/trains.yaml,line={tline},col={tcol}::card '{card_at(trains, t)}', field 'speed': the text 'slo' is not one of: fast, slow (did you mean 'slow'?); the allowed set is listed in {speeds}",
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
        f"::error file=odd%2Cdir/game.yaml,line={line},col={col}::field 'table.handLimit': expected a whole number, got the text '5%25%0Ax' (a number is written in digits, as handLimit: 1)\n"
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
