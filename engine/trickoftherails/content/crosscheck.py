"""The rules that span Trick of the Rails' files: each company holds each
number once, the lane fits the hands, every Reservation is filled before it
comes up, locomotive costs rise with reach, and every reference resolves.
Each broken rule is a located Problem; a card that failed its schema is
skipped, so one mistake is reported once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.content.loader import Coverage, Locator
from engine.content.problems import Origin, Problem, about, field_path
from engine.content.schemas import did_you_mean
from engine.content.source import Source, undeclared, unknown_edition
from engine.trickoftherails.content.model import Catalog

SLOT_KINDS = {"exchange": "exchanges", "city": "cities", "reservation": "reservations"}
OPERATING = "operating"


def cross_check(catalog: Catalog, locator: Locator, coverage: Coverage) -> list[Problem]:
    """Every cross-file problem, over what ``coverage`` says passed its
    schema: a rule that needs a family or a file's section that failed waits
    until it is fixed, so one mistake is reported once."""
    found: list[Problem] = []
    whole = coverage.whole
    companies = whole("companies", "companies")
    if companies:
        found += _unique_companies(catalog, locator)
    found += _references(catalog, locator, companies=companies, effects=whole("effects", "effects"), held={f for f in ("stations", "exchanges") if whole(f)})
    if whole("game", "sourceEditions"):
        found += _sources(catalog, locator)
    if whole("railway") and companies:
        declared = {c.id for c in catalog.companies}
        found += _numbers(catalog, locator, astray=any(c.company is not None and c.company not in declared for c in catalog.railway_cards))
    if whole("locomotives"):
        found += _locomotives(catalog, locator)
    if whole("game", "hands") and whole("lane", "layouts"):
        found += _lanes(catalog, locator, coverage)
    return found


def _unique_companies(catalog: Catalog, locator: Locator) -> list[Problem]:
    found = []
    seen: set[str] = set()
    for company in catalog.companies:
        if company.id in seen:
            found.append(locator.problem(company.origin, f"{about(company.id, kind='company')}: declared twice; each company is declared once", field="id"))
        seen.add(company.id)
    return found


def _references(catalog: Catalog, locator: Locator, *, companies: bool, effects: bool, held: set[str]) -> list[Problem]:
    """References to companies and effects (when those files read), and each
    company's one Station and Exchange (for the families in ``held``, read whole)."""
    found = []
    declared = [c.id for c in catalog.companies]
    # Families with a card naming no company: a company's card may be that
    # one, misspelt, so its missing card is not a second problem.
    astray: set[str] = set()
    for card in catalog.cards:
        if companies and card.company is not None and card.company not in declared:
            astray.add(card.family)
            found.append(
                locator.problem(
                    card.origin,
                    f"{about(card.id, 'company')}: '{card.company}' is not a company{did_you_mean(card.company, declared)}; companies.yaml declares: {', '.join(declared)}",
                    field="company",
                )
            )
        if effects and card.effect is not None and card.effect not in catalog.effects and card.family != "railway":
            found.append(locator.problem(card.origin, f"{about(card.id, 'effect')}: '{card.effect}' is not declared in effects.yaml{did_you_mean(card.effect, list(catalog.effects))}", field="effect"))
    # A Railway card does not name its effect: all of them take one, so a
    # missing declaration is one problem, not fifty.
    implied = next((c for c in catalog.railway_cards if effects and c.effect is not None and c.effect not in catalog.effects), None)
    if implied is not None:
        found.append(
            locator.problem(
                implied.origin, f"{about(implied.id)}: Railway cards take effect '{implied.effect}', which is not declared in effects.yaml{did_you_mean(str(implied.effect), list(catalog.effects))}"
            )
        )
    for family, what in (("stations", "Station"), ("exchanges", "Exchange")):
        if family not in held or not companies:
            continue
        held_by = Counter(c.company for c in catalog.of_family(family))
        for company in catalog.companies:
            if held_by[company.id] > 1 or (held_by[company.id] == 0 and family not in astray):
                have = "none" if not held_by[company.id] else f"{held_by[company.id]}"
                found.append(locator.problem(company.origin, f"{about(company.id, kind='company')}: needs exactly one {what} card; it has {have}", field="id"))
    return found


def _sources(catalog: Catalog, locator: Locator) -> list[Problem]:
    found = []
    records: list[tuple[Source, Origin, str]] = [(c.source, c.origin, about(c.id, "source")) for c in catalog.cards]
    records += [(c.source, c.origin, about(c.id, "source", kind="company")) for c in catalog.companies]
    records += [(e.source, e.origin, about(e.id, "source", kind="effect")) for e in catalog.effects.values()]
    records += [(h.source, h.origin, f"field '{field_path((*h.origin.pointer, 'source'))}'") for h in catalog.hands.values()]
    records += [(v.source, v.origin, about(v.id, "source", kind="variant")) for v in catalog.variants.values()]
    records += [(layout.source, layout.origin, f"field '{field_path((*layout.origin.pointer, 'source'))}'") for layout in catalog.layouts.values()]
    for source, origin, who in records:
        problem = undeclared(source, catalog.editions)
        if problem:
            found.append(locator.problem(origin, f"{who}: {problem}", field="source"))
    for publication in catalog.published:
        for index, edition in enumerate(publication.sources):
            if edition not in catalog.editions:
                who = f"field '{field_path((*publication.origin.pointer, 'sources', index))}'"
                found.append(locator.problem(publication.origin, f"{who}: {unknown_edition(edition, catalog.editions)}", field=("sources", index)))
    for value in catalog.values:
        problem = undeclared(value.source, catalog.editions)
        if problem:
            found.append(locator.problem(value.origin, f"{about(value.key, kind=value.kind)}: source {problem}"))
    return found


def _numbers(catalog: Catalog, locator: Locator, *, astray: bool) -> list[Problem]:
    """Each company holds each number once: a trick can then never tie.
    ``astray``: a Railway card names no company (reported as such), so a
    number a company lacks may be that card's, and is not reported again."""
    railway = catalog.railway_cards
    numbers = sorted({c.number for c in railway if c.number is not None})
    top = numbers[-1] if numbers else 0
    found = []
    seen: dict[tuple[str | None, int | None], str] = {}
    for card in railway:
        key = (card.company, card.number)
        if key in seen:
            found.append(
                locator.problem(
                    card.origin, f"{about(card.id, 'number')}: company '{card.company}' number {card.number} is already card '{seen[key]}'; each company holds each number once", field="number"
                )
            )
        else:
            seen[key] = card.id
    for company in catalog.companies:
        missing = [n for n in range(1, top + 1) if (company.id, n) not in seen]
        if missing and not astray:
            found.append(
                locator.problem(
                    company.origin, f"{about(company.id, kind='company')}: has no Railway card numbered {_listed(missing)}; every company holds each number from 1 to {top} once", field="id"
                )
            )
    return found


def _listed(numbers: Iterable[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _locomotives(catalog: Catalog, locator: Locator) -> list[Problem]:
    locos = catalog.of_family("locomotives")
    found = []
    whole = [c for c in locos if c.reach is None]
    if len(whole) != 1:
        origin = whole[1].origin if len(whole) > 1 else (locos[0].origin if locos else None)
        if origin is not None:
            card = whole[1] if len(whole) > 1 else locos[0]
            found.append(locator.problem(origin, f"{about(card.id, 'reach')}: exactly one locomotive reaches 'all' (the whole railway); there are {len(whole)}", field="reach"))
    reaches = Counter(c.reach for c in locos if c.reach is not None)
    for card in locos:
        if card.reach is not None and reaches[card.reach] > 1:
            found.append(locator.problem(card.origin, f"{about(card.id, 'reach')}: two locomotives reach {card.reach}; each reach is printed once", field="reach"))
            reaches[card.reach] = 0
    ordered = sorted(locos, key=lambda c: (c.reach is None, c.reach or 0))
    for before, after in zip(ordered, ordered[1:]):
        if before.cost is not None and after.cost is not None and after.cost <= before.cost:
            reach = "all" if after.reach is None else after.reach
            found.append(
                locator.problem(
                    after.origin, f"{about(after.id, 'cost')}: costs rise with reach: {after.name} (reach {reach}) costs {after.cost}, not more than {before.name}'s {before.cost}", field="cost"
                )
            )
    # A locomotive whose brings names no locomotive is reported for that;
    # that it then does not bring the [∞] is the same typo, not a second problem.
    astray: set[str] = set()
    for card in locos:
        if card.brings is not None:
            target = catalog.by_id.get(card.brings)
            if target is None or not target.is_locomotive:
                astray.add(card.id)
                found.append(locator.problem(card.origin, f"{about(card.id, 'brings')}: '{card.brings}' is not a locomotive{did_you_mean(card.brings, [c.id for c in locos])}", field="brings"))
            elif target.reach is not None:
                found.append(
                    locator.problem(
                        card.origin, f"{about(card.id, 'brings')}: '{card.brings}' is a numbered locomotive; only the one that reaches 'all' (the [∞]) is brought by another", field="brings"
                    )
                )
    finite = [c for c in locos if c.reach is not None]
    highest = max(finite, key=lambda c: c.reach or 0) if finite else None
    for card in whole[:1]:
        bringers = [c for c in locos if c.brings == card.id]
        if highest is None:
            found.append(locator.problem(card.origin, f"{about(card.id, 'id')}: {card.name} comes into play with the highest numbered locomotive, but no locomotive has a number", field="id"))
            continue
        for bringer in bringers:
            if bringer is not highest:
                found.append(
                    locator.problem(bringer.origin, f"{about(bringer.id, 'brings')}: {bringer.name} brings {card.name}, but only the highest numbered locomotive ({highest.name}) does", field="brings")
                )
        if highest not in bringers and highest.id not in astray:
            found.append(locator.problem(highest.origin, f"{about(highest.id)}: {highest.name} must say 'brings: {card.id}': {card.name} comes into play with the highest numbered locomotive"))
    return found


def _lanes(catalog: Catalog, locator: Locator, coverage: Coverage) -> list[Problem]:
    found = []
    for players, sized in catalog.hands.items():
        if players not in catalog.layouts:
            found.append(locator.problem(sized.origin, f"no Trick Lane layout for {players} players in lane.yaml; every player count with a hand size needs one"))
    railway = len(catalog.railway_cards)
    if coverage.whole("lane", "operatingPool"):
        found += _pool(catalog, locator, coverage.unchecked)
    for players, layout in catalog.layouts.items():
        hand = catalog.hands.get(players)
        if hand is None:
            found.append(locator.problem(layout.origin, f"a layout for {players} players, but game.yaml gives no hand size for {players} players", field="players"))
            continue
        if hand.cards * players > railway and coverage.whole("railway"):
            found.append(locator.problem(hand.origin, f"{players} hands of {hand.cards} need {hand.cards * players} Railway cards; there are {railway}", field="cards"))
        for variant in ("basic", "expert"):
            slots = layout.basic if variant == "basic" else layout.expert
            field = variant
            if len(slots) != hand.cards:
                longer = "longer" if len(slots) > hand.cards else "shorter"
                # A lane too long is shown at its first slot past the hands.
                where: str | tuple[str, int] = (field, hand.cards) if len(slots) > hand.cards else field
                found.append(
                    locator.problem(
                        layout.origin,
                        f"the {variant} lane for {players} players has {len(slots)} slots, {longer} than the hands ({hand.cards} cards): one trick uses one lane card, so they must be equal",
                        field=where,
                    )
                )
            found += _slots(catalog, locator, layout.origin, field, slots, variant, coverage)
    return found


def _pool(catalog: Catalog, locator: Locator, unchecked: frozenset[str]) -> list[Problem]:
    lane_origin = next(iter(catalog.layouts.values())).origin if catalog.layouts else None
    found = []
    for index, card_id in enumerate(catalog.operating_pool):
        card = catalog.by_id.get(card_id)
        if card is None and card_id in unchecked:
            continue
        if card is None or card.family not in ("cities", "locomotives") or (card.is_locomotive and card.reach is None):
            if lane_origin is not None:
                found.append(
                    locator.problem(
                        Origin(lane_origin.file, ()),
                        f"field 'operatingPool[{index}]': '{card_id}' cannot be in the operating pool: it holds Cities and numbered Locomotives",
                        field=("operatingPool", index),
                    )
                )
    return found


def _slots(catalog: Catalog, locator: Locator, origin: Origin, field: str, slots: tuple[str, ...], variant: str, coverage: Coverage) -> list[Problem]:
    found = []
    finite_locos = [c.id for c in catalog.of_family("locomotives") if c.reach is not None]
    allowed = [*SLOT_KINDS, *finite_locos] + ([OPERATING] if variant == "expert" else [])
    stock_before = 0
    reservations_seen = 0
    out_of_step = False
    # A slot that names nothing is reported as such; the locomotive it
    # likely misspells is then not reported missing from the lane as well.
    astray = False
    for index, slot in enumerate(slots):
        where = (field, index)
        if slot not in allowed:
            astray = True
            if slot in coverage.unchecked:
                continue  # a locomotive whose own card is broken, already reported
            why = " (the [∞] locomotive comes with the one that brings it, never from the lane)" if slot in catalog.by_id and catalog.by_id[slot].is_locomotive else ""
            found.append(
                locator.problem(
                    origin, f"field '{field_path((*origin.pointer, *where))}': '{slot}' is not a lane slot{why}{did_you_mean(slot, allowed)}; a slot is one of: {', '.join(allowed)}", field=where
                )
            )
            continue
        stock = slot in ("exchange", "reservation")
        if stock != (index % 2 == 0) and not out_of_step:
            # Reported once, where the lane first falls out of step: a slot
            # added or dropped there puts every later one out of step too.
            out_of_step = True
            found.append(
                locator.problem(
                    origin,
                    f"slot {index + 1} is {'a stock' if stock else 'an operating'} slot; the lane alternates stock and operating tricks, starting with stock (a slot added or missing here shifts every slot after it)",
                    field=where,
                )
            )
        if slot == "reservation":
            reservations_seen += 1
            if stock_before < reservations_seen:
                found.append(
                    locator.problem(
                        origin,
                        f"Reservation {reservations_seen} (slot {index + 1}) would come up unfilled: {stock_before} stock slot(s) come before it and it needs {reservations_seen}, as each stock trick fills the leftmost Reservation with the winner's card",
                        field=where,
                    )
                )
        if stock:
            stock_before += 1
    counts = Counter(slots)
    for kind, family in SLOT_KINDS.items():
        have = sum(c.count for c in catalog.of_family(family))
        if counts[kind] > have and coverage.whole(family):
            found.append(locator.problem(origin, f"the {variant} lane has {counts[kind]} {kind} slots, but there are only {have} {kind} cards", field=field))
    if counts[OPERATING] > len(catalog.operating_pool) and coverage.whole("lane", "operatingPool"):
        found.append(locator.problem(origin, f"the {variant} lane has {counts[OPERATING]} operating slots, but the operating pool holds only {len(catalog.operating_pool)} cards", field=field))
    for loco in finite_locos:
        if counts[loco] > 1:
            found.append(locator.problem(origin, f"{loco} appears {counts[loco]} times in the {variant} lane; there is one of each locomotive", field=field))
        if variant == "basic" and counts[loco] == 0 and coverage.whole("locomotives") and not astray:
            found.append(locator.problem(origin, f"the basic lane has no slot for {loco}; every numbered locomotive comes up once", field=field))
    return found
