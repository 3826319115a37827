"""Trick of the Rails' catalog: built from the pack's schema-checked
documents, then held to the rules that span files (``crosscheck``)."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine.collector import collector_paused
from engine.content.loader import ContentFile, read_documents
from engine.content.problems import Origin
from engine.content.source import Source
from engine.errors import ContentError
from engine.trickoftherails.content.crosscheck import cross_check
from engine.trickoftherails.content.model import Card, Catalog, Company, Edition, Effect, HandSize, Layout, SourcedValue, Variant

SINGLE_FILES = ("game", "companies", "lane", "effects")
CARD_FAMILIES = ("railway", "stations", "cities", "exchanges", "reservations", "locomotives")


def read_catalog(content_dir: str | Path, pack_id: str) -> Catalog:
    """The checked catalog, or ContentError listing every located problem; a
    game.yaml naming another pack is refused."""
    docs = read_documents(content_dir, SINGLE_FILES)
    game_file = docs.by_family["game"][0]
    declared = game_file.document.value.get("id")
    if isinstance(declared, str) and declared != pack_id:
        docs.problems.append(docs.locator.problem(Origin(game_file.display, ()), f"game.yaml names pack {declared!r}, but this is the {pack_id} pack's loader", field="id"))
    with collector_paused():
        catalog = _assemble(docs.by_family, docs.fingerprint)
        docs.problems.extend(cross_check(catalog, docs.locator, docs.unchecked, docs.incomplete))
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


def _single(by_family: dict[str, list[ContentFile]], family: str) -> tuple[ContentFile, Any]:
    loaded = by_family[family][0]
    return loaded, loaded.document.value


def _assemble(by_family: dict[str, list[ContentFile]], fingerprint: str) -> Catalog:
    cards: list[Card] = []
    for family in CARD_FAMILIES:
        for loaded in by_family.get(family, []):
            for index, raw in enumerate(loaded.document.value["cards"]):
                if index not in loaded.invalid_cards:
                    cards.append(_card(family, raw, Origin(loaded.display, ("cards", index))))
    game_file, g = _single(by_family, "game")
    editions = {key: Edition(key, v["title"], v["version"], v["document"], v.get("date")) for key, v in g["sourceEditions"].items()}
    hands = {h["players"]: HandSize(h["players"], h["cards"], Source.from_yaml(h["source"]), Origin(game_file.display, ("hands", i))) for i, h in enumerate(g["hands"])}
    variants = {
        v["id"]: Variant(v["id"], v["name"], " ".join(v["summary"].split()), tuple(v["players"]) if "players" in v else None, Source.from_yaml(v["source"]), Origin(game_file.display, ("variants", i)))
        for i, v in enumerate(g["variants"])
    }
    scoring = g["scoring"]
    values = [
        SourcedValue("scoring", "shareFloor", str(scoring["shareFloor"]), Source.from_yaml(scoring["shareFloorSource"]), Origin(game_file.display, ("scoring", "shareFloorSource"))),
        SourcedValue("scoring", "tiesShareTheWin", "yes", Source.from_yaml(scoring["tiesSource"]), Origin(game_file.display, ("scoring", "tiesSource"))),
        SourcedValue("setup", "firstLeader", g["firstLeader"], Source.from_yaml(g["firstLeaderSource"]), Origin(game_file.display, ("firstLeaderSource",))),
    ]
    companies_file, c = _single(by_family, "companies")
    companies = [Company(r["id"], r["name"], r["colour"], Source.from_yaml(r["source"]), Origin(companies_file.display, ("companies", i))) for i, r in enumerate(c["companies"])]
    lane_file, lane = _single(by_family, "lane")
    layouts = {
        r["players"]: Layout(r["players"], tuple(r["basic"]), tuple(r["expert"]), Source.from_yaml(r["source"]), Origin(lane_file.display, ("layouts", i)))
        for i, r in enumerate(lane["layouts"])
    }
    values.append(SourcedValue("lane", "operatingPool", ", ".join(lane["operatingPool"]), Source.from_yaml(lane["operatingPoolSource"]), Origin(lane_file.display, ("operatingPoolSource",))))
    effects_file, e = _single(by_family, "effects")
    effects = {r["id"]: Effect(r["id"], " ".join(r["summary"].split()), Source.from_yaml(r["source"]), Origin(effects_file.display, ("effects", i))) for i, r in enumerate(e["effects"])}
    by_id: dict[str, Card] = {}
    for card in cards:
        by_id.setdefault(card.id, card)
    return Catalog(
        title=g["title"],
        editions=MappingProxyType(editions),
        companies=tuple(companies),
        cards=tuple(cards),
        by_id=MappingProxyType(by_id),
        effects=MappingProxyType(effects),
        hands=MappingProxyType(hands),
        layouts=MappingProxyType(layouts),
        operating_pool=tuple(lane["operatingPool"]),
        variants=MappingProxyType(variants),
        share_floor=scoring["shareFloor"],
        ties_share_the_win=scoring["tiesShareTheWin"],
        first_leader=g["firstLeader"],
        values=tuple(values),
        fingerprint=fingerprint,
    )
