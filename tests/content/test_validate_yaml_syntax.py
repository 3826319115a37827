"""``stationmaster validate`` on YAML that does not parse, or repeats a key:
each fault is one ``path:line:column: message`` at the construct that is
broken (where an unclosed one starts), never a traceback."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import pytest

from tests.kit.validate import Validate, at, expect_problem, position, sub

# -- YAML syntax -------------------------------------------------------------


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
    assert 'YAML syntax error: the text opened with a double quote (") here is never closed' in problem.message
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


# -- repeated keys -----------------------------------------------------------


def test_repeated_key_in_a_block_mapping_names_the_first(content_copy: Path, validate: Validate) -> None:
    text, _ = sub(content_copy, "game.yaml", r"^  dieSides: .*$", "\\g<0>\n  handLimit: 4")
    # the first two: the table's own and the repeat (tableSources has one too)
    first, second = sorted(m.start() for m in re.finditer(r"^  handLimit:", text, re.M))[:2]
    result = validate()
    expect_problem(
        result,
        "content/game.yaml",
        *at(text, second + 2),
        "key 'handLimit' is repeated in this mapping",
        f"(first at line {at(text, first)[0]})",
    )
    assert len(result.problems) == 1


def test_repeated_key_in_a_flow_mapping_names_the_first(content_copy: Path, validate: Validate) -> None:
    text, off = sub(content_copy, "home-deck/trains.yaml", r"consist: \{(\w+): ", r"consist: {\1: 1, \1: ")
    key = cast("re.Match[str]", re.match(r"consist: \{(\w+)", text[off:]))[1]
    first = off + len("consist: {")
    second = first + len(key) + len(": 1, ")
    result = validate()
    expect_problem(
        result,
        "content/home-deck/trains.yaml",
        *at(text, second),
        f"key '{key}' is repeated in this mapping",
        f"(first at line {at(text, first)[0]})",
    )
    assert len(result.problems) == 1
