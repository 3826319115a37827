"""Rules a schema cannot state: uniqueness across files, references that must
resolve (a source names a declared edition), and facts that must agree with
each other (lockout pairs, the office ladder, a consist that fits its Crew Tray)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from engine.content.problems import Problem, about, field_path
from engine.content.schemas import did_you_mean
from engine.content.source import undeclared
from engine.stationmaster.content.model import (
    Card,
    Catalog,
    Enhancement,
    Facility,
    FacilityModifier,
    MainlineCard,
    MainlineModifier,
    OfficeTier,
    OpponentCard,
    Origin,
    TrackShape,
    TrainCard,
)

if TYPE_CHECKING:
    from engine.content.loader import Coverage, Locator
    from engine.stationmaster.content.catalog import KnownHouseRules

Report = Callable[..., None]
_CORNERS_LEFT = {"NE", "SW"}
_CORNERS_RIGHT = {"SE", "NW"}


def cross_check(catalog: Catalog, locator: Locator, known_house_rules: KnownHouseRules, coverage: Coverage) -> list[Problem]:
    """Every cross-file problem, over what ``coverage`` says read and passed
    its schema: a reference to a card left out is not reported as dangling,
    and a rule that needs a whole family or a section of a file that failed
    waits until it is fixed, so one mistake is reported once."""
    problems: list[Problem] = []
    unchecked = coverage.unchecked

    def report(origin: Origin, message: str, field: str | int | tuple[str | int, ...] | None = None, at_key: bool = False) -> None:
        problems.append(locator.problem(origin, message, field=field, at_key=at_key))

    if coverage.whole("game", "sourceEditions"):
        _sources_declared(catalog, report)
    if coverage.whole("effects", "effects"):
        _effects_declared(catalog, report)
    _track(catalog, report)
    _track_labels(catalog, report)
    _restrictions(catalog, report, car_types=coverage.whole("supplies"), names=coverage.whole("trains", "restrictions"))
    if coverage.whole("mainline", "crossing"):
        _crossing(catalog, report)
    if coverage.whole("offices"):
        _offices(catalog, report, unchecked)
    _facilities(catalog, report, unchecked)
    _modifiers(catalog, report, unchecked)
    _trains(catalog, report, crew_tray=coverage.whole("game", "table", "crewTrayPieces"))
    _mainline(catalog, report, unchecked, whole=coverage.whole("mainline"), supplies=coverage.whole("supplies"))
    _defences(catalog, report, unchecked)
    if coverage.whole("offices") and coverage.whole("house-rules"):
        _house_rules(catalog, report, known_house_rules, supplies=coverage.whole("supplies"))
    return problems


def _ref(catalog: Catalog, unchecked: frozenset[str], ref: str, kind: type[Card], what: str) -> str | None:
    """None when ``ref`` names a card of the right kind (or one already reported); else why not."""
    if ref in unchecked:
        return None  # the card it names is broken or its id repeated: reported already
    card = catalog.by_id.get(ref)
    if card is None:
        candidates = [c.id for c in catalog.cards if isinstance(c, kind)]
        return f"'{ref}' is not a known {what}{did_you_mean(ref, candidates)}"
    if not isinstance(card, kind):
        return f"'{ref}' is a {card.family} card, not a {what}"
    return None


def _sources_declared(catalog: Catalog, report: Report) -> None:
    declared = catalog.game.source_editions
    for card in catalog.cards:
        problem = undeclared(card.source, declared)
        if problem:
            report(card.origin, f"{about(card.id, 'source')}: {problem}", "source")
    for value in catalog.value_sources:
        problem = undeclared(value.source, declared)
        if problem:
            report(value.origin, f"{about(value.key, kind=value.kind)}: source {problem}")


def _effects_declared(catalog: Catalog, report: Report) -> None:
    for card in catalog.cards:
        effect = getattr(card, "effect", None)
        if effect is not None and effect not in catalog.effects:
            hint = did_you_mean(effect, list(catalog.effects))
            report(card.origin, f"{about(card.id, 'effect')}: '{effect}' is not declared in effects.yaml{hint}", "effect")


def _track(catalog: Catalog, report: Report) -> None:
    for shape in catalog.of_type(TrackShape):
        corners = {p for route in shape.routes for p in route if len(p) == 2}
        if corners and corners <= _CORNERS_LEFT:
            actual = "left"
        elif corners and corners <= _CORNERS_RIGHT:
            actual = "right"
        else:
            actual = "none"
        if actual != shape.handedness:
            report(shape.origin, f"card '{shape.id}': its routes make it {actual}-handed, not {shape.handedness}", "handedness")
        seen: set[frozenset[str]] = set()
        for _i, (a, b) in enumerate(shape.routes):
            pair = frozenset((a, b))
            if a == b:
                report(shape.origin, f"card '{shape.id}': a route must join two different ports", "routes")
            elif pair in seen:
                report(shape.origin, f"card '{shape.id}': route {a}-{b} is listed twice", "routes")
            seen.add(pair)


def _track_labels(catalog: Catalog, report: Report) -> None:
    first: dict[str, TrackShape] = {}
    for shape in catalog.of_type(TrackShape):
        other = first.setdefault(shape.label, shape)
        if other is not shape:
            report(shape.origin, f"card '{shape.id}': label '{shape.label}' is already the label of '{other.id}'; the district grid could not tell them apart", "label")


def _restrictions(catalog: Catalog, report: Report, *, car_types: bool, names: bool) -> None:
    """``car_types``: the supplies read, so car types can be checked against
    them; ``names``: every trains file's restrictions read, so a train's
    restriction without words is a real gap."""
    supplied = dict(catalog.supplies.car_categories)
    for rid, rule in catalog.restrictions.items() if car_types else ():
        for i, kind in enumerate(rule.car_types):
            if kind not in supplied:
                report(rule.origin, f"restriction '{rid}': car type '{kind}' is not among the cars in supplies.yaml{did_you_mean(kind, list(supplied))}", ("carTypes", i))
            elif supplied[kind] != "freight":
                report(rule.origin, f"restriction '{rid}': '{kind}' is a {supplied[kind]} car in supplies.yaml; carTypes limits a train's freight cars", ("carTypes", i))
    for t in catalog.of_type(TrainCard) if names else ():
        for i, rid in enumerate(t.restrictions):
            if rid not in catalog.restrictions:
                report(t.origin, f"card '{t.id}': restriction '{rid}' has no entry under restrictions in the trains file, so the engine has no words for it", ("restrictions", i))


def _crossing(catalog: Catalog, report: Report) -> None:
    rule = catalog.crossing
    if rule is None:
        return
    seen: set[int] = set()
    for i, (mph, _) in enumerate(rule.stages_at_mph):
        if mph in seen:
            report(rule.origin, f"crossing: {mph} mph is listed twice in stagesAtMph", ("stagesAtMph", i, "mph"))
        seen.add(mph)
    for m in catalog.of_type(MainlineCard):
        if m.speed_mph is None:
            continue
        for kind in ("passenger", "freight"):
            mph = getattr(m.speed_mph, kind)
            if rule.stages_at(mph) is None:
                listed = ", ".join(str(s) for s in sorted(seen))
                report(m.origin, f"card '{m.id}': no crossing time for {mph} mph; the crossing table (stagesAtMph) lists {listed}", ("speedMph", kind))


def _offices(catalog: Catalog, report: Report, unchecked: frozenset[str]) -> None:
    tiers = catalog.of_type(OfficeTier)
    if not tiers:
        return
    bases = [t for t in tiers if t.upgrades_from is None]
    if len(bases) != 1:
        for t in bases[1:] or tiers[:1]:
            report(t.origin, f"card '{t.id}': the office tiers need exactly one base tier (one without upgradesFrom); found {len(bases)}")
        return
    base = bases[0]
    if base.count != 0:
        report(base.origin, f"card '{base.id}': the base tier comes from the supply, never from the deck; its count must be 0", "count")
    if catalog.supplies.whistle_post_office != base.id:
        pass  # reported by _house_rules with the supplies file's location
    next_of: dict[str, OfficeTier] = {}
    reported: set[str] = set()
    for t in tiers:
        if t.upgrades_from is None:
            continue
        problem = _ref(catalog, unchecked, t.upgrades_from, OfficeTier, "office tier")
        if problem:
            report(t.origin, f"{about(t.id, 'upgradesFrom')}: {problem}", "upgradesFrom")
            reported.add(t.id)
            continue
        if t.upgrades_from in next_of:
            report(t.origin, f"card '{t.id}': '{t.upgrades_from}' already upgrades to '{next_of[t.upgrades_from].id}'; tiers form one strict sequence", "upgradesFrom")
            reported.add(t.id)
            continue
        next_of[t.upgrades_from] = t
    ladder = [base]
    while ladder[-1].id in next_of and len(ladder) <= len(tiers):
        ladder.append(next_of[ladder[-1].id])
    _office_loops(tiers, ladder, reported, report)
    _office_steps(ladder, report)
    for lower, upper in zip(ladder, ladder[1:]):
        for field, attr in (("controlPoint", "control_point"), ("passengerFacility", "passenger_facility")):
            if getattr(lower, attr) and not getattr(upper, attr):
                report(upper.origin, f"card '{upper.id}': an upgrade cannot lose {field}, which '{lower.id}' has", field)


def _office_loops(tiers: Sequence[OfficeTier], ladder: list[OfficeTier], reported: set[str], report: Report) -> None:
    """A tier off the ladder is reported only where upgradesFrom goes round
    in a loop, once per loop: one that hangs below a tier whose upgradesFrom
    is already reported (a typo, say) is off the ladder for that reason alone."""
    by_id = {t.id: t for t in tiers}
    on_ladder = {t.id for t in ladder}
    done: set[str] = set(on_ladder)
    for start in tiers:
        path: list[str] = []
        step: OfficeTier | None = start
        while step is not None and step.id not in done and step.id not in reported and step.id not in path:
            path.append(step.id)
            step = by_id.get(step.upgrades_from) if step.upgrades_from else None
        done.update(path)
        if step is not None and step.id in path:
            loop = path[path.index(step.id) :]
            first = by_id[loop[0]]
            report(first.origin, f"card '{first.id}': upgradesFrom goes round in a loop ({' -> '.join([*loop, loop[0]])}), so it never reaches the base tier '{ladder[0].id}'", "upgradesFrom")


def _office_steps(ladder: list[OfficeTier], report: Report) -> None:
    """Each tier adds exactly one A/D track, Porter and slot of each kind. A
    tier is held to what most tiers agree on, not only to the tier below, so
    one wrong number is one problem, not also one at the tier above it."""
    for field, attr in (("adTracks", "ad_tracks"), ("porters", "porters"), ("outboundSlots", "outbound_slots"), ("inboundSlots", "inbound_slots")):
        values: list[int] = [getattr(t, attr) for t in ladder]
        offsets = Counter(v - rank for rank, v in enumerate(values))
        # Ties go to the base tier, the one the supply hands out.
        agreed = max(offsets, key=lambda o: (offsets[o], o == values[0]))
        for rank, tier in enumerate(ladder):
            if values[rank] - rank == agreed:
                continue
            # Name the nearest tier that fits, the one below where there is one.
            near = min((r for r in range(len(ladder)) if values[r] - r == agreed), key=lambda r: (abs(r - rank), r > rank))
            report(tier.origin, f"card '{tier.id}': each tier adds exactly one to {field} ({ladder[near].id} has {values[near]}, so {tier.id} needs {agreed + rank})", field)


def _facilities(catalog: Catalog, report: Report, unchecked: frozenset[str]) -> None:
    producing = {"outbound", "both"}
    consuming = {"inbound", "both"}
    facilities = catalog.of_type(Facility)
    # A facility whose own lockout names nothing is reported for that; that
    # it then does not list its partner back is the same typo, not a second problem.
    dangling = {f.id for f in facilities if any(_ref(catalog, unchecked, p, Facility, "facility") for p in f.lockouts)}
    for f in facilities:
        if f.traffic in consuming and f.inbound_boxes == 0:
            report(f.origin, f"card '{f.id}': its traffic is {f.traffic}, so it needs at least one inbound box", "inboundBoxes")
        if f.traffic in producing and f.outbound_boxes == 0:
            report(f.origin, f"card '{f.id}': its traffic is {f.traffic}, so it needs at least one outbound box", "outboundBoxes")
        for i, partner_id in enumerate(f.lockouts):
            problem = _ref(catalog, unchecked, partner_id, Facility, "facility")
            if problem:
                report(f.origin, f"{about(f.id, f'lockouts[{i}]')}: {problem}", ("lockouts", i))
                continue
            partner = catalog.by_id.get(partner_id)
            if not isinstance(partner, Facility):
                continue
            if partner.id == f.id:
                report(f.origin, f"card '{f.id}': a facility cannot lock itself out", ("lockouts", i))
            elif f.id not in partner.lockouts:
                if partner.id in dangling:
                    continue
                report(f.origin, f"card '{f.id}': locks out '{partner.id}', but '{partner.id}' does not list '{f.id}' in its lockouts; pairs are symmetric", ("lockouts", i))
            elif partner.commodity != f.commodity:
                report(
                    f.origin,
                    f"card '{f.id}': lockout pair with '{partner.id}' mixes commodities ({f.commodity} and {partner.commodity}); a pair is the producer and consumer of one commodity",
                    ("lockouts", i),
                )
            elif not ((f.traffic in producing and partner.traffic in consuming) or (f.traffic in consuming and partner.traffic in producing)) or f.traffic == partner.traffic:
                report(f.origin, f"card '{f.id}': lockout pair with '{partner.id}' must be a producer and a consumer (traffic {f.traffic} and {partner.traffic})", ("lockouts", i))


def _modifiers(catalog: Catalog, report: Report, unchecked: frozenset[str]) -> None:
    for m in catalog.of_type(FacilityModifier):
        if isinstance(m.hosts, tuple):
            for i, host in enumerate(m.hosts):
                problem = _ref(catalog, unchecked, host, Facility, "facility")
                if problem:
                    report(m.origin, f"{about(m.id, f'hosts[{i}]')}: {problem}", ("hosts", i))
        if m.passenger != (m.grant in ("inboundSlot", "outboundSlot", "porter")):
            report(m.origin, f"card '{m.id}': grant '{m.grant}' does not fit hosts '{m.hosts}': slots and Porters belong to Offices, boxes to industries", "grant")


def _trains(catalog: Catalog, report: Report, *, crew_tray: bool) -> None:
    pieces = catalog.game.table.crew_tray_pieces
    numbers: dict[str, TrainCard] = {}
    for t in catalog.of_type(TrainCard):
        if t.number in numbers:
            report(t.origin, f"card '{t.id}': train number {t.number} is already '{numbers[t.number].id}'", "number")
        numbers.setdefault(t.number, t)
        if (t.service == "extra") != t.number.startswith("X"):
            want = "an X-number" if t.service == "extra" else "a plain number"
            report(t.origin, f"card '{t.id}': a {t.service} train has {want}, not '{t.number}'", "number")
        if t.count > 1:
            report(t.origin, f"card '{t.id}': a train card is unique (its number runs once on the timetable); count must be 0 or 1", "count")
        used = t.consist.cars + (1 if t.caboose else 0)
        if t.consist.cars == 0:
            report(t.origin, f"card '{t.id}': the consist allows no cars at all", "consist")
        if used > pieces and crew_tray:
            report(t.origin, f"card '{t.id}': {t.consist.cars} car(s){' and a caboose' if t.caboose else ''} need {used} places; a Crew Tray holds {pieces}", "consist")
        if "reefersOnly" in t.restrictions and t.consist.freight == 0:
            report(t.origin, f"card '{t.id}': 'reefersOnly' on a train that takes no freight cars", "restrictions")
        if t.effect == "pays-for-stopping" and "mayNotSwitch" not in t.restrictions:
            report(t.origin, f"card '{t.id}': a train that pays for stopping may not switch; add mayNotSwitch to its restrictions", "restrictions")
        if "dropOnly" in t.restrictions and "pickUpEmptiesOnly" in t.restrictions:
            report(t.origin, f"card '{t.id}': 'dropOnly' and 'pickUpEmptiesOnly' contradict each other", "restrictions")


def _mainline(catalog: Catalog, report: Report, unchecked: frozenset[str], *, whole: bool, supplies: bool) -> None:
    ends: dict[str, list[MainlineCard]] = {"east": [], "west": []}
    terrain_total = 0
    for m in catalog.of_type(MainlineCard):
        if m.role == "divisionPoint":
            if m.end is None:
                report(m.origin, f"card '{m.id}': a Division Point needs 'end: east' or 'end: west'")
            else:
                ends[m.end].append(m)
            if m.speed_mph is not None:
                report(m.origin, f"card '{m.id}': a Division Point is not crossed, so it has no speedMph", "speedMph", True)
            if m.count != 1:
                report(m.origin, f"card '{m.id}': there is exactly one of each Division Point; count must be 1", "count")
        else:
            terrain_total += m.count
            if m.end is not None:
                report(m.origin, f"card '{m.id}': only a Division Point has an end", "end", True)
            if m.speed_mph is None:
                report(m.origin, f"card '{m.id}': terrain needs speedMph for passenger and freight trains")
    mainline_cards = catalog.of_type(MainlineCard)
    if mainline_cards and whole:
        for side, found in ends.items():
            if len(found) != 1:
                report(mainline_cards[0].origin, f"the Mainline needs exactly one {side} Division Point; found {len(found)}")
        needed = catalog.supplies.whistle_posts + 1
        if terrain_total < needed and supplies:
            report(mainline_cards[0].origin, f"the terrain inventory holds {terrain_total} card(s); a full table of {catalog.supplies.whistle_posts} districts needs {needed}")
    for mod in catalog.of_type(MainlineModifier):
        targets = mod.play_on if isinstance(mod.play_on, tuple) else ()
        for i, target in enumerate(targets):
            problem = _terrain_ref(catalog, unchecked, target)
            if problem:
                report(mod.origin, f"{about(mod.id, f'playOn[{i}]')}: {problem}", ("playOn", i))
        if mod.crossing is not None:
            for target in targets:
                card = catalog.by_id.get(target)
                if isinstance(card, MainlineCard) and not card.grade:
                    report(mod.origin, f"card '{mod.id}': cuts an {mod.crossing.direction} crossing, but '{target}' has no grade", "playOn")
            if not targets:
                report(mod.origin, f"card '{mod.id}': a grade card must name the graded terrain it is played on", "playOn")
        if mod.requires is not None:
            problem = _ref(catalog, unchecked, mod.requires, MainlineModifier, "Mainline modifier")
            if problem:
                report(mod.origin, f"{about(mod.id, 'requires')}: {problem}", "requires")
            elif mod.requires == mod.id:
                report(mod.origin, f"card '{mod.id}': cannot require itself", "requires")
        if mod.realign:
            if mod.play_on != "anyUnoccupied":
                report(mod.origin, f"card '{mod.id}': a realignment card is played on any unoccupied card its map names; set playOn: anyUnoccupied", "playOn")
            for source, target in mod.realign:
                for end_id, at_key in ((source, True), (target, False)):
                    problem = _terrain_ref(catalog, unchecked, end_id)
                    if problem:
                        report(mod.origin, f"{about(mod.id, field_path(('realign', source)))}: {problem}", ("realign", source), at_key)
                if source == target:
                    report(mod.origin, f"card '{mod.id}': realign maps '{source}' to itself", ("realign", source))
        elif mod.play_on == "anyUnoccupied" and mod.crossing is None:
            report(mod.origin, f"card '{mod.id}': playOn anyUnoccupied needs a realign map saying what each terrain becomes", "playOn")


def _terrain_ref(catalog: Catalog, unchecked: frozenset[str], ref: str) -> str | None:
    problem = _ref(catalog, unchecked, ref, MainlineCard, "Mainline terrain card")
    if problem or ref not in catalog.by_id:
        return problem
    card = catalog.by_id[ref]
    assert isinstance(card, MainlineCard)
    if card.role != "terrain":
        return f"'{ref}' is a Division Point, not terrain"
    return None


def _defences(catalog: Catalog, report: Report, unchecked: frozenset[str]) -> None:
    for card in catalog.cards:
        if not isinstance(card, (Enhancement, OpponentCard)):
            continue
        for i, attack in enumerate(card.answers):
            problem = _ref(catalog, unchecked, attack, OpponentCard, "opponent-directed card")
            if problem:
                report(card.origin, f"{about(card.id, f'answers[{i}]')}: {problem}", ("answers", i))
                continue
            target = catalog.by_id.get(attack)
            if not isinstance(target, OpponentCard):
                continue
            if target.attacks is None:
                report(card.origin, f"card '{card.id}': answers '{attack}', which is itself a defence, not an attack", ("answers", i))


def _house_rules(catalog: Catalog, report: Report, known_house_rules: KnownHouseRules, *, supplies: bool) -> None:
    tiers = {t.id: t for t in catalog.of_type(OfficeTier)}
    seen: set[str] = set()
    for rule in catalog.house_rules:
        if rule.id in seen:
            report(rule.origin, f"house rule '{rule.id}' is declared twice", "id")
        seen.add(rule.id)
        values = [o.value for o in rule.options]
        for i, value in enumerate(values):
            if value in values[:i]:
                report(rule.origin, f"house rule '{rule.id}': option {value!r} is listed twice", "options")
        if not rule.allows(rule.default):
            report(rule.origin, f"house rule '{rule.id}': default {rule.default!r} is not one of its options", "default")
        known = known_house_rules.get(rule.id)
        if known is None:
            hint = did_you_mean(rule.id, list(known_house_rules))
            report(rule.origin, f"house rule '{rule.id}' is not one the engine plays{hint}", "id")
            continue
        for value in values:
            ok = value in tiers if known == "office" else any(k == value and type(k) is type(value) for k in known)
            if not ok:
                allowed = "an office tier id" if known == "office" else ", ".join(map(str, known))
                report(rule.origin, f"house rule '{rule.id}': the engine has no rule for option {value!r}; it knows {allowed}", "options")
    for missing in sorted(set(known_house_rules) - seen):
        if catalog.house_rules:
            report(catalog.house_rules[0].origin, f"house rule '{missing}' is missing; the engine needs it to set up a game")
    base = [t for t in tiers.values() if t.upgrades_from is None]
    if supplies and base and catalog.supplies.whistle_post_office != base[0].id:
        # Supplies are not cards; place the problem on the base tier instead.
        report(base[0].origin, f"supplies.yaml names '{catalog.supplies.whistle_post_office}' as the supplied Office, but the base tier is '{base[0].id}'")
