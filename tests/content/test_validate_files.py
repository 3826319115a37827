"""``stationmaster validate`` and the file system: empty files, a top level
of the wrong shape, stray files, nesting past the reader's depth limit (with
and without libyaml), folders and files that cannot be read, and arguments
that make no command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.content.yamlread import MAX_DEPTH
from tests.kit import hang_guard
from tests.kit.cli import PROBLEM_LINE, RunCli
from tests.kit.project import PROJECT_ROOT
from tests.kit.validate import HEADER, SUPPLIES_HEADER, Validate, card_at, expect_problem, no_traceback, position, sub, value_at, write

# -- file shapes -------------------------------------------------------------


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b"", "the first line must name the file's schema"),
        (b"\n\n", "the first line must name the file's schema"),
        (SUPPLIES_HEADER.encode(), "the file is empty; it should hold a mapping"),
        ((SUPPLIES_HEADER + "# nothing yet\n\n# still nothing\n").encode(), "the file is empty; it should hold a mapping"),
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


# -- usage errors ------------------------------------------------------------


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
