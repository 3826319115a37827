"""Card facts live in content, once: the engine and the generator read them
from the catalog and never spell them out again.

Each test walks the string literals of the Python code (docstrings aside)
and looks for a fact the shipped content holds: a card id, a car type, the
words of a train restriction, a card's printed name. A planted literal shows
each check can fail.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from engine.stationmaster.content.build import CARD_BUILDERS
from engine.stationmaster.content.model import Catalog, Consist, TrackShape
from generator.stationmaster.tables import TABLES
from tests.kit.project import PROJECT_ROOT
from tests.kit.source_text import literals, pack_code
from tests.kit.stationmaster import CATALOG

CODE = pack_code("stationmaster")

# Words the code may use because they name something other than a card:
# effect ids (the handler registry's keys; many equal their card's id),
# family names and table names.
NOT_CARD_IDS = set(CATALOG.effects) | set(CARD_BUILDERS) | set(TABLES)
# A car type may share its name with a consist category (the limits on a train
# card: coach and freight), which the consist rules name by design.
CONSIST_CATEGORIES = {f.name for f in dataclasses.fields(Consist)}


def exact_facts() -> dict[str, str]:
    """Literal text that would restate a content fact, and which fact."""
    facts: dict[str, str] = {}
    for card in CATALOG.cards:
        if card.id not in NOT_CARD_IDS:
            facts[card.id] = "a card id"
    for kind, _ in CATALOG.supplies.cars:
        if kind not in CONSIST_CATEGORIES:
            facts[kind] = "a car type (supplies.yaml)"
    for rid, rule in CATALOG.restrictions.items():
        facts[rule.words] = f"the words of restriction {rid} (trains.yaml)"
    return facts


def restated(source: str, facts: dict[str, str]) -> list[str]:
    return [f"line {line}: {text!r} is {facts[text]}" for line, text in literals(source) if text in facts]


def named_cards(source: str) -> list[str]:
    """Card names written inside string literals (the game's own title,
    which holds the word Station, is not a card)."""
    pattern = re.compile("|".join(rf"\b{re.escape(c.name)}\b" for c in sorted(CATALOG.cards, key=lambda c: -len(c.name))))
    found = []
    for line, text in literals(source):
        for m in pattern.finditer(text.replace(CATALOG.game.title, "")):
            found.append(f"line {line}: {text!r} names the card {m.group(0)!r}")
    return found


def _rel(path: Path) -> str:
    return path.relative_to(PROJECT_ROOT).as_posix()


@pytest.mark.parametrize("path", CODE, ids=_rel)
def test_no_card_id_car_type_or_restriction_words_in_code(path: Path) -> None:
    problems = restated(path.read_text(encoding="utf-8"), exact_facts())
    assert not problems, f"{_rel(path)} restates content; read it from the catalog instead:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", CODE, ids=_rel)
def test_no_card_name_in_code(path: Path) -> None:
    problems = named_cards(path.read_text(encoding="utf-8"))
    assert not problems, f"{_rel(path)} names cards; take the name from the catalog:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "planted",
    [
        'LABELS = {"straight": "Straight"}\n',
        'if car.type != "reefer":\n    pass\n',
        'WORDS = "reefers only"\n',
    ],
)
def test_a_planted_fact_is_found(planted: str) -> None:
    assert restated(planted, exact_facts())


def test_a_planted_card_name_is_found() -> None:
    assert named_cards('host_words = "any Passenger Facility (Depot or above)"\n')


def test_docstrings_and_effect_ids_are_not_facts() -> None:
    source = '"""Lay a straight: see "straight"."""\n@handler("red-flag")\ndef f():\n    """The Depot."""\n'
    assert not restated(source, exact_facts())
    assert not named_cards(source)


def test_the_grid_cell_fits_the_longest_label_the_schema_allows() -> None:
    import json

    from command.stationmaster import textview

    schema = json.loads((PROJECT_ROOT / "content" / "stationmaster" / "schema" / "track.schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["card"]["properties"]["label"]["maxLength"] == textview.LABEL_WIDTH


def test_the_grid_shows_each_track_card_by_its_content_label(catalog: Catalog) -> None:
    from command.stationmaster.textview import short_label
    from engine.stationmaster.rules.game import Game
    from engine.stationmaster.rules.state import Square

    game = Game(catalog, seed=1)
    for shape in catalog.of_type(TrackShape):
        assert short_label(game, Square(kind="track", card=shape.id)) == shape.label
