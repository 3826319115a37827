"""The Mainline Phase, run when every player has ended a turn: the train due
out departs, queued Extras are made up, every train moves, and trains that
stood still at an Office raise ``TRAIN_STOOD`` for their card's effect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import MainlineModifier, OfficeTier, TrainCard
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.consist import make_up
from engine.stationmaster.rules.events import OFFICE_FULL, TRAIN_STOOD
from engine.stationmaster.rules.industry import deliver
from engine.stationmaster.rules.inputs import named_cars
from engine.stationmaster.rules.lasting import line_closed
from engine.stationmaster.rules.lookups import district_enhancements, log, terrain
from engine.stationmaster.rules.mainline import Direction, crossing_stages
from engine.stationmaster.rules.state import Car, Heading, Train
from engine.stationmaster.rules.switching import train_district
from engine.stationmaster.rules.yards import take_from, turn_round, wanted_on_run, yards_for

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def mainline_phase(game: RulesContext) -> None:
    s = game.state
    due = s.timetable[s.stage - 1]
    if due is not None:
        card = game.catalog.by_id[due]
        assert isinstance(card, TrainCard)
        heading = game.catalog.game.timetable.heading(card.number)
        start = 0 if heading == "east" else len(s.mainline) - 1
        depart(game, card, None, start, heading, f"{due}/d{s.day}")
        if due in s.second_sections:
            depart(game, card, None, start, heading, f"{due}/d{s.day}/2")
    waiting = []
    for order in s.extras_queue:
        card = game.catalog.by_id[order.card]
        assert isinstance(card, TrainCard)
        closed = line_closed(game, order.start)  # washed out after the Extra was queued
        if closed is not None:
            log(s, f"{card.name} waits in the queue: {closed}")
        if closed is not None or s.crew_trays_free <= 0:
            waiting.append(order)
            continue
        chosen = None if order.load is None else named_cars(game, order.load)
        depart(game, card, order.player, order.start, order.heading, order.card, chosen)
    s.extras_queue = waiting
    for train in list(s.trains):
        if train in s.trains:
            before = (train.position, train.remaining)
            move(game, train)
            train.moved = (train.position, train.remaining) != before
    registry = load_handlers()
    for train in list(s.trains):
        card = game.catalog.by_id[train.card]
        stood = registry.get_handler(TRAIN_STOOD, card.effect) if isinstance(card, TrainCard) and not train.moved else None
        district = train_district(game, train) if stood is not None else None
        if stood is not None and district is not None:
            stood(game, train, district, card)


def depart(game: RulesContext, card: TrainCard, player: int | None, start: int, heading: Heading, train_id: str, chosen: list[Car] | None = None) -> None:
    s = game.state
    if s.crew_trays_free <= 0:
        log(s, f"{card.name} cannot run: no Crew Tray is free")
        return
    slot = s.mainline[start]
    name = game.catalog.by_id[s.slot_card(slot)].name
    yards = yards_for(game, start)
    wanted = wanted_on_run(game, card, start, heading)
    cars, short = make_up(card, [car for yard in yards for car in yard], name, game.catalog.game.table.crew_tray_pieces, chosen, wanted)
    take_from(yards, cars)
    caboose = card.caboose and s.cabooses_free > 0
    if card.caboose and not caboose:
        short = (short + "; " if short else "") + f"{card.name} left without its caboose: none was free"
    s.crew_trays_free -= 1
    if caboose:
        s.cabooses_free -= 1
    s.serial += 1
    s.trains.append(Train(train_id, card.id, player, heading, start, cars, caboose, sequence=s.serial))
    log(s, f"{card.name} departs {name} heading {heading} with {len(cars)} car(s)")
    if short:
        log(s, short)


def finish(game: RulesContext, train: Train, where: str) -> None:
    s = game.state
    s.trains.remove(train)
    if train.crew_tray:  # a train waiting without one has none to give back
        s.crew_trays_free += 1
    if train.caboose:
        s.cabooses_free += 1
    left = s.set_out_caboose(train.id)
    if left is not None:  # a train wrecked while it waited for its caboose
        left.caboose_of = None
        s.cabooses_free += 1
    card = game.catalog.by_id[train.card]
    if isinstance(card, TrainCard) and card.service == "extra":
        s.salvage.append(card.id)
    log(s, f"{card.name} {where}")


def move(game: RulesContext, train: Train) -> None:
    s = game.state
    if train.held > 0:
        train.held -= 1
        return
    at_office = train.remaining == 0 and s.mainline[train.position].kind == "office"
    if at_office and s.set_out_caboose(train.id) is not None:
        # its caboose, set out in this district, is what makes it ready to leave
        log(s, f"{game.catalog.by_id[train.card].name} waits at the Office for its caboose")
        return
    step = 1 if train.heading == "east" else -1
    if train.remaining > 0:
        train.remaining -= 1
        if train.remaining == 0:
            if not office_has_room(game, train, train.position + step):
                train.remaining = 1  # stands at the end of the card, held at the Limits
                return
            arrive(game, train, train.position + step)
        return
    target = train.position + step
    if not 0 <= target < len(s.mainline):
        finish(game, train, "ends its run")
        return
    slot = s.mainline[target]
    if slot.kind != "terrain":  # an Office or a Division Point straight ahead
        if not office_has_room(game, train, target):
            return
        arrive(game, train, target)
        return
    land = terrain(game, target)
    card = game.catalog.by_id[train.card]
    assert isinstance(card, TrainCard)
    closed = line_closed(game, target)  # an attack in force on the card (engine.stationmaster.rules.lasting)
    if closed is not None:
        log(s, f"{card.name} waits: {closed}")
        return
    on_card = [t for t in s.trains if t.position == target and t.remaining > 0]
    if any(t.heading != train.heading for t in on_card) and not land.passing:
        log(s, f"{card.name} waits: an opposing train holds the single track of {land.name}")
        return
    ahead = [t for t in on_card if t.heading == train.heading]
    if ahead and slot.abs_signals and not land.passing:
        log(s, f"{card.name} waits at the ABS signal: {land.name} is occupied ahead")
        return
    mods = [m for m in (game.catalog.by_id[x] for x in slot.modifiers) if isinstance(m, MainlineModifier)]
    direction: Direction | None = None
    if land.grade and slot.uphill is not None:
        direction = "uphill" if train.heading == slot.uphill else "downhill"
    stages = crossing_stages(land, carries_coach=any(c.type == "coach" for c in train.cars), slow=card.speed == "slow", direction=direction, modifiers=mods)
    train.position = target
    s.serial += 1
    train.sequence = s.serial
    train.remaining = stages - 1
    if ahead and not land.passing:
        leader = max(ahead, key=lambda t: t.sequence)
        if train.remaining < leader.remaining:
            wreck(game, [leader, train], land.name)
            return
    if train.remaining == 0:
        if not office_has_room(game, train, target + step):
            train.remaining = 1  # stands at the end of the card, held at the Limits
            return
        arrive(game, train, target + step)


def office_has_room(game: RulesContext, train: Train, node: int) -> bool:
    """An Office holds as many standing trains as it has A/D tracks. One more
    arriving is a collision, unless a card in the district holds it at the
    Limits until a track frees (``OFFICE_FULL``; then this returns False: it waits)."""
    s = game.state
    slot = s.mainline[node]
    if slot.kind != "office" or slot.player is None:
        return True
    tier = game.catalog.by_id[s.office(slot.player)]
    assert isinstance(tier, OfficeTier)
    standing = [t for t in s.trains if t.position == node and t.remaining == 0 and t is not train]
    if len(standing) < tier.ad_tracks:
        return True
    registry = load_handlers()
    for card in district_enhancements(game, slot.player):
        full = registry.get_handler(OFFICE_FULL, card.effect)
        if full is not None and full(game, train, slot.player, card):
            return False
    wreck(game, [train, standing[-1]], f"player {slot.player}'s {tier.name} ({tier.ad_tracks} A/D track(s), all taken)")
    return False


def arrive(game: RulesContext, train: Train, node: int) -> None:
    s = game.state
    if train not in s.trains:
        return
    train.position = node
    train.remaining = 0
    step = 1 if train.heading == "east" else -1
    if s.mainline[node].kind == "divisionPoint" and not 0 <= node + step < len(s.mainline):
        where = game.catalog.by_id[s.slot_card(s.mainline[node])].name
        deliver(game, train.cars, where)
        turn_round(game, train.cars)
        s.mainline[node].yard.extend(train.cars)
        train.cars = []
        finish(game, train, f"arrives at {where} and ends its run")


def wreck(game: RulesContext, trains: list[Train], where: str) -> None:
    s = game.state
    names = " and ".join(game.catalog.by_id[t.card].name for t in trains)
    for t in trains:
        t.cars = []
        finish(game, t, f"is wrecked on {where}")
    log(s, f"rear-end collision on {where}: {names}")
