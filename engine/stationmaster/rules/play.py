"""Playing a card from the hand: every reason it may not be played, and
playing it. Cards the rules know by kind (track, Facilities, Office tiers,
trains, district Enhancements) are placed or queued here; any other card's
effect is raised as ``CARD_PLAYED`` for its handler."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason, reasons_from
from engine.stationmaster.content.model import (
    Card,
    Enhancement,
    Facility,
    FacilityModifier,
    MainlineCard,
    OfficeTier,
    OpponentCard,
    TrackShape,
    TrainCard,
)
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.actions import Play
from engine.stationmaster.rules.consist import car_label, consist_refusals, missing_from
from engine.stationmaster.rules.district import place, placement_refusals
from engine.stationmaster.rules.events import CARD_PLAYED, EXTRA_MADE_UP, PLAY_REFUSALS
from engine.stationmaster.rules.hand import card as known_card
from engine.stationmaster.rules.hand import from_hand_reasons
from engine.stationmaster.rules.held import spent_by
from engine.stationmaster.rules.inputs import as_heading, chosen_load
from engine.stationmaster.rules.lasting import line_closed
from engine.stationmaster.rules.lookups import district_enhancements, effect_of, log, terrain
from engine.stationmaster.rules.response import play_refusal
from engine.stationmaster.rules.state import OFFICE_SQUARE, ExtraOrder
from engine.stationmaster.rules.yards import cars_for, has_yard

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def _yards(game: RulesContext) -> str:
    """The terrain cards with a yard of their own, by name ("the Interchange")."""
    names = sorted({c.name for c in game.catalog.of_type(MainlineCard) if c.role == "terrain" and c.yard})
    return " or ".join(f"the {name}" for name in names) or "no terrain card"


def play_reasons(game: RulesContext, action: Play) -> list[Reason]:
    card = known_card(game, action.card)
    return from_hand_reasons(game, action.player, card) + played_card_reasons(game, card, action)


def played_card_reasons(game: RulesContext, card: Card, action: Play, *, verdict: bool = False) -> list[Reason]:
    """Every reason ``play_reasons`` finds beyond ``from_hand_reasons``: those
    of this card, played this way, now. Apart so that a verdict which asked
    ``from_hand_reasons`` first (the usual refusal) need not ask it again.
    With ``verdict``, the answer may stop at the first reasons found."""
    s = game.state
    found: list[Reason] = []
    if card.play_option == "draw" and not s.turn.drawn:
        found.append(Reason("draw-option-only", f"{card.name} is played only during the Draw option: draw a card this turn, then play it"))
        if verdict:
            return found
    found += card_play_reasons(game, card, action, verdict=verdict)
    if verdict and found:
        return found
    if action.load is not None and not (isinstance(card, TrainCard) and card.service == "extra"):
        found.append(Reason("load-only-for-extras", f"only an Extra is given a load when it is played, not {card.name}"))
    return found


def _placed_in_district(card: Card) -> bool:
    return isinstance(card, (TrackShape, Facility, FacilityModifier)) or (isinstance(card, Enhancement) and card.placement == "district")


def card_play_reasons(game: RulesContext, card: Card, action: Play, *, verdict: bool = False) -> list[Reason]:
    """Why this card cannot be played this way now, by kind of card. With
    ``verdict``, only whether it can: the answer may stop at the first
    reasons found (reasons the full answer gives too)."""
    s = game.state
    if isinstance(card, OpponentCard):
        return [play_refusal(card)]  # played with the attack action, or answered with (engine.stationmaster.rules.response)
    if isinstance(card, MainlineCard):
        return [Reason("mainline-card", f"{card.name} is a Mainline card: setup deals it onto the Mainline; it is never held or played from a hand")]
    # Only a card that carries an effect can be spent by an action of its own.
    spending = spent_by(game, card) if getattr(card, "effect", None) is not None else None
    if spending is not None:
        return [Reason("spent-by-action", f"{card.name} is held, and spent with its own action ({spending.kind}), not played")]
    if isinstance(card, OfficeTier):
        ladder = list(game.ladder())
        current = s.office(action.player)
        if card.id not in ladder or ladder.index(card.id) != ladder.index(current) + 1:
            have = game.catalog.by_id[current].name
            return [Reason("office-tier-order", f"an Office upgrades one tier at a time: player {action.player}'s Office is a {have}, so {card.name} cannot be played on it")]
        return []
    if isinstance(card, TrainCard) and card.service == "timetabled":
        if all(slot is not None for slot in s.timetable):
            return [Reason("timetable-full", "every timetable slot is taken")]
        return []
    if isinstance(card, TrainCard):
        return _extra_start_reasons(game, card, action)
    effect = effect_of(card)
    registry = load_handlers()
    if effect is not None and effect not in registry:
        summary = game.catalog.effects[effect].summary
        return [Reason("effect-unbuilt", f"{card.name}'s effect ({effect}: {summary}) is not built yet")]
    found: list[Reason] = []
    placed = _placed_in_district(card)
    if placed:
        found += reasons_from("placement", placement_refusals(game, action.player, card, action.x, action.y, action.rotation, verdict=verdict))
        if verdict and found:
            return found
    if not placed and registry.get_handler(CARD_PLAYED, effect) is None:
        return [Reason("not-played-from-hand", f"{card.name} is not played from the hand: its effect ({effect}) acts in another way")]
    refuse = registry.get_handler(PLAY_REFUSALS, effect)
    if refuse is not None and not (isinstance(card, Enhancement) and card.placement == "district"):
        # A district Enhancement's handlers run later, where its rule applies;
        # playing the card is only placing it.
        found += reasons_from(f"effect:{effect}", refuse(game, action, card))
    return found


def office_yard(game: RulesContext, player: int) -> Card | None:
    """The card in ``player``'s district that lets its Office make up Extras as
    a Division Point does, if any."""
    registry = load_handlers()
    return next((c for c in district_enhancements(game, player) if registry.get_handler(EXTRA_MADE_UP, c.effect)), None)


def _extra_start_reasons(game: RulesContext, card: TrainCard, action: Play) -> list[Reason]:
    s = game.state
    if action.slot is None or action.heading is None:
        return [Reason("extra-needs-start", f"{card.name} is an Extra: say where it starts (slot) and which way it heads (heading)")]
    slot = s.mainline[action.slot]
    found: list[Reason] = []
    rule = game.rules["extraStart"]
    is_interchange = slot.kind == "terrain" and terrain(game, action.slot).yard
    if slot.kind == "divisionPoint" or is_interchange:
        pass
    elif slot.kind == "office" and slot.player is not None and office_yard(game, slot.player) is not None:
        pass  # the district's card lets its Office make up Extras whatever the house rule
    elif slot.kind == "office":
        if rule == "divisionPointsOnly":
            found.append(Reason("extra-start-house-rule", f"house rule extraStart is divisionPointsOnly: an Extra starts at a Division Point (or {_yards(game)})"))
        elif rule == "ownOffice" and slot.player != action.player:
            found.append(Reason("extra-start-house-rule", f"house rule extraStart is ownOffice: player {action.player} may start an Extra at their own Office, not district {slot.player}'s"))
    else:
        found.append(Reason("no-yard", f"{terrain(game, action.slot).name} has no yard to make up a train in"))
    closed = line_closed(game, action.slot)  # a train made up on a card enters it
    if closed is not None:
        found.append(Reason("line-closed", f"{card.name} cannot be made up there: {closed}"))
    step = 1 if action.heading == "east" else -1
    if not 0 <= action.slot + step < len(s.mainline):
        found.append(Reason("runs-off-the-mainline", f"heading {action.heading} from there runs off the end of the Mainline"))
    chosen = chosen_load(game, action)
    if chosen is not None:
        found += reasons_from("consist", consist_refusals(card, chosen, card.caboose, game.catalog.game.table.crew_tray_pieces))
        missing = missing_from(cars_for(game, action.slot), chosen)
        if missing:
            keeps_none = not has_yard(game, action.slot)
            where = (
                "an Office keeps no cars of its own, so an Extra made up there leaves light" if keeps_none else f"the yards {game.catalog.by_id[s.slot_card(slot)].name} draws on do not hold them now"
            )
            code = "office-keeps-no-cars" if keeps_none else "load-not-in-yard"
            found.append(Reason(code, f"the load names {', '.join(car_label(c) for c in missing)}, and {where}"))
    return found


def perform_play(game: RulesContext, action: Play) -> None:
    s = game.state
    card = game.catalog.by_id[action.card]
    s.hands[action.player].remove(action.card)
    s.turn.played = True
    if isinstance(card, (TrackShape, Facility)):
        assert action.x is not None and action.y is not None
        place(game, action.player, card, action.x, action.y, action.rotation or 0)
    elif isinstance(card, OfficeTier):
        s.office_cards[action.player].append(card.id)
        s.districts[action.player].squares[OFFICE_SQUARE].card = card.id
        log(s, f"player {action.player}'s Office is upgraded to a {card.name}")
    elif isinstance(card, TrainCard) and card.service == "timetabled":
        roll = game.rng.roll(game.catalog.game.table.die_sides)
        slots = len(s.timetable)
        for offset in range(slots):
            index = (roll - 1 + offset) % slots
            if s.timetable[index] is None:
                s.timetable[index] = card.id
                log(s, f"{card.name}: the D{game.catalog.game.table.die_sides} shows {roll}; it runs at Stage {index + 1} every Day")
                break
    elif isinstance(card, Enhancement) and card.placement == "district":
        assert action.x is not None and action.y is not None
        place(game, action.player, card, action.x, action.y, 0)
    elif isinstance(card, TrainCard):
        assert action.slot is not None and action.heading is not None
        start = s.mainline[action.slot]
        yard = office_yard(game, start.player) if start.kind == "office" and start.player is not None else None
        if yard is not None:
            made_up = load_handlers().get_handler(EXTRA_MADE_UP, effect_of(yard))
            assert made_up is not None
            made_up(game, action, yard)
        # Each play is a new run, and its train takes the card's id again
        # (mainline_phase.depart): a stop paid on an earlier run is forgotten.
        for district in s.districts:
            if card.id in district.paid_stops:
                district.paid_stops.remove(card.id)
        s.extras_queue.append(ExtraOrder(card.id, action.player, action.slot, as_heading(action.heading), action.load))
        log(s, f"{card.name} is queued to start at position {action.slot}, heading {action.heading}")
    else:
        played = load_handlers().get_handler(CARD_PLAYED, effect_of(card))
        assert played is not None, f"{card.id} was judged playable, but no handler plays it"
        played(game, action, card)
