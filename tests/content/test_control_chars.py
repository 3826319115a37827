"""Characters a designer cannot see are refused in content, by one rule in
the YAML reader for every text and key: control characters (NUL, ESC, the
rest of C0 and C1, DEL; tab and newline are fine) and the bidirectional
marks, overrides and isolates that reorder text. Each is a located problem
naming the character by its code point.

YAML lets them in through escapes in double-quoted text ("\\e", "\\u202e"),
and the bidi ones even as written; a title that reads "Station Master" in an
editor could print as anything in a terminal or on the site.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.content.yamlread import YamlReadError, read_yaml
from tests.kit.cli import CliResult, RunCli

BIDI = ["\u200e", "\u200f", "\u061c", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))]
CONTROLS = [chr(c) for c in [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)]]


def issue_of(text: str) -> tuple[int, int, str]:
    with pytest.raises(YamlReadError) as caught:
        read_yaml(text)
    assert len(caught.value.issues) == 1, caught.value.issues
    found = caught.value.issues[0]
    return found.line, found.column, found.message


@pytest.mark.parametrize("char", BIDI, ids=lambda c: f"U+{ord(c):04X}")
def test_bidi_control_written_as_itself_is_located_at_the_character(char: str) -> None:
    line, column, message = issue_of(f"cards:\n  - id: a\n    name: Caf\u00e9 {char}Yard\n")
    assert (line, column) == (3, len("    name: Caf\u00e9 ") + 1)
    assert message == f"'name' holds U+{ord(char):04X} {unicodedata.name(char)}, an invisible character that reorders text; remove it"


@pytest.mark.parametrize("char", BIDI + CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_any_hidden_character_written_as_an_escape_is_located_at_the_text(char: str) -> None:
    line, column, message = issue_of(f'title: "Station \\u{ord(char):04x}Master"\n')
    assert (line, column) == (1, len("title: ") + 1)
    assert message.startswith(f"'title' holds U+{ord(char):04X}")
    assert message.endswith("; remove it")


@pytest.mark.parametrize(
    ("escape", "named"),
    [("\\0", "U+0000 NULL"), ("\\e", "U+001B ESCAPE"), ("\\a", "U+0007 BELL"), ("\\x9b", "U+009B"), ("\\r", "U+000D CARRIAGE RETURN"), ("\\x7f", "U+007F DELETE")],
)
def test_control_characters_are_named(escape: str, named: str) -> None:
    _, _, message = issue_of(f'id: "a{escape}[31m"\n')
    assert message == f"'id' holds {named}, a control character that does not belong in text; remove it"


@pytest.mark.parametrize(("char", "named"), [("\x1b", "U+001B ESCAPE"), ("\x00", "U+0000 NULL"), ("\x9b", "U+009B"), ("\x7f", "U+007F DELETE")])
def test_a_control_character_written_as_itself_is_named_where_yaml_refuses_it(char: str, named: str) -> None:
    # YAML itself refuses these as written; the problem now says which one.
    line, column, message = issue_of(f"id: a\nname: Caf\u00e9{char}\n")
    assert (line, column) == (2, len("name: Caf\u00e9") + 1)
    assert message.startswith(f"the file holds {named}, a character YAML does not allow")


def test_a_key_holding_one_is_refused_without_repeating_it() -> None:
    line, column, message = issue_of("cards:\n  - id: a\n    na\u202eme: x\n")
    assert (line, column) == (3, 7)
    assert message.startswith("a key holds U+202E RIGHT-TO-LEFT OVERRIDE")


def test_items_of_a_list_name_the_list() -> None:
    _, _, message = issue_of('lockouts: [a, "b\\u2066"]\n')
    assert message.startswith("'lockouts' holds U+2066 LEFT-TO-RIGHT ISOLATE")


def test_tab_newline_and_ordinary_unicode_stay_allowed() -> None:
    text = 'text: "one\\ttwo\\nthree"\nname: Caf\u00e9 \u00e0 la gare \u2014 \u05e9\u05dc\u05d5\u05dd \U0001f682\nnote: |\n  a\tb\n  c\n'
    value = read_yaml(text).value
    assert value["text"] == "one\ttwo\nthree"
    assert "\t" in value["note"]


def test_every_one_in_a_file_is_listed() -> None:
    with pytest.raises(YamlReadError) as caught:
        read_yaml('a: "\\e"\nb: ok\nc: x\u202ey\n')
    assert [(i.line, i.column) for i in caught.value.issues] == [(1, 4), (3, 5)]


# ------------------------------------------------------------- through the CLI


@pytest.fixture
def validate(content_copy: Path, run_cli: RunCli, tmp_path: Path) -> Callable[[], CliResult]:
    def run() -> CliResult:
        result = run_cli(["validate", "content"], tmp_path)
        assert "Traceback" not in result.output and "internal error" not in result.output, result.output
        return result

    return run


def _edit(content: Path, rel: str, pattern: str, replacement: str) -> str:
    path = content / rel
    text, count = re.subn(pattern, replacement, path.read_text(encoding="utf-8"), count=1, flags=re.M)
    assert count == 1, pattern
    path.write_text(text, encoding="utf-8")
    return text


def _where(text: str, needle: str) -> tuple[int, int]:
    offset = text.index(needle)
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def test_a_game_title_holding_an_override_is_a_located_problem(content_copy: Path, validate: Callable[[], CliResult]) -> None:
    text = _edit(content_copy, "game.yaml", r"^title: (.*)$", "title: \\1 \u202eretsaM")
    result = validate()
    assert result.code == 1, result.output
    line, column = _where(text, "\u202e")
    assert f"content/game.yaml:{line}:{column}: 'title' holds U+202E RIGHT-TO-LEFT OVERRIDE, an invisible character that reorders text; remove it" in result.out


def test_a_card_name_holding_an_escape_character_is_a_located_problem(content_copy: Path, validate: Callable[[], CliResult]) -> None:
    text = _edit(content_copy, "home-deck/trains.yaml", r"^(  - id: .*\n    name: )(.*)$", '\\1"\\2\\\\e[2J"')
    result = validate()
    assert result.code == 1, result.output
    line, column = _where(text, '"' + text.split('\\e[2J"')[0].rsplit('"', 1)[1])
    assert f"content/home-deck/trains.yaml:{line}:{column}: 'name' holds U+001B ESCAPE, a control character that does not belong in text; remove it" in result.out


def test_a_card_id_holding_nul_is_a_located_problem(content_copy: Path, validate: Callable[[], CliResult]) -> None:
    text = _edit(content_copy, "home-deck/facilities.yaml", r"^  - id: (.*)$", '  - id: "\\1\\\\0"')
    result = validate()
    assert result.code == 1, result.output
    line, column = _where(text, '\\0"')
    assert f"content/home-deck/facilities.yaml:{line}:9: 'id' holds U+0000 NULL" in result.out
