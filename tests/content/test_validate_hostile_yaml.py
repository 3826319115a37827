"""``stationmaster validate`` on hostile or odd YAML: object-constructing
tags, alias bombs and self-referring aliases, bytes that are not UTF-8,
control characters, line breaks other than newline, and numbers that are
not numbers; refused quickly, where they stand."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.content.yamlread import YamlReadError, read_yaml
from tests.kit.cli import CliResult
from tests.kit.project import PROJECT_ROOT
from tests.kit.validate import HEADER, SUPPLIES_HEADER, Validate, at, expect_problem, no_traceback, position, read, snapshot, sub, write


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
    lines = [SUPPLIES_HEADER, 'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n']
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
        result,
        "content/game.yaml",
        *at(good, len(good)),
        "the file is not UTF-8 text",
        f"byte 0x{data[bad]:02x}",
        "save it as UTF-8",
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
    (schema / "things.schema.json").write_text(
        json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"n": {"type": "number", "minimum": 0, "maximum": 10}}}), encoding="utf-8"
    )
    checked = SchemaSet(schema)
    assert checked.check("things", {"n": 5.0}) == []
    assert [i.pointer for i in checked.check("things", {"n": float("nan")})] == [("n",)]
