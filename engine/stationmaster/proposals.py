"""Proposing actions: what this point of the turn could allow. ``check`` still
judges every proposal, so this is a shortcut, not a second copy of the rules.
The order of the proposals is part of the game (a seeded bot picks from it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.actions import Action, ChooseGrade, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, RedFlag, SortCars, Spot
from engine.stationmaster.content.model import Card, Enhancement, Facility, FacilityModifier, MainlineModifier, SecondSection, TrackShape, TrainCard
from engine.stationmaster.district import open_ends, placement_candidates
from engine.stationmaster.hand import must_play, over_limit
from engine.stationmaster.held import held_card, spent_by
from engine.stationmaster.inputs import HEADINGS
from engine.stationmaster.lookups import terrain
from engine.stationmaster.response import answering, attack_candidates, response_candidates
from engine.stationmaster.switching import reachable, train_district

if TYPE_CHECKING:
    from engine.stationmaster.game import Game


def candidates(game: Game) -> list[Action]:
    s = game.state
    if s.phase == "over":
        return []
    if s.phase == "setup":
        return [ChooseGrade(0, slot=i, uphill=h) for i in s.pending_grades[:1] for h in HEADINGS]
    if answering(s) is not None:
        return response_candidates(game)
    p = s.current
    found: list[Action] = []
    if not (s.turn.drawn or s.turn.played):
        found.append(Draw(p, "deck"))
        found += [Draw(p, str(i + 1)) for i in range(len(s.departments))]
    over = over_limit(game, p)
    may_discard = over or (s.turn.drawn and not s.turn.played and not s.turn.discarded)
    may_play = not s.turn.played or must_play(game, p)
    ends = open_ends(game, s.districts[p]) if may_play else set()
    for card_id in sorted(set(s.hands[p])):
        card = game.catalog.by_id[card_id]
        if may_discard:
            found += [Discard(p, card_id, d + 1) for d in range(len(s.departments))]
        if may_play:
            found += _play_proposals(game, p, card, ends)
            found += attack_candidates(game, p, card)
        if s.trains and getattr(card, "effect", None) is not None and spent_by(game, card) is RedFlag:
            found += [RedFlag(p, train=t.id) for t in s.trains]
    for t in s.trains if not (s.turn.drawn or s.turn.played) else ():
        slot = s.mainline[t.position]
        at_interchange = slot.kind == "terrain" and terrain(game, t.position).yard
        in_yard = slot.kind == "office" and slot.player == p and t.remaining == 0
        if (at_interchange or in_yard) and len(t.cars) > 1:
            found.append(SortCars(p, train=t.id, order=tuple(reversed(range(len(t.cars))))))
    if not (s.turn.drawn or s.turn.played):
        kicks = held_card(game, p, FlyingSwitch) is not None
        for t in s.trains:
            district = train_district(game, t)
            if district is None or district.player != p:
                continue
            for where in sorted(reachable(game, district)):
                x, y = (int(v) for v in where.split(","))
                # every count of rear cars, and the caboose (alone) if it has one
                found += [Spot(p, train=t.id, x=x, y=y, cars=n) for n in range(1, len(t.cars) + 1)]
                if t.caboose:
                    found.append(Spot(p, train=t.id, x=x, y=y, cars=0, caboose=True))
                found.append(Pull(p, train=t.id, x=x, y=y))
            if t.player == p:
                found.append(Hold(p, train=t.id))
            if kicks and t.cars:
                for where in sorted(reachable(game, district, kick=True)):
                    x, y = (int(v) for v in where.split(","))
                    found.append(FlyingSwitch(p, train=t.id, x=x, y=y))
    found.append(EndTurn(p))
    return found


def _play_proposals(game: Game, p: int, card: Card, ends: set[tuple[int, int]]) -> list[Action]:
    """The ways worth proposing to play ``card``: where it could go, by kind."""
    s = game.state
    if isinstance(card, TrainCard) and card.service == "extra":
        return [Play(p, card.id, slot=i, heading=h) for i in range(len(s.mainline)) for h in HEADINGS]
    if isinstance(card, MainlineModifier) or (isinstance(card, Enhancement) and card.placement == "mainline"):
        return [Play(p, card.id, slot=i) for i, slot in enumerate(s.mainline) if slot.kind == "terrain"]
    if isinstance(card, SecondSection):
        due = s.timetable[s.stage - 1]
        return [Play(p, card.id, train=due)] if due is not None else []
    if isinstance(card, (TrackShape, Facility, FacilityModifier)) or (isinstance(card, Enhancement) and card.placement == "district"):
        return [Play(p, card.id, x=x, y=y, rotation=r) for x, y, r in placement_candidates(game, p, card, ends)]
    return [Play(p, card.id)]
