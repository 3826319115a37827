"""What each generated table shows, computed from the content and the engine.

Each table is a function from the catalog to a template context; its
template (``templates/<name>.md.j2``) only lays the values out. Dealt and
Status come from the engine (``engine.stationmaster.rules.deck``, ``engine.stationmaster.rules.status``), crossing
times from ``engine.stationmaster.rules.mainline``: nothing here restates a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.stationmaster.content.model import (
    Card,
    Catalog,
    Enhancement,
    Facility,
    FacilityModifier,
    MainlineCard,
    MainlineModifier,
    Maneuver,
    OfficeTier,
    OpponentCard,
    SecondSection,
    TrackShape,
    TrainCard,
)
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.effects.pays_for_stopping import EFFECT as PAYS_FOR_STOPPING
from engine.stationmaster.rules.deck import SEATINGS, in_mainline_inventory, is_dealt, office_ladder
from engine.stationmaster.rules.houserules import HouseRuleValue, configurations, defaults
from engine.stationmaster.rules.mainline import crossing_stages, stages_at_speed
from engine.stationmaster.rules.status import MEANINGS, card_effect, card_status
from generator.stationmaster.svg import track_svg
from generator.tableset import EVERY_CONFIGURATION, Facet, Setup, TableSet, dealt_words, listed, shown_text
from generator.tableset import status_legend as legend_rows

Context = dict[str, Any]

_GRANT_WORDS = {
    "inboundBox": "one inbound (red) box",
    "outboundBox": "one outbound (green) box",
    "inboundSlot": "one inbound (red) passenger slot",
    "outboundSlot": "one outbound (green) passenger slot",
    "porter": "one Porter",
}
# What a facility does with its commodity, by its traffic.
_TRAFFIC_WORDS = {"inbound": "takes", "outbound": "ships", "both": "ships and takes"}
_ATTACK_WORDS = {
    "facility": "a rival's Facility",
    "train": "a rival's train",
    "mainlineCard": "a Mainline card",
    "districtSquare": "a square of a rival's district",
    "hand": "a rival's hand",
    "office": "a rival's Office",
}


def _rule_words(catalog: Catalog, value: HouseRuleValue) -> str:
    """A house rule's option as the tables name it: a card by its name, a
    switch as on or off, any other value as the content writes it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return catalog.by_id[value].name if value in catalog.by_id else value


def _rule_facet(catalog: Catalog, rule_id: str) -> Facet:
    rule = catalog.house_rule(rule_id)
    name = rule.name[0].lower() + rule.name[1:] if rule.name[1:2].islower() else rule.name
    words = {str(o.value): _rule_words(catalog, o.value) for o in rule.options}
    return Facet(tuple(words), lambda chosen: f"where {name} is {listed([words[v] for v in chosen], 'or')}", str(rule.default))


# The seatings as a Dealt cell says them after "only" or "not".
_SEATING_FACET = Facet(tuple(SEATINGS), lambda chosen: listed(list(chosen), "or"), next(iter(SEATINGS)))


@dataclass(frozen=True)
class DealtSetups:
    """The configurations a table's Dealt cells are worked out over: each
    seating (solitaire, with rivals) by each combination of the house rules
    that change whether any of its cards is dealt, every other rule at its
    default. ``facets`` say how they differ, in the order of each setup's
    values; only the facets that change something for some card are kept."""

    facets: list[Facet]
    setups: list[tuple[Setup, dict[str, HouseRuleValue], int]]

    def words(self, catalog: Catalog, card: Card) -> str:
        dealt = {key: is_dealt(catalog, card, rules, players) for key, rules, players in self.setups}
        return dealt_words(self.facets, dealt, every=EVERY_CONFIGURATION if self.facets else "yes")


def dealt_setups(catalog: Catalog, cards: Sequence[Card]) -> DealtSetups:
    base = defaults(catalog)
    everything = configurations(catalog)
    solo = SEATINGS["solitaire"]
    by_seating = any(len({is_dealt(catalog, card, rules, players) for players in SEATINGS.values()}) > 1 for card in cards for rules in everything)
    seatings = list(SEATINGS.items()) if by_seating else [("", solo)]
    mattering = [
        rule.id
        for rule in catalog.house_rules
        if any(len({is_dealt(catalog, card, {**base, rule.id: option.value}, players) for option in rule.options}) > 1 for card in cards for _, players in seatings)
    ]
    configs = [c for c in everything if all(c[k] == base[k] for k in base if k not in mattering)] if mattering else [base]
    facets = ([_SEATING_FACET] if by_seating else []) + [_rule_facet(catalog, rule_id) for rule_id in mattering]
    setups = []
    for seating, players in seatings:
        for config in configs:
            key = ((seating,) if by_seating else ()) + tuple(str(config[rule_id]) for rule_id in mattering)
            setups.append((key, config, players))
    return DealtSetups(facets, setups)


def configuration_label(catalog: Catalog, players: int | None, rules: Mapping[str, HouseRuleValue]) -> str:
    """The export's label for a configuration: its seating (``players``;
    None when seatings are not told apart), then each house rule given, in
    content order."""
    parts = [seating for seating, count in SEATINGS.items() if count == players][:1]
    for rule in catalog.house_rules:
        if rule.id in rules:
            value = rules[rule.id]
            shown = catalog.by_id[value].name if isinstance(value, str) and value in catalog.by_id else str(value).lower()
            parts.append(f"{rule.id}: {shown}")
    return ", ".join(parts)


def _card_rows(catalog: Catalog, cards: Sequence[Card], extra: Callable[[Any], Context]) -> Context:
    setups = dealt_setups(catalog, cards)
    rows = []
    for card in cards:
        facts = extra(card)
        rows.append(
            {
                "id": card.id,
                "name": card.name,
                "designed": card.source.designed,
                "dealt": setups.words(catalog, card),
                "status": card_status(catalog, card),
                "text": shown_text(card.text, facts.get("effect", "")),
                **facts,
            }
        )
    return {"rows": rows, "has_text": any(row["text"] for row in rows)}


def _route_text(shape: TrackShape) -> str:
    return ", ".join(f"{a}–{b}" for a, b in shape.routes)


def track(catalog: Catalog) -> Context:
    return _card_rows(catalog, catalog.of_type(TrackShape), lambda c: {"handedness": c.handedness, "routes": _route_text(c)})


def offices(catalog: Catalog) -> Context:
    """The Office tiers: what each is and whether it is dealt; what each
    holds is the next table (``office_capacity``)."""
    ladder = office_ladder(catalog)
    names = {t.id: t.name for t in ladder}
    return _card_rows(
        catalog,
        ladder,
        lambda c: {
            "upgrades_from": c.upgrades_from,
            "upgrades_from_name": names.get(c.upgrades_from or "", ""),
            "ad_tracks": c.ad_tracks,
            "porters": c.porters,
            "outbound": c.outbound_slots,
            "inbound": c.inbound_slots,
            "control_point": c.control_point,
            "passenger_facility": c.passenger_facility,
            "supplied": c.upgrades_from is None,
        },
    )


def office_capacity(catalog: Catalog) -> Context:
    """What each Office tier holds, a row per tier linking to its card."""
    rows = [{"id": t.id, "name": t.name, "ad_tracks": t.ad_tracks, "porters": t.porters, "outbound": t.outbound_slots, "inbound": t.inbound_slots} for t in office_ladder(catalog)]
    return {"rows": rows}


def facilities(catalog: Catalog) -> Context:
    def extra(f: Facility) -> Context:
        return {
            "commodity": f.commodity,
            "car_types": ", ".join(f.car_types),
            "traffic": f.traffic,
            "works": _TRAFFIC_WORDS[f.traffic],
            "inbound_boxes": f.inbound_boxes,
            "outbound_boxes": f.outbound_boxes,
            "lockouts": [(x, catalog.by_id[x].name) for x in f.lockouts],
        }

    context = _card_rows(catalog, catalog.of_type(Facility), extra)
    context["start"] = catalog.facility_start
    return context


def _first_passenger_tier(catalog: Catalog) -> OfficeTier | None:
    """The lowest office tier that is a Passenger Facility (every tier above
    it is one too: an upgrade never loses it)."""
    return next((t for t in office_ladder(catalog) if t.passenger_facility), None)


def facility_modifiers(catalog: Catalog) -> Context:
    lowest = _first_passenger_tier(catalog)
    passenger_words = f"any Passenger Facility ({lowest.name} or above)" if lowest else "any Passenger Facility"

    def extra(m: FacilityModifier) -> Context:
        if m.hosts == "office":
            hosts: list[tuple[str, str]] = []
            host_words = passenger_words
        elif m.hosts == "anyFreight":
            hosts, host_words = [], "any freight facility"
        else:
            hosts, host_words = [(h, catalog.by_id[h].name) for h in m.hosts], ""
        return {"hosts": hosts, "host_words": host_words, "grant": _GRANT_WORDS[m.grant], "passenger": m.passenger}

    return _card_rows(catalog, catalog.of_type(FacilityModifier), extra)


def _consist_words(t: TrainCard) -> str:
    parts = []
    if t.consist.coach:
        parts.append(f"up to {t.consist.coach} coach" + ("es" if t.consist.coach != 1 else ""))
    if t.consist.freight:
        parts.append(f"up to {t.consist.freight} freight car" + ("s" if t.consist.freight != 1 else ""))
    return ", ".join(parts)


def _trains(catalog: Catalog, service: str) -> Context:
    def extra(t: TrainCard) -> Context:
        return {
            "number": t.number,
            "speed": t.speed,
            "consist": _consist_words(t),
            "caboose": t.caboose,
            "restrictions": ", ".join(catalog.restrictions[r].words for r in t.restrictions) or "none",
            "pays": t.effect == PAYS_FOR_STOPPING,
        }

    return _card_rows(catalog, [t for t in catalog.of_type(TrainCard) if t.service == service], extra)


def timetabled_trains(catalog: Catalog) -> Context:
    return _trains(catalog, "timetabled")


def extras(catalog: Catalog) -> Context:
    return _trains(catalog, "extra")


def _effect_text(catalog: Catalog, card: Card) -> str:
    effect = card_effect(card)
    return catalog.effects[effect].summary if effect else ""


def enhancements(catalog: Catalog) -> Context:
    return _card_rows(
        catalog,
        catalog.of_type(Enhancement),
        lambda e: {
            "placement": "a Mainline card" if e.placement == "mainline" else "your district",
            "effect": _effect_text(catalog, e),
            "answers": [(a, catalog.by_id[a].name) for a in e.answers],
        },
    )


def _play_option_words(option: str | None) -> str:
    """When a Mainline modifier may be played: only in the Draw option, or (no
    option named) in either."""
    return "the Draw option" if option == "draw" else "the Draw or Play option"


def mainline_modifiers(catalog: Catalog) -> Context:
    def extra(m: MainlineModifier) -> Context:
        if isinstance(m.play_on, tuple):
            targets = [(t, catalog.by_id[t].name) for t in m.play_on]
            target_words = ""
        else:
            targets, target_words = [], "any unoccupied Mainline card its map names"
        requires = (m.requires, catalog.by_id[m.requires].name) if m.requires else None
        cut = None if m.crossing is None else {"stages": m.crossing.stages, "direction": m.crossing.direction}
        return {"targets": targets, "target_words": target_words, "option": _play_option_words(m.play_option), "requires": requires, "cut": cut, "effect": _effect_text(catalog, m)}

    return _card_rows(catalog, catalog.of_type(MainlineModifier), extra)


def maneuvers(catalog: Catalog) -> Context:
    return _card_rows(catalog, catalog.of_type(Maneuver), lambda m: {"effect": _effect_text(catalog, m)})


def second_section(catalog: Catalog) -> Context:
    return _card_rows(catalog, catalog.of_type(SecondSection), lambda m: {"effect": _effect_text(catalog, m)})


def _opponent(catalog: Catalog, category: str) -> Context:
    return _card_rows(
        catalog,
        [c for c in catalog.of_type(OpponentCard) if c.category == category],
        lambda c: {
            "attacks": _ATTACK_WORDS[c.attacks] if c.attacks else "",
            "answers": [(a, catalog.by_id[a].name) for a in c.answers],
            "effect": _effect_text(catalog, c),
        },
    )


def action_cards(catalog: Catalog) -> Context:
    return _opponent(catalog, "action")


def space_use_cards(catalog: Catalog) -> Context:
    return _opponent(catalog, "spaceUse")


def _terrain_cards(catalog: Catalog) -> list[MainlineCard]:
    return [m for m in catalog.of_type(MainlineCard) if m.role == "terrain" and m.speed_mph is not None]


def mainline_terrain(catalog: Catalog) -> Context:
    """The terrain cards' facts; their crossing times are the next table."""
    rows = []
    for m in _terrain_cards(catalog):
        assert m.speed_mph is not None
        rows.append(
            {
                "id": m.id,
                "name": m.name,
                "designed": m.source.designed,
                "passenger_mph": m.speed_mph.passenger,
                "freight_mph": m.speed_mph.freight,
                "features": ", ".join(words for flag, words in ((m.passing, "trains may pass"), (m.yard, "yard"), (m.grade, "graded")) if flag) or "—",
                "dealt": "yes" if in_mainline_inventory(m) else "no",
                "status": card_status(catalog, m),
                "text": shown_text(m.text, ""),
            }
        )
    # One Dealt column: whether the Mainline inventory holds the card (every
    # game lays the line from that inventory; it is not the Home deck's deal).
    return {"rows": rows, "has_text": any(r["text"] for r in rows)}


def terrain_crossings(catalog: Catalog) -> Context:
    """Stages each terrain card takes to cross, by kind of train, from the
    engine's own crossing function."""
    rows = []
    for m in _terrain_cards(catalog):
        stages = {f"{speed}_{kind}": crossing_stages(m, carries_coach=kind == "passenger", slow=speed == "slow") for speed in ("fast", "slow") for kind in ("passenger", "freight")}
        rows.append({"id": m.id, "name": m.name, **stages})
    return {"rows": rows}


def crossing_times(catalog: Catalog) -> Context:
    """The crossing table by card speed, from mainline.yaml's ``crossing``."""
    rule = catalog.crossing
    if rule is None:
        return {"rows": [], "slow_adds": 0, "fewest": 0}
    rows = [{"mph": mph, "fast": stages_at_speed(rule, mph, slow=False), "slow": stages_at_speed(rule, mph, slow=True)} for mph, _ in sorted(rule.stages_at_mph, reverse=True)]
    return {"rows": rows, "slow_adds": rule.slow_train_adds, "fewest": rule.fewest_stages}


def table_figures(catalog: Catalog) -> Context:
    """The table constants (game.yaml) and the hand limit a held card raises."""
    table = catalog.game.table
    bonuses = [(m.id, m.name, table.hand_limit + m.hand_limit_bonus) for m in catalog.of_type(Maneuver) if m.hand_limit_bonus]
    return {"table": table, "setup": catalog.game.setup, "bonuses": bonuses}


def scoring(catalog: Catalog) -> Context:
    """Each scoring event: its words (``scoringWords``) and its points, as the
    terminal game's help says them too (``quickref``)."""
    from generator.stationmaster.quickref import scoring_rows

    return {"rows": scoring_rows(catalog)}


def glossary(catalog: Catalog) -> Context:
    """The game's own words explained, as the terminal game shows them."""
    return {"glossary": catalog.words.glossary}


def timetable_direction(catalog: Catalog) -> Context:
    ends = {m.end: m for m in catalog.of_type(MainlineCard) if m.role == "divisionPoint"}
    odd = catalog.game.timetable.odd_numbers_head
    even = "west" if odd == "east" else "east"

    def start(heading: str) -> tuple[str, str] | None:
        # A train heading east sets out from the west end, and the reverse.
        card = ends.get("west" if heading == "east" else "east")
        return (card.id, card.name) if card is not None else None

    return {"odd": odd, "even": even, "odd_start": start(odd), "even_start": start(even)}


def division_points(catalog: Catalog) -> Context:
    rows = [{"id": m.id, "name": m.name, "designed": m.source.designed, "end": m.end, "yard": m.yard} for m in catalog.of_type(MainlineCard) if m.role == "divisionPoint"]
    return {"rows": rows}


def realignment(catalog: Catalog) -> Context:
    rows = []
    for m in catalog.of_type(MainlineModifier):
        for source, target in m.realign:
            rows.append({"card": (m.id, m.name), "source": (source, catalog.by_id[source].name), "target": (target, catalog.by_id[target].name)})
    return {"rows": rows}


def house_rules(catalog: Catalog) -> Context:
    rows = []
    for rule in catalog.house_rules:
        for option in rule.options:
            value = option.value
            shown = str(value).lower() if isinstance(value, bool) else value
            is_default = option.value == rule.default and type(option.value) is type(rule.default)
            default_designed = is_default and rule.default_source is not None and rule.default_source.designed
            rows.append({"rule": rule, "value": shown, "is_default": is_default, "default_designed": default_designed, "text": option.text})
    return {"rows": rows}


def effects(catalog: Catalog) -> Context:
    handlers = load_handlers()
    rows = []
    for effect in catalog.effects.values():
        cards = [(c.id, c.name) for c in catalog.cards if card_effect(c) == effect.id]
        rows.append({"id": effect.id, "summary": effect.summary, "designed": effect.source.designed, "built": effect.id in handlers, "cards": cards})
    return {"rows": rows}


# What a designed card is, by family. The one-card family (the Second
# Section) is named by its card, from the catalog.
_FAMILY_WORDS = {
    "track": "track",
    "offices": "Office tier",
    "facilities": "freight facility",
    "modifiers": "Facility Modifier",
    "trains": "train",
    "enhancements": "Enhancement",
    "mainline-modifiers": "Mainline modifier",
    "maneuvers": "Maneuver",
    "opponent": "opponent-directed",
    "mainline": "Mainline card",
}


def designed_cards(catalog: Catalog) -> Context:
    """Every card no published edition prints, with the reason it was made."""
    rows = [{"id": c.id, "name": c.name, "kind": _FAMILY_WORDS.get(c.family, c.family.replace("-", " ")), "reason": c.source.reason} for c in catalog.cards if c.source.designed]
    return {"rows": rows}


def designed_values(catalog: Catalog) -> Context:
    """Every rule value outside the cards that the kit chose, with the reason."""
    rows = [{"kind": v.kind, "key": v.key, "reason": v.source.reason} for v in catalog.value_sources if v.source.designed]
    return {"rows": rows}


def simulation(catalog: Catalog) -> Context:
    # Seconds of play, so the simulation is imported only when this runs.
    from generator.stationmaster.simulation import simulation_context

    return simulation_context(catalog)


def simulation_rivals(catalog: Catalog) -> Context:
    from generator.stationmaster.simulation import simulation_rivals_context

    return simulation_rivals_context(catalog)


def simulation_sweep(catalog: Catalog) -> Context:
    # The plan lives with the pack's other report plans (``simulation.py``).
    from generator.stationmaster.simulation import simulation_sweep as measured

    return measured(catalog)


def status_legend(catalog: Catalog) -> Context:
    return legend_rows(MEANINGS)


def edition(catalog: Catalog) -> Context:
    return {"game": catalog.game}


# Tables made by playing seeded games: measured by their own step (generator.reports).
REPORTS: frozenset[str] = frozenset({"simulation", "simulation-rivals", "simulation-sweep"})
# Tables whose rows mention cards without being where those cards live.
LINKS_ONLY: frozenset[str] = frozenset({"office-capacity", "terrain-crossings", "effects", "simulation", "simulation-rivals", "table-figures", "timetable-direction", "designed-cards"})

# A table is named after its function (``mainline_terrain`` is 'mainline-terrain').
TABLES: dict[str, Callable[[Catalog], Context]] = {
    fn.__name__.replace("_", "-"): fn
    for fn in (
        edition,
        track,
        offices,
        office_capacity,
        facilities,
        facility_modifiers,
        timetabled_trains,
        extras,
        enhancements,
        mainline_modifiers,
        maneuvers,
        second_section,
        action_cards,
        space_use_cards,
        mainline_terrain,
        terrain_crossings,
        crossing_times,
        table_figures,
        scoring,
        glossary,
        timetable_direction,
        division_points,
        realignment,
        house_rules,
        effects,
        designed_cards,
        designed_values,
        simulation,
        simulation_rivals,
        simulation_sweep,
        status_legend,
    )
}


def _helpers(catalog: Catalog) -> dict[str, Callable[..., str]]:
    shapes = {shape.id: shape.routes for shape in catalog.of_type(TrackShape)}

    def track_picture(card_id: str) -> str:
        """The inline SVG of a track card (``track_svg`` in the templates)."""
        return track_svg(shapes[card_id])

    return {"track_svg": track_picture}


# Generated columns whose numbers are rules of play, not copies in a deck.
NUMERIC_COLUMNS = (
    "A/D tracks",
    "Porters",
    "Outbound slots",
    "Inbound slots",
    "Fast with a coach",
    "Fast freight",
    "Slow with a coach",
    "Slow freight",
    "No\\.",
)
# The What changed page's words for a change to a field, where its name in
# words would not do ("play option now draw").
CHANGE_WORDS: dict[str, Callable[[Any, Any], str]] = {
    "playOption": lambda old, new: "now played only in the Draw option, no longer in the Play option" if new == "draw" else "now played in the Play option too, not only in the Draw option",
}
TABLE_SET = TableSet(
    "stationmaster", TABLES, reports=REPORTS, links_only=LINKS_ONLY, numeric_columns=NUMERIC_COLUMNS, helpers=_helpers, change_words=CHANGE_WORDS, configuration_label=configuration_label
)
