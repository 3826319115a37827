"""``stationmaster validate`` on provenance: every card and rule value
cites a declared edition of a source document, or says why it was
designed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.kit.project import SHIPPED_CONTENT
from tests.kit.validate import Validate, at, card_span, card_start, cards, expect_problem, read, sub, value_at, write

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
        result,
        "content/home-deck/maneuvers.yaml",
        *value_at(text, off),
        f"card '{card}', field 'source': '",
        "is not a declared edition (did you mean '",
        "game.yaml's sourceEditions declare: homeDeck-0.8.6",
    )
    assert "9' is not a declared edition" in line


@pytest.mark.parametrize(
    "written, says",
    [
        ("source: homedeck", "expected the id of a published edition"),
        ("source: 0.8.6", "expected the id of a published edition"),
        ("source:\n      desgined: The rules are silent on this card.", "unknown key 'desgined' (did you mean 'designed'?)"),
        ("source:\n      designed: ''", "needs at least 8 character(s)"),
        ('source:\n      designed: "First line.\\nSecond line."', "is not valid here"),
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
        result,
        f"content/{rel}",
        *at(text, text.index("homeDeck-0.8.9", off)),
        what,
        "'homeDeck-0.8.9' is not a declared edition",
        "did you mean 'homeDeck-0.8.6'",
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
        "table-constant",
        "supply",
        "whole-table",
        "effect",
        "house-rule",
        "scoring",
        "designed-scoring",
        "whole-scoring",
        "whole-setup",
        "whole-timetable",
        "crossing",
        "whole-crossing",
        "restriction",
        "designed-restriction",
        "car-categories",
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
