"""``stationmaster validate`` on clean content: the shipped content, in a
copy and in place, in every output format and in a child process; YAML
anchors and aliases a designer may use, and hidden files that are no
content."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.kit.cli import CliResult, RunCli
from tests.kit.project import PROJECT_ROOT
from tests.kit.validate import SUMMARY, Validate, expect_problem, no_traceback, snapshot, sub, value_at, write


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
    assert lines and all(re.match(r"^content/[a-z][a-z0-9]*: ok, ", line) and SUMMARY.match("content" + line[line.index(":") :]) for line in lines), result.out


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
