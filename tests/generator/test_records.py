"""``cards.json`` says what its schema says it says.

Every pack's export is valid against the published ``site/cards.schema.json``,
and every description in that schema is checked against the data by a check
of its own, read from somewhere other than the export's code: the content's
YAML as written, the committed pages' tables, the pack's own answers. A
description added to the schema without a check fails
``test_every_description_is_checked``; a description that stops being true
fails the check named after it."""

from __future__ import annotations

import dataclasses
import html
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import jsonschema
import pytest
import yaml

from engine.pack import AnyPack, Configuration
from engine.packs import pack_rules
from generator.records import FORMAT, export, to_json
from tests.kit.pages import split_cells, split_page, status_of
from tests.kit.project import PROJECT_ROOT

SCHEMA_PATH = PROJECT_ROOT / "site" / "cards.schema.json"
SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
PACKS = ("stationmaster", "trickoftherails")
_ANCHOR = re.compile(r'<a id="card-([a-z0-9-]+)"></a>')


@dataclass(frozen=True)
class Export:
    """One pack's export beside what it is checked against."""

    pack: str
    rules: AnyPack
    catalog: Any
    data: dict[str, Any]

    @cached_property
    def configurations(self) -> dict[str, dict[str, Any]]:
        return {c["id"]: c for c in self.data["configurations"]}

    @cached_property
    def cards(self) -> dict[str, dict[str, Any]]:
        return {c["id"]: c for c in self.data["cards"]}

    @cached_property
    def raw(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Every card record as its YAML file writes it, by id, with the file's name."""
        found: dict[str, tuple[str, dict[str, Any]]] = {}
        for path in sorted((PROJECT_ROOT / "content" / self.pack).rglob("*.yaml")):
            loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
            for record in loaded.get("cards", []) if isinstance(loaded, dict) else []:
                assert record["id"] not in found, record["id"]
                found[record["id"]] = (path.name, record)
        return found

    @cached_property
    def game(self) -> dict[str, Any]:
        loaded: dict[str, Any] = yaml.safe_load((PROJECT_ROOT / "content" / self.pack / "game.yaml").read_text(encoding="utf-8"))
        return loaded

    @cached_property
    def rows(self) -> list[dict[str, str]]:
        """Every row of every generated table on the pack's committed pages
        that is a card's home (holds its anchor), header to cell, with the
        card's id under ``"#"``."""
        found: list[dict[str, str]] = []
        for page in sorted((PROJECT_ROOT / "site" / self.pack).glob("*.md")):
            _, blocks = split_page(page.read_text(encoding="utf-8"))
            for body in blocks.values():
                for header, lines in _tables(body):
                    for line in lines:
                        anchors = _ANCHOR.findall(line)
                        if len(anchors) == 1:  # a grid's row holds several cards: none is its home
                            found.append({**dict(zip(header, split_cells(line))), "#": anchors[0]})
        return found

    @cached_property
    def anchors(self) -> set[str]:
        """Every card anchor on the pack's committed pages."""
        return {found for page in (PROJECT_ROOT / "site" / self.pack).glob("*.md") for found in _ANCHOR.findall(page.read_text(encoding="utf-8"))}

    def full_rules(self, rules: dict[str, Any]) -> dict[str, Any]:
        """``rules`` with every other house rule at its default."""
        return dict(self.rules.house_rules(self.catalog, rules))

    def stands_for(self, configuration: dict[str, Any]) -> list[Configuration]:
        """The pack's full configurations that a listed one stands for."""
        return [c for c in self.rules.configurations(self.catalog) if c.players == configuration["players"] and all(c.rules.get(k) == v for k, v in configuration["rules"].items())]


def _tables(body: str) -> Iterator[tuple[list[str], list[str]]]:
    """Each Markdown table of a block: its header cells and its body rows."""
    lines = body.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.startswith("|") and (i == 0 or not lines[i - 1].startswith("|")) and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[i + 1]):
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append(row)
            yield split_cells(line), rows


def _plain(cell: str) -> str:
    """A cell's text as a reader sees it: no anchor, link or markup, no escapes."""
    text = re.sub(r"\[†\]\([^)]*\)", "", _ANCHOR.sub("", cell))
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return html.unescape(re.sub(r"\\(.)", r"\1", re.sub(r"<[^>]+>", "", text))).strip()


@pytest.fixture(scope="module")
def exports() -> dict[str, Export]:
    found = {}
    for pack in PACKS:
        rules = pack_rules(pack)
        catalog = rules.load_catalog(PROJECT_ROOT / "content" / pack)
        found[pack] = Export(pack, rules, catalog, export(rules, catalog))
    return found


# --- one check per description --------------------------------------------


def check_file(e: Export) -> None:
    # Valid; sorted keys and equal bytes; the very file the site publishes.
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator(SCHEMA).validate(e.data)
    text = to_json(e.data)
    assert to_json(json.loads(text)) == text and list(json.loads(text)) == sorted(e.data)
    assert to_json(export(e.rules, e.catalog)) == text
    published = PROJECT_ROOT / "site" / e.pack / "cards.json"
    assert published.read_text(encoding="utf-8") == text, f"{published} is not what the content exports now: run `stationmaster cards`"


def check_format(e: Export) -> None:
    assert e.data["format"] == FORMAT == SCHEMA["properties"]["format"]["const"]
    assert all("dealtIn" in card and "dealt" not in card for card in e.data["cards"])


def check_pack(e: Export) -> None:
    assert e.game["id"] == e.data["pack"] == e.pack
    assert (PROJECT_ROOT / "site" / e.data["pack"] / "cards.json").is_file()


def check_title(e: Export) -> None:
    first = (PROJECT_ROOT / "site" / e.pack / "index.md").read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# {e.data['title']}"


def check_configurations(e: Export) -> None:
    listed = e.data["configurations"]
    # Each full configuration of the game is stood for by exactly one entry.
    for full in e.rules.configurations(e.catalog):
        standing = [c["id"] for c in listed if c["players"] == full.players and all(full.rules.get(k) == v for k, v in c["rules"].items())]
        assert len(standing) == 1, (full.key, standing)
    # Each player count the game deals for; no two entries alike.
    assert {c["players"] for c in listed} == {full.players for full in e.rules.configurations(e.catalog)}
    assert len({(c["players"], tuple(sorted(c["rules"].items()))) for c in listed}) == len(listed)
    # The default first: the game's first player count, the default house rules.
    defaults = e.full_rules({})
    assert listed[0]["players"] == e.rules.configurations(e.catalog)[0].players
    assert all(defaults[k] == v for k, v in listed[0]["rules"].items())


def check_configuration_id(e: Export) -> None:
    for c in e.data["configurations"]:
        rules = "".join(f" {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(c["rules"].items()))
        assert c["id"] == f"players={c['players']}{rules}"
    assert len(e.configurations) == len(e.data["configurations"])
    used = {i for card in e.data["cards"] for i in card["dealtIn"]}
    assert used <= set(e.configurations)


def check_configuration_label(e: Export) -> None:
    """Each label says, in words, the configuration's own players and rules:
    first the seating (Station Master: solitaire or with rivals, by the
    count the deck code seats) or the player count (``4p``), then each
    rule as ``rule: value``, an id value by its card's name; no two
    configurations share a label."""
    labels = [c["label"] for c in e.data["configurations"]]
    assert len(set(labels)) == len(labels), labels
    for c in e.data["configurations"]:
        parts = c["label"].split(", ")
        if e.pack == "stationmaster":
            from engine.stationmaster.rules.deck import SEATINGS

            seat = parts.pop(0)
            assert SEATINGS.get(seat) == c["players"], (c["id"], seat)
        else:
            assert parts.pop(0) == f"{c['players']}p", c["id"]
            if c["rules"].get("variant") == "expert":
                assert parts.pop() == "Expert", c["id"]
        for part, (rule, value) in zip(parts, (kv for kv in c["rules"].items() if kv[0] != "variant"), strict=True):
            named = e.catalog.by_id[value].name if isinstance(value, str) and value in getattr(e.catalog, "by_id", {}) else str(value).lower()
            assert part == f"{rule}: {named}", (c["id"], part)


def check_configuration_players(e: Export) -> None:
    # The engine, asked for that many players (and the other rules at their
    # defaults), deals exactly the cards dealtIn names.
    for c in e.data["configurations"]:
        asked = Configuration(c["players"], e.full_rules(c["rules"]), "")
        for card in e.catalog.cards:
            assert e.rules.is_dealt(e.catalog, card, asked) == (c["id"] in e.cards[card.id]["dealtIn"]), (c["id"], card.id)


def check_configuration_rules(e: Export) -> None:
    listed = e.data["configurations"]
    for c in listed:
        for key, value in c["rules"].items():
            shown = str(value).lower() if isinstance(value, bool) else value
            assert e.rules.parse_house_rule(e.catalog, f"{key}={shown}") == (key, value)
    # A rule left out deals the same cards whatever its option.
    for c in listed:
        for full in e.stands_for(c):
            assert all(e.rules.is_dealt(e.catalog, card, full) == (c["id"] in e.cards[card.id]["dealtIn"]) for card in e.catalog.cards), (c["id"], full.key)
    # A rule kept changes what is dealt: two entries apart in it alone deal differently.
    for key in {k for c in listed for k in c["rules"]}:
        assert any(
            a["players"] == b["players"]
            and a["rules"][key] != b["rules"][key]
            and all(a["rules"][k] == b["rules"][k] for k in a["rules"] if k != key)
            and any((a["id"] in card["dealtIn"]) != (b["id"] in card["dealtIn"]) for card in e.data["cards"])
            for a in listed
            for b in listed
        ), key


def check_cards(e: Export) -> None:
    assert [c["id"] for c in e.data["cards"]] == [c.id for c in e.catalog.cards]
    assert set(e.cards) == set(e.raw)
    # The order of the content: within a file, as the file lists them.
    by_file: dict[str, list[str]] = {}
    for card_id in e.cards:
        by_file.setdefault(e.raw[card_id][0], []).append(card_id)
    for name, ids in by_file.items():
        assert ids == [i for i, (file, _) in e.raw.items() if file == name]


def check_card_id(e: Export) -> None:
    assert len(e.cards) == len(e.data["cards"])
    assert set(e.cards) <= e.anchors, sorted(set(e.cards) - e.anchors)


def check_card_name(e: Export) -> None:
    for row in e.rows:
        first = next(cell for head, cell in row.items() if _ANCHOR.search(cell))
        assert _plain(first) == e.cards[row["#"]]["name"], first


def check_card_family(e: Export) -> None:
    for card in e.data["cards"]:
        assert e.raw[card["id"]][0] == f"{card['family']}.yaml"


def check_card_count(e: Export) -> None:
    for card in e.data["cards"]:
        record = e.raw[card["id"]][1]
        if "count" in record:
            assert card["count"] == record["count"], card["id"]
        if card["count"] == 0:
            assert card["dealtIn"] == [], card["id"]


def check_card_text(e: Export) -> None:
    for card in e.data["cards"]:
        assert card["text"] == e.raw[card["id"]][1].get("text"), card["id"]


def check_card_source(e: Export) -> None:
    editions = set(e.game["sourceEditions"])
    for card in e.data["cards"]:
        written = e.raw[card["id"]][1]["source"]
        if isinstance(written, str):
            assert card["source"] == {"edition": written} and written in editions
        else:
            assert card["source"] == written and set(written) == {"designed"}


def check_card_effect(e: Export) -> None:
    effects = yaml.safe_load((PROJECT_ROOT / "content" / e.pack / "effects.yaml").read_text(encoding="utf-8"))
    declared = {one["id"] for one in effects["effects"]}
    for card in e.data["cards"]:
        written = e.raw[card["id"]][1]
        assert "effect" not in written or card["effect"] == written["effect"], card["id"]
        assert card["effect"] is None or card["effect"] in declared, card["id"]
    # Where the family gives it, every card of the family has the same one.
    for family in {card["family"] for card in e.data["cards"]}:
        given = {card["effect"] for card in e.data["cards"] if card["family"] == family and "effect" not in e.raw[card["id"]][1]}
        assert len(given) <= 1, (family, given)


def check_card_status(e: Export) -> None:
    for card in e.data["cards"]:
        assert card["status"] == e.rules.status(e.catalog, e.catalog.by_id[card["id"]])
        assert (card["status"] is None) == (card["effect"] is None), card["id"]
    shown = [(row["#"], row["Status"]) for row in e.rows if "Status" in row]
    assert shown
    for card_id, cell in shown:
        status = e.cards[card_id]["status"]
        assert status_of(cell) == (status if status is not None else "—"), (card_id, cell)


def check_card_dealt_in(e: Export) -> None:
    order = list(e.configurations)
    for card in e.data["cards"]:
        assert card["dealtIn"] == [i for i in order if i in card["dealtIn"]], card["id"]


def check_card_fields(e: Export) -> None:
    top = {"id", "name", "family", "count", "text", "source", "effect", "origin"}  # origin: where it is written, not what
    for card in e.data["cards"]:
        engine = {_camel(f.name) for f in dataclasses.fields(e.catalog.by_id[card["id"]]) if f.compare}
        assert set(card["fields"]) == engine - top, (card["id"], set(card["fields"]) ^ (engine - top))
        written = e.raw[card["id"]][1]
        for key in set(written) - top:
            assert key in card["fields"], (card["id"], key)
            if written[key] is None or isinstance(written[key], (str, int, float, bool)):
                read = None if READ_AS_NULL.get((e.pack, key)) == written[key] else written[key]
                assert card["fields"][key] == read, (card["id"], key)
        unset = [key for key in set(card["fields"]) - set(written) if card["fields"][key] is not None]
        for key in unset:
            default = next(f.default for f in dataclasses.fields(e.catalog.by_id[card["id"]]) if _camel(f.name) == key)
            assert default is dataclasses.MISSING or card["fields"][key] == json.loads(json.dumps(default)), (card["id"], key)


# The words the engine reads as null, as the description names them: (pack, key) -> word.
READ_AS_NULL = {("trickoftherails", "reach"): "all"}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


CHECKS: dict[str, Callable[[Export], None]] = {
    "": check_file,
    "format": check_format,
    "pack": check_pack,
    "title": check_title,
    "configurations": check_configurations,
    "configurations.id": check_configuration_id,
    "configurations.label": check_configuration_label,
    "configurations.players": check_configuration_players,
    "configurations.rules": check_configuration_rules,
    "cards": check_cards,
    "cards.id": check_card_id,
    "cards.name": check_card_name,
    "cards.family": check_card_family,
    "cards.count": check_card_count,
    "cards.text": check_card_text,
    "cards.source": check_card_source,
    "cards.effect": check_card_effect,
    "cards.status": check_card_status,
    "cards.dealtIn": check_card_dealt_in,
    "cards.fields": check_card_fields,
}


def described(schema: dict[str, Any], path: str = "") -> Iterator[str]:
    """The dotted path of every property the schema describes (arrays by their items)."""
    if "description" in schema:
        yield path
    for name, sub in schema.get("properties", {}).items():
        yield from described(sub, f"{path}.{name}".lstrip("."))
    if isinstance(schema.get("items"), dict):
        yield from described({k: v for k, v in schema["items"].items() if k != "description"}, path)


def test_every_description_is_checked() -> None:
    assert sorted(described(SCHEMA)) == sorted(CHECKS)


@pytest.mark.parametrize("pack", PACKS)
@pytest.mark.parametrize("path", list(CHECKS))
def test_the_data_means_what_the_schema_says(pack: str, path: str, exports: dict[str, Export]) -> None:
    CHECKS[path](exports[pack])


def test_the_export_is_compact(exports: dict[str, Export]) -> None:
    # Station Master's format-1 file gave 79 cards a yes or no for each of 48 keys: 552 KB.
    assert len(to_json(exports["stationmaster"].data).encode()) < 80_000
