"""Trick of the Rails' catalog: built from the pack's schema-checked
documents, then held to the rules that span files (``crosscheck``)."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine.collector import collector_paused
from engine.content.loader import Documents, read_documents
from engine.content.problems import Origin
from engine.content.source import Source
from engine.errors import ContentError
from engine.trickoftherails.content.crosscheck import cross_check
from engine.trickoftherails.content.model import Card, Catalog, Company, Edition, Effect, HandSize, Layout, Publication, SourcedValue, Variant

SINGLE_FILES = ("game", "companies", "lane", "effects")
CARD_FAMILIES = ("railway", "stations", "cities", "exchanges", "reservations", "locomotives")


def read_catalog(content_dir: str | Path, pack_id: str) -> Catalog:
    """The checked catalog, or ContentError listing every located problem; a
    game.yaml naming another pack is refused."""
    docs = read_documents(content_dir, SINGLE_FILES)
    named = docs.single("game", "id")
    if named is not None and isinstance(named[1], str) and named[1] != pack_id:
        docs.problems.append(docs.locator.problem(Origin(named[0].display, ()), f"game.yaml names pack {named[1]!r}, but this is the {pack_id} pack's loader", field="id"))
        # Another pack's files are valid against that pack's schemas, not in
        # this pack's shape: assembling them would fail on the first field
        # this pack expects (a KeyError, exit 3), so stop at the refusal.
        raise ContentError(sorted(docs.problems))
    with collector_paused():
        catalog = _assemble(docs)
        docs.problems.extend(cross_check(catalog, docs.locator, docs.coverage))
    if docs.problems:
        raise ContentError(sorted(docs.problems))
    return catalog


def _card(family: str, raw: dict[str, Any], origin: Origin) -> Card:
    reach = raw.get("reach")
    return Card(
        id=raw["id"],
        name=raw["name"],
        family=family,
        source=Source.from_yaml(raw["source"]),
        origin=origin,
        effect=raw.get("effect", "railway-section" if family == "railway" else None),
        company=raw.get("company"),
        number=raw.get("number"),
        station_value=raw.get("stationValue"),
        reach=reach if isinstance(reach, int) else None,
        cost=raw.get("cost"),
        brings=raw.get("brings"),
        count=raw.get("count", 1),
    )


def _assemble(docs: Documents) -> Catalog:
    """The catalog of everything that passed its schema; a section that did
    not (already reported) is left empty, and the rules needing it skip it."""

    def section(family: str, key: str) -> tuple[str, Any]:
        found = docs.single(family, key)
        return ("", None) if found is None else (found[0].display, found[1])

    cards: list[Card] = []
    for family in CARD_FAMILIES:
        for loaded in docs.by_family.get(family, []):
            for index, raw in loaded.cards():
                cards.append(_card(family, raw, Origin(loaded.display, ("cards", index))))
    game_file, declared = section("game", "sourceEditions")
    editions = {key: Edition(key, v["title"], v["version"], v["document"], v.get("date")) for key, v in (declared or {}).items()}
    game_file, sizes = section("game", "hands")
    hands = {h["players"]: HandSize(h["players"], h["cards"], Source.from_yaml(h["source"]), Origin(game_file, ("hands", i))) for i, h in enumerate(sizes or ())}
    game_file, listed = section("game", "variants")
    variants = {
        v["id"]: Variant(v["id"], v["name"], " ".join(v["summary"].split()), tuple(v["players"]) if "players" in v else None, Source.from_yaml(v["source"]), Origin(game_file, ("variants", i)))
        for i, v in enumerate(listed or ())
    }
    game_file, scoring = section("game", "scoring")
    values: list[SourcedValue] = []
    if scoring is not None:
        values.append(SourcedValue("scoring", "shareFloor", str(scoring["shareFloor"]), Source.from_yaml(scoring["shareFloorSource"]), Origin(game_file, ("scoring", "shareFloorSource"))))
        values.append(SourcedValue("scoring", "tiesShareTheWin", "yes", Source.from_yaml(scoring["tiesSource"]), Origin(game_file, ("scoring", "tiesSource"))))
    game_file, first_leader = section("game", "firstLeader")
    _, leader_source = section("game", "firstLeaderSource")
    if first_leader is not None and leader_source is not None:
        values.append(SourcedValue("setup", "firstLeader", first_leader, Source.from_yaml(leader_source), Origin(game_file, ("firstLeaderSource",))))
    companies_file, listed = section("companies", "companies")
    companies = [Company(r["id"], r["name"], r["colour"], Source.from_yaml(r["source"]), Origin(companies_file, ("companies", i))) for i, r in enumerate(listed or ())]
    lane_file, rows = section("lane", "layouts")
    layouts = {r["players"]: Layout(r["players"], tuple(r["basic"]), tuple(r["expert"]), Source.from_yaml(r["source"]), Origin(lane_file, ("layouts", i))) for i, r in enumerate(rows or ())}
    lane_file, pool = section("lane", "operatingPool")
    _, pool_source = section("lane", "operatingPoolSource")
    if pool is not None and pool_source is not None:
        values.append(SourcedValue("lane", "operatingPool", ", ".join(pool), Source.from_yaml(pool_source), Origin(lane_file, ("operatingPoolSource",))))
    effects_file, listed = section("effects", "effects")
    effects = {r["id"]: Effect(r["id"], " ".join(r["summary"].split()), Source.from_yaml(r["source"]), Origin(effects_file, ("effects", i))) for i, r in enumerate(listed or ())}
    by_id: dict[str, Card] = {}
    for card in cards:
        by_id.setdefault(card.id, card)
    _, title = section("game", "title")
    game_file, editions_listed = section("game", "published")
    published = tuple(
        Publication(r["year"], r["publisher"], r["edition"], tuple(r["sources"]), " ".join(r["note"].split()) if "note" in r else None, Origin(game_file, ("published", i)))
        for i, r in enumerate(editions_listed or ())
    )
    return Catalog(
        title=title or "",
        editions=MappingProxyType(editions),
        companies=tuple(companies),
        cards=tuple(cards),
        by_id=MappingProxyType(by_id),
        effects=MappingProxyType(effects),
        hands=MappingProxyType(hands),
        layouts=MappingProxyType(layouts),
        operating_pool=tuple(pool or ()),
        variants=MappingProxyType(variants),
        share_floor=scoring["shareFloor"] if scoring else 0,
        ties_share_the_win=scoring["tiesShareTheWin"] if scoring else False,
        first_leader=first_leader or "",
        values=tuple(values),
        fingerprint=docs.fingerprint,
        published=published,
    )
