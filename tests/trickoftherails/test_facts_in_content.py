"""Trick of the Rails' facts live in its content, once (the pack's mirror of
tests/stationmaster/content/test_facts_in_content.py).

- The pack's engine (its rules, and the tables, lane pictures and worked
  game it gives the site) and the generator name no card by id or name in a
  string literal: they read the catalog.
- The pack's templates type no figure and name no card: every number in a
  generated block comes from the context.
- The hand-written prose of ``site/trickoftherails/`` types no number the
  content holds (a hand size, a cost, a station value, a card's number, a
  player count, how many cards of a kind there are ...), neither as digits
  nor as a word: it links to, or sits beside, a generated block that says it.

A planted literal or sentence shows each check can fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rng import SeededStream
from engine.trickoftherails.content.catalog import CARD_FAMILIES
from engine.trickoftherails.content.model import KIND_NAMES, Catalog
from engine.trickoftherails.rules.setup import deal, lane_plan
from generator.trickoftherails.tables import TABLES
from tests.kit.pages import split_page
from tests.kit.project import PROJECT_ROOT
from tests.kit.source_text import literals, pack_code
from tests.kit.trickoftherails import CATALOG

CODE = pack_code("trickoftherails")
TEMPLATES = sorted((PROJECT_ROOT / "generator" / "templates" / "trickoftherails").glob("*.j2"))
PAGES = sorted((PROJECT_ROOT / "site" / "trickoftherails").glob("*.md"))

# Words the code may use although a card shares them: effect ids, family
# names, table names and lane slot kinds (the lane schema's words).
NOT_CARD_IDS = set(CATALOG.effects) | set(CARD_FAMILIES) | set(TABLES) | {"exchange", "city", "reservation", "operating"}
# A kind of card may share its word with a card (the Reservation): the kind
# names (``KIND_NAMES``) are how the code speaks of a family, not of a card.
NOT_CARD_NAMES = set(KIND_NAMES.values())


def _rel(path: Path) -> str:
    return path.relative_to(PROJECT_ROOT).as_posix()


# -- code -------------------------------------------------------------------------


def _card_name_pattern(catalog: Catalog) -> re.Pattern[str]:
    names = sorted({c.name for c in catalog.cards} - NOT_CARD_NAMES, key=len, reverse=True)
    return re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in names))


def restated_in_code(source: str, catalog: Catalog = CATALOG) -> list[str]:
    ids = {c.id for c in catalog.cards} - NOT_CARD_IDS
    names = _card_name_pattern(catalog)
    found = []
    for line, text in literals(source):
        if text in ids:
            found.append(f"line {line}: {text!r} is a card id")
        for match in names.finditer(text.replace(catalog.title, "")):
            found.append(f"line {line}: {text!r} names the card {match.group(0)!r}")
    return found


@pytest.mark.parametrize("path", CODE, ids=_rel)
def test_no_card_id_or_name_in_the_pack_code_or_the_generator(path: Path) -> None:
    problems = restated_in_code(path.read_text(encoding="utf-8"))
    assert not problems, f"{_rel(path)} restates content; read it from the catalog:\n" + "\n".join(problems)


def test_a_planted_card_id_or_name_in_code_is_found() -> None:
    assert restated_in_code('FIRST = "loco-3"\n')
    assert restated_in_code('LABEL = "the Pittsburgh card"\n')
    assert not restated_in_code('"""The Locomotive [3] and Pittsburgh."""\nSLOT = "reservation"\n')


# -- templates ---------------------------------------------------------------------

_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)


def typed_in_template(text: str, catalog: Catalog = CATALOG) -> list[str]:
    """Digits and card names in a template's own text (outside its tags)."""
    literal = _JINJA.sub(" ", text)
    found = [f"the figure {m.group(0)!r}" for m in re.finditer(r"\d+", literal)]
    found += [f"the card name {m.group(0)!r}" for m in _card_name_pattern(catalog).finditer(literal)]
    return found


@pytest.mark.parametrize("path", TEMPLATES, ids=_rel)
def test_no_figure_or_card_name_typed_in_a_template(path: Path) -> None:
    problems = typed_in_template(path.read_text(encoding="utf-8"))
    assert not problems, f"{_rel(path)} types content; take it from the context:\n" + "\n".join(problems)


def test_a_planted_figure_in_a_template_is_found() -> None:
    assert typed_in_template("| {{ r.company }} 1 to 10 |\n")
    assert typed_in_template("Place New York first.\n")
    assert not typed_in_template("| {{ r.company }} {{ numbers }} | ---: |\n")


# -- prose ---------------------------------------------------------------------------

_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> list[str]:
    """How prose may spell ``n`` (0 to 100) as a word."""
    if n < 20:
        return [_ONES[n]]
    if n == 100:
        return ["hundred", "one hundred", "a hundred"]
    tens, ones = divmod(n, 10)
    word = _TENS[tens - 2]
    return [word] if ones == 0 else [f"{word}-{_ONES[ones]}", f"{word} {_ONES[ones]}"]


def content_numbers(catalog: Catalog) -> set[int]:
    """Every number the content holds or directly implies: card fields, hand
    sizes and player counts, the share floor, how many cards of each kind and
    companies there are, and each lane's length, slots and leftovers."""
    found: set[int] = {catalog.share_floor, len(catalog.companies), len(catalog.cards), sum(c.count for c in catalog.cards)}
    for card in catalog.cards:
        found.update(v for v in (card.number, card.station_value, card.reach, card.cost, card.count) if v is not None)
    families = {c.family for c in catalog.cards}
    for family in families:
        cards = catalog.of_family(family)
        found.update({len(cards), sum(c.count for c in cards)})
    for hand in catalog.hands.values():
        found.update({hand.players, hand.cards})
        found.add(len(deal(catalog, hand.players, SeededStream(0))[1]))
    for variant in catalog.variants.values():
        found.update(variant.players or ())
    found.add(len(catalog.operating_pool))
    for players, layout in catalog.layouts.items():
        for slots, name in ((layout.basic, "basic"), (layout.expert, "expert")):
            found.add(len(slots))
            found.update(len(group.slots) for group in lane_plan(catalog, players, name))
    return found


_ONE_WORD_FLAGGED = 3  # "one" and "two" are too common ("one share", "the two ends") to flag; from three up, a number word is a figure


def _prose_only(text: str) -> str:
    """What a reader sees as hand-typed text: the page without its generated
    blocks, code, link targets, HTML tags, heading ids and list numbers."""
    prose, _ = split_page(text)
    prose = re.sub(r"^(```|~~~).*?^\1", " ", prose, flags=re.DOTALL | re.MULTILINE)
    prose = re.sub(r"`[^`]*`", " ", prose)
    prose = re.sub(r"<!--.*?-->", " ", prose, flags=re.DOTALL)
    prose = re.sub(r"<[^>]+>", " ", prose)
    prose = re.sub(r"\]\([^)]*\)", "] ", prose)
    prose = re.sub(r"\{[#:.][^}]*\}", " ", prose)
    prose = re.sub(r"^\s*\d+\.\s", " ", prose, flags=re.MULTILINE)
    return prose


def typed_in_prose(text: str, catalog: Catalog = CATALOG) -> list[str]:
    numbers = content_numbers(catalog)
    prose = _prose_only(text)
    found = []
    for match in re.finditer(r"(?<![\w.])\d+(?![\w.]*\d)", prose):
        if int(match.group(0)) in numbers:
            found.append(f"{match.group(0)!r} in {_context(prose, match)!r}")
    words = {word: n for n in numbers if _ONE_WORD_FLAGGED <= n <= 100 for word in number_words(n)}
    if words:
        pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")\b", re.IGNORECASE)
        found += [f"{m.group(0)!r} ({words[m.group(0).lower()]}) in {_context(prose, m)!r}" for m in pattern.finditer(prose)]
    return found


def _context(text: str, match: re.Match[str]) -> str:
    return " ".join(text[max(0, match.start() - 40) : match.end() + 40].split())


@pytest.mark.parametrize("path", PAGES, ids=_rel)
def test_no_content_number_typed_in_the_prose(path: Path) -> None:
    problems = typed_in_prose(path.read_text(encoding="utf-8"))
    assert not problems, f"{_rel(path)} types figures the content holds; generate them or link to the table that does:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "planted",
    [
        "Each player is dealt 11 cards.\n",
        "The Locomotive costs forty.\n",
        "There are fifty Railway cards.\n",
        "For three to five players.\n",
    ],
)
def test_a_planted_figure_in_prose_is_found(planted: str) -> None:
    assert typed_in_prose(planted)


def test_generated_blocks_code_and_link_targets_are_not_prose() -> None:
    page = (
        "See [the table](rules.md#lane-basic-3) and `loco-3`.\n\n"
        "1. First step.\n\n"
        "### Heading {#lane-expert-4}\n\n"
        "<!-- generated: deal-figures -->\n| 3 players | 15 cards |\n<!-- /generated -->\n\n"
        "Published in 2011, one share each.\n"
    )
    assert typed_in_prose(page) == []
