"""Names a reader must tell apart. A card name holding U+200B (or U+2060,
U+00AD, U+180E), one that is only spaces or fillers, two cards with one
name and a Cyrillic look-alike of a real card's name all passed validate
and reached the pages raw; each is now a located problem naming the card
and the character. Names are put in NFC first, so "é" written as e and a
combining accent is the same name as the composed "é"."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from engine.content import names
from tests.kit.validate import Validate, cards, position, read, write

FACILITIES = "home-deck/facilities.yaml"


def _rename(content: Path, rel: str, index: int, new: str) -> tuple[str, str]:
    """Give the ``index``-th card of ``rel`` the name ``new`` (as a JSON
    string, so any character can be written); its id and the new text."""
    card = cards(rel)[index]
    text = read(content, rel)
    escaped = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in new)
    old = f"    name: {card['name']}\n"
    assert text.count(old) >= 1, f"{card['name']!r} not written plainly in {rel}"
    start = text.index(f"  - id: {card['id']}\n")
    at = text.index(old, start)
    text = text[:at] + f'    name: "{escaped}"\n' + text[at + len(old) :]
    write(content, rel, text)
    return card["id"], text


@pytest.mark.parametrize("char", ["\u200b", "\u2060", "\u00ad", "\u180e", "\ufeff"], ids=["U+200B", "U+2060", "U+00AD", "U+180E", "U+FEFF"])
def test_a_name_holding_an_invisible_character(content_copy: Path, validate: Validate, char: str) -> None:
    name = cards(FACILITIES)[0]["name"]
    card, text = _rename(content_copy, FACILITIES, 0, name[:2] + char + name[2:])
    result = validate()
    where = position(text, f"  - id: {card}\n")[0]
    (problem,) = result.problems
    assert problem.path == f"content/{FACILITIES}" and problem.line > where, result.out
    assert f"card '{card}', field 'name'" in problem.message, problem.message
    assert f"U+{ord(char):04X} {unicodedata.name(char)}" in problem.message, problem.message


@pytest.mark.parametrize("name", ["   ", "\u3164", " \u2800 ", "\u115f\u1160", "\u3000"], ids=["spaces", "hangul-filler", "braille-blank", "choseong-jungseong-fillers", "ideographic-space"])
def test_a_name_that_shows_nothing(content_copy: Path, validate: Validate, name: str) -> None:
    card, _ = _rename(content_copy, FACILITIES, 1, name)
    result = validate()
    (problem,) = result.problems
    assert f"card '{card}', field 'name'" in problem.message and "shows no character" in problem.message, problem.message


def test_two_cards_with_one_name(content_copy: Path, validate: Validate) -> None:
    first = cards(FACILITIES)[0]
    card, text = _rename(content_copy, FACILITIES, 2, first["name"])
    result = validate()
    (problem,) = result.problems
    assert f"card '{card}', field 'name'" in problem.message, problem.message
    assert f"is already the name of card '{first['id']}'" in problem.message, problem.message


def test_a_decomposed_name_is_the_same_name(content_copy: Path, validate: Validate) -> None:
    # "Café" with a combining accent is "Café": NFC first, then compared.
    _rename(content_copy, FACILITIES, 0, "Caf\u00e9")
    card, _ = _rename(content_copy, FACILITIES, 1, "Cafe\u0301")
    result = validate()
    (problem,) = result.problems
    assert f"card '{card}'" in problem.message and "is already the name of card" in problem.message, problem.message


def test_a_decomposed_name_alone_is_accepted(content_copy: Path, validate: Validate) -> None:
    _rename(content_copy, FACILITIES, 0, "Cafe\u0301 Sidings")
    assert validate().code == 0


def test_a_cyrillic_look_alike_of_another_card_name(content_copy: Path, validate: Validate) -> None:
    trains = "home-deck/trains.yaml"
    first = cards(trains)[0]
    fake = first["name"].replace("o", "\u043e")
    assert fake != first["name"]
    card, _ = _rename(content_copy, trains, 1, fake)
    result = validate()
    (problem,) = result.problems
    assert f"card '{card}', field 'name'" in problem.message, problem.message
    assert f"the name of card '{first['id']}'" in problem.message, problem.message
    assert "U+043E CYRILLIC SMALL LETTER O" in problem.message, problem.message


def test_a_look_alike_across_files_of_the_pack(content_copy: Path, validate: Validate) -> None:
    other = cards("home-deck/offices.yaml")[0]
    card, _ = _rename(content_copy, FACILITIES, 0, re.sub("[Oo]", lambda m: "\u041e" if m[0] == "O" else "\u043e", other["name"], count=1))
    result = validate()
    (problem,) = result.problems
    assert f"card '{card}'" in problem.message and f"card '{other['id']}'" in problem.message, problem.message


def test_the_skeleton_follows_unicode() -> None:
    # UTS #39's own examples: a look-alike maps onto the letters it mimics.
    assert names.skeleton("\u0440\u0430\u0443\u0440\u0430\u04cf") == names.skeleton("paypal")
    assert names.skeleton("rn") == names.skeleton("m")
    assert names.skeleton("Express") != names.skeleton("Expression")


def test_display_names_outside_cards_are_checked(content_copy: Path, validate: Validate) -> None:
    text = read(content_copy, "game.yaml")
    line = re.search(r"(?m)^title: (.*)$", text)
    assert line is not None
    write(content_copy, "game.yaml", text.replace(line[0], 'title: "Station\\u200bMaster"', 1))
    result = validate()
    (problem,) = result.problems
    assert problem.path == "content/game.yaml" and "field 'title'" in problem.message and "U+200B ZERO WIDTH SPACE" in problem.message, problem.message
