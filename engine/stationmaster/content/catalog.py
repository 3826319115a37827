"""Station Master's catalog: built from the pack's checked documents, then
held to the rules that span files (``crosscheck``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from engine.collector import collector_paused
from engine.content.loader import ContentFile, Locator, read_documents
from engine.content.problems import Origin, Problem
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
    HouseRule,
    HouseRuleOption,
    MainlineCard,
    Restriction,
    Scoring,
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
    game_file = docs.by_family["game"][0]
    value = game_file.document.value
    declared = value.get("id") if isinstance(value, dict) else None
    if isinstance(declared, str) and declared != pack_id:
        docs.problems.append(docs.locator.problem(Origin(game_file.display, ()), f"game.yaml names pack {declared!r}, but this is the {pack_id} pack's loader", field="id"))
    with collector_paused():
        catalog = _assemble(docs.locator, docs.by_family, docs.fingerprint, docs.problems)
        docs.problems.extend(cross_check(catalog, docs.locator, known_house_rules, docs.unchecked, docs.incomplete))
    if docs.problems:
        raise ContentError(sorted(docs.problems))
    return catalog


def _assemble(locator: Locator, by_family: dict[str, list[ContentFile]], fingerprint: str, problems: list[Problem]) -> Catalog:
    cards: list[Card] = []
    for family in CARD_BUILDERS:
        for loaded in by_family.get(family, []):
            for index, raw in enumerate(loaded.document.value["cards"]):
                if index in loaded.invalid_cards:
                    continue
                cards.append(build_card(family, raw, Origin(loaded.display, ("cards", index))))
    game_file = by_family["game"][0]
    g = game_file.document.value
    t = g["table"]
    game = GameInfo(
        title=g["title"],
        home_deck=Edition(g["editions"]["homeDeck"]["version"], g["editions"]["homeDeck"].get("date")),
        mainline=Edition(g["editions"]["mainline"]["version"], g["editions"]["mainline"].get("date")),
        table=TableConstants(
            hand_limit=t["handLimit"],
            departments=t["departments"],
            stages_per_day=t["stagesPerDay"],
            timetable_slots=t["timetableSlots"],
            die_sides=t["dieSides"],
            crew_tray_pieces=t["crewTrayPieces"],
            cars_per_track=t["carsPerTrack"],
            game_days=t["gameDays"],
            switch_moves=t["switchMoves"],
        ),
        scoring=Scoring(
            load_worked=g["scoring"]["loadWorked"],
            load_delivered=g["scoring"]["loadDelivered"],
            passengers_set_down=g["scoring"]["passengersSetDown"],
            paid_stop=g["scoring"]["paidStop"],
        ),
        setup=SetupSizes(department_cards=g["setup"]["departmentCards"]),
        timetable=TimetableRule(odd_numbers_head=g["timetable"]["oddNumbersHead"]),
        source_editions=MappingProxyType(editions_from_yaml(g["sourceEditions"])),
    )
    values: list[SourcedValue] = [
        SourcedValue(kind, key, Source.from_yaml(raw), Origin(game_file.display, (section, key)))
        for section, kind in _GAME_SOURCES
        for key, raw in g[section].items()
    ]
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
    # A pack may split trains or the Mainline over several files; each file
    # repeats these pack-wide tables, and the copies must agree.
    restrictions: dict[str, Restriction] = {}
    restriction_sources: dict[str, SourcedValue] = {}
    for loaded in by_family.get("trains", []):
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
        x = loaded.document.value["crossing"]
        this = CrossingRule(
            stages_at_mph=tuple((row["mph"], row["stages"]) for row in x["stagesAtMph"]),
            slow_train_adds=x["slowTrainAdds"],
            fewest_stages=x["fewestStages"],
            origin=Origin(loaded.display, ("crossing",)),
        )
        these_sources = tuple(
            SourcedValue("crossing", key, Source.from_yaml(raw), Origin(loaded.display, ("crossingSources", key)))
            for key, raw in loaded.document.value["crossingSources"].items()
        )
        if crossing is None:
            crossing, crossing_sources = this, these_sources
        elif crossing != this:
            problems.append(locator.problem(this.origin, f"this crossing table differs from the one in {crossing.origin.file}; every Mainline file must say the same", at_key=True))
        elif crossing_sources != these_sources:
            where = Origin(loaded.display, ("crossingSources",))
            problems.append(locator.problem(where, f"these crossing sources differ from the ones in {crossing.origin.file}; every Mainline file must say the same", at_key=True))
    values.extend(crossing_sources)
    # Pack-wide facts a card's own rules need, attached to the cards that use them.
    restriction_view = MappingProxyType(restrictions)
    for i, card in enumerate(cards):
        if isinstance(card, TrainCard):
            cards[i] = dataclasses.replace(card, car_categories=supplies.car_categories, restriction_rules=restriction_view)
        elif isinstance(card, MainlineCard):
            cards[i] = dataclasses.replace(card, crossing_rule=crossing)
    values.extend(SourcedValue("supply", key, Source.from_yaml(raw), Origin(s_file.display, ("sources", key))) for key, raw in s["sources"].items())
    facility_start = FacilityStart(laborers=1, pipeline=("MEN", "AT", "WORK"))
    for loaded in by_family.get("facilities", []):
        every = loaded.document.value["everyFacility"]
        facility_start = FacilityStart(laborers=every["laborers"], pipeline=tuple(every["pipeline"]))
        values.append(SourcedValue("facility start", "everyFacility", Source.from_yaml(every["source"]), Origin(loaded.display, ("everyFacility", "source"))))
    hr_file = by_family["house-rules"][0]
    house_rules = tuple(
        HouseRule(
            id=r["id"],
            name=r["name"],
            default=r["default"],
            options=tuple(HouseRuleOption(o["value"], o["text"]) for o in r["options"]),
            text=r["text"],
            source=Source.from_yaml(r["source"]),
            default_source=Source.from_yaml(r["defaultSource"]) if "defaultSource" in r else None,
            origin=Origin(hr_file.display, ("houseRules", i)),
        )
        for i, r in enumerate(hr_file.document.value["houseRules"])
    )
    for house_rule in house_rules:
        values.append(SourcedValue("house rule", house_rule.id, house_rule.source, Origin(hr_file.display, house_rule.origin.pointer + ("source",))))
        if house_rule.default_source is not None:
            values.append(SourcedValue("house rule default", house_rule.id, house_rule.default_source, Origin(hr_file.display, house_rule.origin.pointer + ("defaultSource",))))
    fx_file = by_family["effects"][0]
    effects: dict[str, Effect] = {}
    for i, e in enumerate(fx_file.document.value["effects"]):
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
        fingerprint=fingerprint,
        value_sources=tuple(values),
    )
