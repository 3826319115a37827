"""Station Master's catalog: built from the pack's checked documents, then
held to the rules that span files (``crosscheck``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from engine.collector import collector_paused
from engine.content.loader import Documents, read_documents
from engine.content.problems import Origin
from engine.content.source import Source, editions_from_yaml
from engine.errors import ContentError
from engine.stationmaster.content.build import CARD_BUILDERS, build_card
from engine.stationmaster.content.crosscheck import cross_check
from engine.stationmaster.content.model import (
    Card,
    Catalog,
    CrossingRule,
    Edition,
    Effect,
    FacilityStart,
    GameInfo,
    GameWords,
    GlossaryEntry,
    HouseRule,
    HouseRuleOption,
    MainlineCard,
    Restriction,
    Scoring,
    ScoringWords,
    SetupSizes,
    SourcedValue,
    Supplies,
    TableConstants,
    TimetableRule,
    TrainCard,
)

# Files that hold one record set each; every one must be present exactly once.
SINGLE_FILES = ("game", "supplies", "house-rules", "effects")
# game.yaml's source mappings, each beside the section it covers, and the
# kind of value each names (shown on the open-points page).
_GAME_SOURCES = (
    ("tableSources", "table constant"),
    ("scoringSources", "scoring"),
    ("setupSources", "setup"),
    ("timetableSources", "timetable"),
)
# What the engine can play, per house rule: the options it has code for, or
# "office" for any office tier. The engine supplies it; content never imports it.
KnownHouseRules = Mapping[str, tuple[str | bool, ...] | Literal["office"]]


def read_catalog(content_dir: str | Path, known_house_rules: KnownHouseRules, pack_id: str) -> Catalog:
    """The checked catalog, or ContentError listing every located problem.
    ``pack_id`` is the pack this loader reads: a game.yaml naming another
    pack is refused, so one game's content never loads as another's.

    Raises UsageError when the directory or a file cannot be read at all.
    """
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
        docs.problems.extend(cross_check(catalog, docs.locator, known_house_rules, docs.coverage))
    if docs.problems:
        raise ContentError(sorted(docs.problems))
    return catalog


# Stand-ins for a section that failed its schema (already reported): the
# catalog is still built, for the rules that do not need the section, and is
# never handed out while there are problems.
_NO_EDITION = Edition("", None)
_NO_SUPPLIES = Supplies(whistle_post_office="", whistle_posts=0, limits_signs=0, crew_trays=0, cabooses=0, cars=(), car_categories=MappingProxyType({}))


def _game(docs: Documents) -> tuple[GameInfo, list[SourcedValue]]:
    def section(*path: str) -> Any:
        return docs.value("game", *path)

    def number(*path: str) -> int:
        found = docs.value("game", *path)
        return int(found) if isinstance(found, (int, float)) else 0

    editions = section("editions")
    declared = section("sourceEditions")
    game = GameInfo(
        title=section("title") or "",
        home_deck=Edition(editions["homeDeck"]["version"], editions["homeDeck"].get("date")) if editions else _NO_EDITION,
        mainline=Edition(editions["mainline"]["version"], editions["mainline"].get("date")) if editions else _NO_EDITION,
        # Each number stands alone: one that failed leaves the others checkable.
        table=TableConstants(
            hand_limit=number("table", "handLimit"),
            departments=number("table", "departments"),
            stages_per_day=number("table", "stagesPerDay"),
            timetable_slots=number("table", "timetableSlots"),
            die_sides=number("table", "dieSides"),
            crew_tray_pieces=number("table", "crewTrayPieces"),
            cars_per_track=number("table", "carsPerTrack"),
            game_days=number("table", "gameDays"),
            switch_moves=number("table", "switchMoves"),
        ),
        scoring=Scoring(
            load_worked=number("scoring", "loadWorked"),
            load_delivered=number("scoring", "loadDelivered"),
            passengers_set_down=number("scoring", "passengersSetDown"),
            paid_stop=number("scoring", "paidStop"),
        ),
        setup=SetupSizes(department_cards=number("setup", "departmentCards")),
        timetable=TimetableRule(odd_numbers_head=section("timetable", "oddNumbersHead") or "east"),
        source_editions=MappingProxyType(editions_from_yaml(declared or {})),
    )
    values: list[SourcedValue] = []
    for key, kind in _GAME_SOURCES:
        found = docs.single("game", key)
        if found is not None:
            values.extend(SourcedValue(kind, name, Source.from_yaml(raw), Origin(found[0].display, (key, name))) for name, raw in found[1].items())
    return game, values


def _assemble(docs: Documents) -> Catalog:
    locator, by_family, problems = docs.locator, docs.by_family, docs.problems
    cards: list[Card] = []
    for family in CARD_BUILDERS:
        for loaded in by_family.get(family, []):
            for index, raw in loaded.cards():
                cards.append(build_card(family, raw, Origin(loaded.display, ("cards", index))))
    game, values = _game(docs)
    supplies = _NO_SUPPLIES
    supply_values: list[SourcedValue] = []
    if docs.coverage.whole("supplies"):
        s_file = by_family["supplies"][0]
        s = s_file.document.value
        supplies = Supplies(
            whistle_post_office=s["whistlePosts"]["office"],
            whistle_posts=s["whistlePosts"]["count"],
            limits_signs=s["limitsSigns"],
            crew_trays=s["crewTrays"],
            cabooses=s["cabooses"],
            cars=tuple((kind, car["count"]) for kind, car in s["cars"].items()),
            car_categories=MappingProxyType({kind: car["category"] for kind, car in s["cars"].items()}),
        )
        supply_values = [SourcedValue("supply", key, Source.from_yaml(raw), Origin(s_file.display, ("sources", key))) for key, raw in s["sources"].items()]
    # A pack may split trains or the Mainline over several files; each file
    # repeats these pack-wide tables, and the copies must agree.
    restrictions: dict[str, Restriction] = {}
    restriction_sources: dict[str, SourcedValue] = {}
    for loaded in by_family.get("trains", []):
        if not loaded.whole("restrictions"):
            continue
        for rid, r in loaded.document.value["restrictions"].items():
            origin = Origin(loaded.display, ("restrictions", rid))
            rule = Restriction(r["words"], tuple(r.get("carTypes", ())), origin)
            sourced = SourcedValue("restriction", rid, Source.from_yaml(r["source"]), Origin(loaded.display, ("restrictions", rid, "source")))
            first = restrictions.setdefault(rid, rule)
            first_source = restriction_sources.setdefault(rid, sourced)
            if first != rule or first_source != sourced:
                problems.append(locator.problem(origin, f"restriction '{rid}' differs from its entry in {first.origin.file}; every trains file must say the same"))
    values.extend(restriction_sources.values())
    crossing: CrossingRule | None = None
    crossing_sources: tuple[SourcedValue, ...] = ()
    for loaded in by_family.get("mainline", []):
        if not (loaded.whole("crossing") and loaded.whole("crossingSources")):
            continue
        x = loaded.document.value["crossing"]
        this = CrossingRule(
            stages_at_mph=tuple((row["mph"], row["stages"]) for row in x["stagesAtMph"]),
            slow_train_adds=x["slowTrainAdds"],
            fewest_stages=x["fewestStages"],
            origin=Origin(loaded.display, ("crossing",)),
        )
        these_sources = tuple(SourcedValue("crossing", key, Source.from_yaml(raw), Origin(loaded.display, ("crossingSources", key))) for key, raw in loaded.document.value["crossingSources"].items())
        if crossing is None:
            crossing, crossing_sources = this, these_sources
        elif crossing != this:
            problems.append(locator.problem(this.origin, f"this crossing table differs from the one in {crossing.origin.file}; every Mainline file must say the same", at_key=True))
        elif crossing_sources != these_sources:
            where = Origin(loaded.display, ("crossingSources",))
            problems.append(locator.problem(where, f"these crossing sources differ from the ones in {crossing.origin.file}; every Mainline file must say the same", at_key=True))
    values.extend(crossing_sources)
    values.extend(supply_values)
    # Pack-wide facts a card's own rules need, attached to the cards that use them.
    restriction_view = MappingProxyType(restrictions)
    for i, card in enumerate(cards):
        if isinstance(card, TrainCard):
            cards[i] = dataclasses.replace(card, car_categories=supplies.car_categories, restriction_rules=restriction_view)
        elif isinstance(card, MainlineCard):
            cards[i] = dataclasses.replace(card, crossing_rule=crossing)
    facility_start = FacilityStart(laborers=1, pipeline=("MEN", "AT", "WORK"))
    for loaded in by_family.get("facilities", []):
        if not loaded.whole("everyFacility"):
            continue
        every = loaded.document.value["everyFacility"]
        facility_start = FacilityStart(laborers=every["laborers"], pipeline=tuple(every["pipeline"]))
        values.append(SourcedValue("facility start", "everyFacility", Source.from_yaml(every["source"]), Origin(loaded.display, ("everyFacility", "source"))))
    found = docs.single("house-rules", "houseRules")
    house_rules = (
        ()
        if found is None
        else tuple(
            HouseRule(
                id=r["id"],
                name=r["name"],
                default=r["default"],
                options=tuple(HouseRuleOption(o["value"], o["text"]) for o in r["options"]),
                text=r["text"],
                source=Source.from_yaml(r["source"]),
                default_source=Source.from_yaml(r["defaultSource"]) if "defaultSource" in r else None,
                origin=Origin(found[0].display, ("houseRules", i)),
            )
            for i, r in enumerate(found[1])
        )
    )
    for house_rule in house_rules:
        values.append(SourcedValue("house rule", house_rule.id, house_rule.source, Origin(house_rule.origin.file, house_rule.origin.pointer + ("source",))))
        if house_rule.default_source is not None:
            values.append(SourcedValue("house rule default", house_rule.id, house_rule.default_source, Origin(house_rule.origin.file, house_rule.origin.pointer + ("defaultSource",))))
    effects: dict[str, Effect] = {}
    declared = docs.single("effects", "effects")
    if declared is not None:
        fx_file, entries = declared
        for i, e in enumerate(entries):
            origin = Origin(fx_file.display, ("effects", i))
            if e["id"] in effects:
                problems.append(locator.problem(origin, f"effect '{e['id']}' is declared twice", field="id"))
                continue
            effects[e["id"]] = Effect(e["id"], e["summary"], Source.from_yaml(e["source"]), origin)
            values.append(SourcedValue("effect", e["id"], effects[e["id"]].source, Origin(fx_file.display, ("effects", i, "source"))))
    by_id: dict[str, Card] = {}
    for card in cards:
        by_id.setdefault(card.id, card)
    return Catalog(
        game=game,
        supplies=supplies,
        facility_start=facility_start,
        house_rules=house_rules,
        effects=MappingProxyType(effects),
        restrictions=restriction_view,
        crossing=crossing,
        cards=tuple(cards),
        by_id=MappingProxyType(by_id),
        fingerprint=docs.fingerprint,
        value_sources=tuple(values),
        words=_words(docs),
    )


def _words(docs: Documents) -> GameWords:
    """game.yaml's words for the scoring events and its glossary (both optional)."""
    scoring = docs.value("game", "scoringWords") or {}
    glossary = docs.value("game", "glossary") or ()
    return GameWords(
        scoring=MappingProxyType({key: ScoringWords(w["earns"], w["to"]) for key, w in scoring.items()}),
        glossary=tuple(GlossaryEntry(e["term"], e["words"], tuple(e.get("also", ()))) for e in glossary),
    )
