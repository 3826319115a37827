"""The rules of a turn: what may be done, every reason it may not, and doing it.

``candidates`` proposes actions, ``reasons`` judges one, ``perform`` carries
out one already judged legal. Card effects are dispatched to the handler
registry by effect id; this module holds only the rules every card shares.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.stationmaster.actions import Action, ChooseGrade, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, RedFlag, SortCars, Spot
from engine.stationmaster.consist import car_label, consist_refusals, make_up, missing_from, parse_car
from engine.stationmaster.district import open_ends, place, placement_candidates, placement_refusals
from engine.stationmaster.geometry import key
from engine.stationmaster.industry import deliver, work_district
from engine.stationmaster.switching import pull_refusals, reachable, train_district
from engine.stationmaster.content.model import (
    Card,
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
from engine.errors import InvalidActionError
from engine.stationmaster.mainline import crossing_stages
from engine.stationmaster.piles import can_draw_from_deck, draw_top, take_from_department
from engine.stationmaster.state import OFFICE_SQUARE, Car, ExtraOrder, GameState, Train

if TYPE_CHECKING:
    from engine.stationmaster.game import Game

HEADINGS = ("east", "west")


def log(state: GameState, message: str) -> None:
    state.log.append(message)


def terrain(game: Game, slot: int) -> MainlineCard:
    card = game.catalog.by_id[game.state.slot_card(game.state.mainline[slot])]
    assert isinstance(card, MainlineCard)
    return card


def hand_limit(game: Game, player: int) -> int:
    """Three, raised while a card that grants a bonus is held; bonuses do not
    stack (the sources say four while you hold a Red Flag, not per flag)."""
    bonus = 0
    for card_id in set(game.state.hands[player]):
        card = game.catalog.by_id[card_id]
        if isinstance(card, Maneuver):
            bonus = max(bonus, card.hand_limit_bonus)
    return game.catalog.game.table.hand_limit + bonus


def discard_refusal(game: Game, card: Card) -> str | None:
    if isinstance(card, TrainCard):
        if card.service == "extra":
            return f"{card.name} is an Extra, and an Extra can never be discarded"
        if not game.rules["discardTimetabled"]:
            return f"{card.name} is a timetabled train; the discardTimetabled house rule is off, so it can only be played"
    return None


def _card(game: Game, card_id: str) -> Card:
    card = game.catalog.by_id.get(card_id)
    if card is None:
        raise InvalidActionError(f"unknown card {card_id!r}")
    return card


def _over_limit(game: Game, player: int) -> bool:
    return len(game.state.hands[player]) > hand_limit(game, player)


def _must_play(game: Game, player: int) -> bool:
    """Over the limit with nothing that may be discarded: playing is the way out."""
    hand = game.state.hands[player]
    return _over_limit(game, player) and all(discard_refusal(game, game.catalog.by_id[c]) for c in hand)


# -- judging ---------------------------------------------------------------


# Maneuvers that are never played as cards but spent by an action of their own.
_SPENT_BY_ACTION = {"red-flag": "redFlag", "flying-switch": "flyingSwitch"}


def _malformed(game: Game, action: Action) -> None:
    """InvalidActionError for input that names nothing real, in any phase:
    an unknown card, a square or slot off the board, a word not in the list."""
    s = game.state
    if not 0 <= action.player < s.players:
        raise InvalidActionError(f"{action}: there is no player {action.player} (players are 0 to {s.players - 1})")
    card = getattr(action, "card", None)
    if isinstance(card, str) and card not in game.catalog.by_id:
        raise InvalidActionError(f"{action}: unknown card {card!r}")
    slot = getattr(action, "slot", None)
    if isinstance(slot, int) and not 0 <= slot < len(s.mainline):
        raise InvalidActionError(f"{action}: there is no Mainline position {slot} (0 to {len(s.mainline) - 1})")
    for name in ("heading", "uphill"):
        value = getattr(action, name, None)
        if value is not None and value not in HEADINGS:
            raise InvalidActionError(f"{action}: {name} must be 'east' or 'west'")
    if isinstance(action, Draw) and action.source != "deck" and action.source not in {str(i + 1) for i in range(len(s.departments))}:
        raise InvalidActionError(f"{action}: source must be 'deck' or a Department number 1 to {len(s.departments)}")
    if isinstance(action, Discard) and not 1 <= action.department <= len(s.departments):
        raise InvalidActionError(f"{action}: department must be 1 to {len(s.departments)}")
    rotation = getattr(action, "rotation", None)
    if rotation not in (None, 0, 180):
        raise InvalidActionError(f"{action}: rotation must be 0 or 180 (a card turns end for end, never over)")
    if isinstance(action, Play) and action.load is not None:
        _chosen_load(game, action)


def _named_cars(game: Game, names: Sequence[str]) -> list[Car]:
    types = [kind for kind, _ in game.catalog.supplies.cars]
    return [parse_car(name, types) for name in names]


def _chosen_load(game: Game, action: Play) -> list[Car] | None:
    """The cars an Extra's load names, or None when the yard is to choose;
    InvalidActionError for a name that is no car."""
    if action.load is None:
        return None
    try:
        return _named_cars(game, action.load)
    except ValueError as exc:
        raise InvalidActionError(f"{action}: load: {exc}") from None


def reasons(game: Game, action: Action) -> list[str]:
    """Every reason ``action`` is refused; input that names nothing real is
    an InvalidActionError, raised once, here, before any rule is asked."""
    s = game.state
    _malformed(game, action)
    if s.phase == "over":
        return ["the game is over"]
    if s.phase == "setup":
        if not isinstance(action, ChooseGrade):
            return [f"setup is not finished: the uphill direction of the Heavy Grade at Mainline position {s.pending_grades[0]} must be chosen first"]
        return _grade_reasons(game, action)
    if isinstance(action, ChooseGrade):
        return ["every grade direction was chosen at setup"]
    found: list[str] = []
    if action.player != s.current:
        found.append(f"it is player {s.current}'s turn, not player {action.player}'s")
    if isinstance(action, Draw):
        found += _draw_reasons(game, action)
    elif isinstance(action, Discard):
        found += _discard_reasons(game, action)
    elif isinstance(action, Play):
        found += _play_reasons(game, action)
    elif isinstance(action, EndTurn):
        hand, limit = len(s.hands[action.player]), hand_limit(game, action.player)
        if hand > limit:
            found.append(f"the hand holds {hand} cards and the limit is {limit}: play or discard before ending the turn")
    elif isinstance(action, RedFlag):
        found += _effect_action_reasons(game, action)
    elif isinstance(action, SortCars):
        found += _move_budget_reasons(game)
        if list(action.order) == sorted(action.order):
            found.append("that order is the order the cars are already in")
        found += _effect_action_reasons(game, action)
    elif isinstance(action, (Spot, Pull)):
        found += _switch_reasons(game, action)
    elif isinstance(action, FlyingSwitch):
        made = load_handlers().get("flying-switch")
        found += made.refusals(game, action, None) if made is not None else ["the flying-switch effect is not built yet"]
    elif isinstance(action, Hold):
        found += _hold_reasons(game, action)
    if s.turn.switched and isinstance(action, (Draw, Play)):
        found.append("this turn took the Switch option, so it cannot also draw or play")
    return found


def _train(game: Game, train_id: str) -> Train:
    for train in game.state.trains:
        if train.id == train_id:
            return train
    raise InvalidActionError(f"there is no train {train_id!r} on the Mainline")


def _switch_reasons(game: Game, action: Spot | Pull) -> list[str]:
    s = game.state
    train = _train(game, action.train)
    card = game.catalog.by_id[train.card]
    assert isinstance(card, TrainCard)
    district = train_district(game, train)
    found = _move_budget_reasons(game)
    if district is None or district.player != action.player:
        return found + [f"{card.name} is not standing at player {action.player}'s Office"]
    if "mayNotSwitch" in card.restrictions:
        return found + [f"{card.name} 'may not switch'"]
    where = key(action.x, action.y)
    if where not in district.squares:
        return found + [f"there is no rail at ({action.x}, {action.y})"]
    if where not in reachable(game, district):
        found.append(f"({action.x}, {action.y}) cannot be reached from the Office (no joined rail, a turnout to stop on, or standing cars in the way)")
        return found
    square = district.squares[where]
    if isinstance(action, Spot):
        low = 0 if action.caboose else 1
        if not low <= action.cars <= len(train.cars):
            found.append(f"{card.name} has {len(train.cars)} car(s) to set out, not {action.cars}")
        if action.caboose and not train.caboose:
            found.append(f"{card.name} has no caboose to set out")
        room = game.catalog.game.table.cars_per_track
        if len(square.cars) + action.cars > room:
            found.append(f"a track holds {room} cars, and {len(square.cars)} already stand there")
        if square.caboose_of:
            found.append("a caboose stands there")
        # A caboose set out alone on an empty track can always be taken back
        # (Pull); with cars, or behind cars, a drop-only train could not.
        if action.caboose and action.cars:
            found.append("a caboose is set out on its own: set the cars out first, then the caboose")
        if action.caboose and square.cars:
            found.append(f"a caboose is set out only on an empty track, and {len(square.cars)} car(s) stand there")
        if s.set_out_caboose(train.id) is not None:
            found.append(f"{card.name}'s caboose stands in the district: it takes it back before it sets out more")
    else:
        found += pull_refusals(game, train, card, district, where)
    return found


def _move_budget_reasons(game: Game) -> list[str]:
    """Switching moves (and sorting cars) are the Switch option of Local
    Operations, a limited number a turn."""
    s = game.state
    if s.turn.drawn or s.turn.played:
        return ["switching is the Switch option of Local Operations; this turn has already " + ("drawn" if s.turn.drawn else "played")]
    if s.turn.switched and s.moves_left <= 0:
        return [f"the Switch option allows {game.catalog.game.table.switch_moves} moves a turn, and they are used"]
    return []


def _use_move(game: Game) -> None:
    s = game.state
    if not s.turn.switched:
        s.turn.switched = True
        s.moves_left = game.catalog.game.table.switch_moves
    s.moves_left -= 1


def _hold_reasons(game: Game, action: Hold) -> list[str]:
    train = _train(game, action.train)
    found = []
    if train.player != action.player:
        found.append("only the player who played an Extra may hold it")
    if train_district(game, train) is None:
        found.append("a train is held at an Office, and this one is not standing at one")
    if train.held:
        found.append("that train is already held")
    return found


def _grade_reasons(game: Game, action: ChooseGrade) -> list[str]:
    s = game.state
    found = []
    if action.player != 0:
        found.append("the Mainline is placed by player 0, who chooses its grades")
    if action.slot not in s.pending_grades:
        found.append(f"Mainline position {action.slot} has no grade waiting for a direction")
    return found


def _draw_reasons(game: Game, action: Draw) -> list[str]:
    s = game.state
    found = []
    if s.turn.drawn or s.turn.played:
        found.append("Draw is a Local Operations option taken at the start of a turn, and this turn has already " + ("drawn" if s.turn.drawn else "played"))
    if action.source == "deck":
        if not can_draw_from_deck(s):
            found.append("the Home Office deck is empty and there is nothing to rebuild it from")
    elif not s.departments[int(action.source) - 1]:  # _malformed has checked the number
        found.append(f"Department {action.source} is empty")
    return found


def _discard_reasons(game: Game, action: Discard) -> list[str]:
    s = game.state
    card = _card(game, action.card)
    found = []
    if action.card not in s.hands[action.player]:
        found.append(f"{card.name} is not in player {action.player}'s hand")
    why = discard_refusal(game, card)
    if why:
        found.append(why)
    if not _over_limit(game, action.player) and not (s.turn.drawn and not s.turn.played and not s.turn.discarded):
        found.append("a discard follows a Draw (draw, then play or discard), or brings a hand over the limit back down")
    return found


def _play_reasons(game: Game, action: Play) -> list[str]:
    s = game.state
    card = _card(game, action.card)
    p = action.player
    found = []
    if action.card not in s.hands[p]:
        found.append(f"{card.name} is not in player {p}'s hand")
    if s.turn.played and not _must_play(game, p):
        found.append("a card has already been played this turn")
    if s.turn.discarded and not _over_limit(game, p):
        found.append("this turn's Draw was followed by a discard, which ends what the turn may do")
    found += card_play_reasons(game, card, action)
    if action.load is not None and not (isinstance(card, TrainCard) and card.service == "extra"):
        found.append(f"only an Extra is given a load when it is played, not {card.name}")
    return found


def card_play_reasons(game: Game, card: Card, action: Play) -> list[str]:
    """Why this card cannot be played this way now, by kind of card."""
    s = game.state
    if isinstance(card, OpponentCard):
        kind = "Action" if card.category == "action" else "Space-use"
        return [f"{card.name} is an opponent-directed {kind} card: its play rules are not built, and no deck deals it"]
    if isinstance(card, MainlineCard):
        return [f"{card.name} is a Mainline card: setup deals it onto the Mainline; it is never held or played from a hand"]
    if isinstance(card, Maneuver) and card.effect in _SPENT_BY_ACTION and card.effect in load_handlers():
        return [f"{card.name} is held, and spent with its own action ({_SPENT_BY_ACTION[card.effect]}), not played"]
    if isinstance(card, OfficeTier):
        ladder = list(game.ladder())
        current = s.office(action.player)
        if card.id not in ladder or ladder.index(card.id) != ladder.index(current) + 1:
            have = game.catalog.by_id[current].name
            return [f"an Office upgrades one tier at a time: player {action.player}'s Office is a {have}, so {card.name} cannot be played on it"]
        return []
    if isinstance(card, TrainCard) and card.service == "timetabled":
        if all(slot is not None for slot in s.timetable):
            return ["every timetable slot is taken"]
        return []
    if isinstance(card, TrainCard):
        return _extra_start_reasons(game, card, action)
    effect = getattr(card, "effect", None)
    made = load_handlers().get(effect) if isinstance(effect, str) else None
    if isinstance(effect, str) and made is None:
        summary = game.catalog.effects[effect].summary
        return [f"{card.name}'s effect ({effect}: {summary}) is not built yet"]
    found: list[str] = []
    if isinstance(card, (TrackShape, Facility, FacilityModifier)) or (isinstance(card, Enhancement) and card.placement == "district"):
        found += placement_refusals(game, action.player, card, action.x, action.y, action.rotation)
    if made is not None and not (isinstance(card, Enhancement) and card.placement == "district"):
        # A district Enhancement's handler runs later, where its rule applies;
        # playing the card is only placing it.
        found += made.refusals(game, action, card)
    return found


def _extra_start_reasons(game: Game, card: TrainCard, action: Play) -> list[str]:
    s = game.state
    if action.slot is None or action.heading is None:
        return [f"{card.name} is an Extra: say where it starts (slot) and which way it heads (heading)"]
    slot = s.mainline[action.slot]
    found = []
    rule = game.rules["extraStart"]
    is_interchange = slot.kind == "terrain" and terrain(game, action.slot).yard
    if slot.kind == "divisionPoint" or is_interchange:
        pass
    elif slot.kind == "office" and slot.player is not None and _has_enhancement(game, slot.player, "division-yard"):
        pass  # a Division Yard lets its Office make up Extras whatever the house rule
    elif slot.kind == "office":
        if rule == "divisionPointsOnly":
            found.append("house rule extraStart is divisionPointsOnly: an Extra starts at a Division Point (or the Interchange)")
        elif rule == "ownOffice" and slot.player != action.player:
            found.append(f"house rule extraStart is ownOffice: player {action.player} may start an Extra at their own Office, not district {slot.player}'s")
    else:
        found.append(f"{terrain(game, action.slot).name} has no yard to make up a train in")
    step = 1 if action.heading == "east" else -1
    if not 0 <= action.slot + step < len(s.mainline):
        found.append(f"heading {action.heading} from there runs off the end of the Mainline")
    chosen = _chosen_load(game, action)
    if chosen is not None:
        found += consist_refusals(card, chosen, card.caboose, game.catalog.game.table.crew_tray_pieces)
        missing = missing_from(slot.yard, chosen)
        if missing:
            where = "an Office keeps no cars of its own, so an Extra made up there leaves light" if slot.kind == "office" else f"the yard at {game.catalog.by_id[s.slot_card(slot)].name} does not hold them now"
            found.append(f"the load names {', '.join(car_label(c) for c in missing)}, and {where}")
    return found


def _has_enhancement(game: Game, player: int, effect: str) -> bool:
    for square in game.state.districts[player].squares.values():
        if square.enhancement:
            card = game.catalog.by_id[square.enhancement]
            if isinstance(card, Enhancement) and card.effect == effect and effect in load_handlers():
                return True
    return False


def _sort_effect(game: Game, action: SortCars) -> str:
    """On the Interchange the card's sort-cars; at an Office, the district's Small Yard."""
    train = next((t for t in game.state.trains if t.id == action.train), None)
    if train is not None:
        district = train_district(game, train)
        if district is not None and _has_enhancement(game, district.player, "small-yard"):
            return "small-yard"
    return "sort-cars"


def _effect_action_reasons(game: Game, action: RedFlag | SortCars) -> list[str]:
    effect = "red-flag" if isinstance(action, RedFlag) else _sort_effect(game, action)
    made = load_handlers().get(effect)
    if made is None:
        return [f"the {effect} effect is not built yet"]
    return made.refusals(game, action, None)


# -- proposing ---------------------------------------------------------------


def candidates(game: Game) -> list[Action]:
    s = game.state
    if s.phase == "over":
        return []
    if s.phase == "setup":
        return [ChooseGrade(0, slot=i, uphill=h) for i in s.pending_grades[:1] for h in HEADINGS]
    p = s.current
    found: list[Action] = []
    # Propose only what this point of the turn can allow; check() still judges
    # every proposal, so this is a shortcut, not a second copy of the rules.
    if not (s.turn.drawn or s.turn.played):
        found.append(Draw(p, "deck"))
        found += [Draw(p, str(i + 1)) for i in range(len(s.departments))]
    over = _over_limit(game, p)
    may_discard = over or (s.turn.drawn and not s.turn.played and not s.turn.discarded)
    may_play = not s.turn.played or _must_play(game, p)
    ends = open_ends(game, s.districts[p]) if may_play else set()
    for card_id in sorted(set(s.hands[p])):
        card = game.catalog.by_id[card_id]
        if may_discard:
            found += [Discard(p, card_id, d + 1) for d in range(len(s.departments))]
        if may_play:
            found += _play_proposals(game, p, card, ends)
        if isinstance(card, Maneuver) and card.effect == "red-flag":
            found += [RedFlag(p, train=t.id) for t in s.trains]
    for t in s.trains if not (s.turn.drawn or s.turn.played) else ():
        slot = s.mainline[t.position]
        at_interchange = slot.kind == "terrain" and terrain(game, t.position).yard
        in_yard = slot.kind == "office" and slot.player == p and t.remaining == 0
        if (at_interchange or in_yard) and len(t.cars) > 1:
            found.append(SortCars(p, train=t.id, order=tuple(reversed(range(len(t.cars))))))
    if not (s.turn.drawn or s.turn.played):
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
            if "flying-switch" in s.hands[p] and t.cars:
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


# -- doing -------------------------------------------------------------------


def perform(game: Game, action: Action) -> None:
    s = game.state
    if isinstance(action, ChooseGrade):
        s.mainline[action.slot].uphill = action.uphill  # type: ignore[assignment]
        s.pending_grades.remove(action.slot)
        log(s, f"player 0 sets the Heavy Grade at position {action.slot} to climb {action.uphill}ward")
        if not s.pending_grades:
            s.phase = "local"
    elif isinstance(action, Draw):
        if action.source == "deck":
            card_id = draw_top(s, game.rng)
            assert card_id is not None
        else:
            card_id = take_from_department(s, game.rng, int(action.source) - 1)
        s.hands[action.player].append(card_id)
        s.turn.drawn = True
    elif isinstance(action, Discard):
        s.hands[action.player].remove(action.card)
        s.departments[action.department - 1].append(action.card)
        s.turn.discarded = True
    elif isinstance(action, Play):
        _perform_play(game, action)
    elif isinstance(action, (RedFlag, SortCars)):
        effect = "red-flag" if isinstance(action, RedFlag) else _sort_effect(game, action)
        if isinstance(action, SortCars):
            _use_move(game)
        load_handlers()[effect](game, action, None)
    elif isinstance(action, (Spot, Pull)):
        _perform_switch(game, action)
    elif isinstance(action, FlyingSwitch):
        _use_move(game)
        load_handlers()["flying-switch"](game, action, None)
    elif isinstance(action, Hold):
        train = _train(game, action.train)
        train.held += 1
        log(s, f"{game.catalog.by_id[train.card].name} is held at the Office through the next Mainline Phase")
    elif isinstance(action, EndTurn):
        work_district(game, action.player)
        _end_turn(game)


def _perform_switch(game: Game, action: Spot | Pull) -> None:
    s = game.state
    _use_move(game)
    train = _train(game, action.train)
    district = train_district(game, train)
    assert district is not None
    square = district.squares[key(action.x, action.y)]
    name = game.catalog.by_id[train.card].name
    if isinstance(action, Spot):
        if action.cars:
            moved = train.cars[-action.cars :]
            train.cars = train.cars[: -action.cars]
            square.cars.extend(moved)
        if action.caboose:
            train.caboose = False
            square.caboose_of = train.id
        log(s, f"{name} sets out {action.cars} car(s){' and its caboose' if action.caboose else ''} at ({action.x}, {action.y})")
    else:
        train.cars.extend(square.cars)
        log(s, f"{name} couples {len(square.cars)} car(s) at ({action.x}, {action.y})")
        square.cars = []
        if square.caboose_of == train.id:
            square.caboose_of = None
            train.caboose = True


def _perform_play(game: Game, action: Play) -> None:
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
        if start.kind == "office" and start.player is not None and _has_enhancement(game, start.player, "division-yard"):
            load_handlers()["division-yard"](game, action, card)
        s.extras_queue.append(ExtraOrder(card.id, action.player, action.slot, action.heading, action.load))  # type: ignore[arg-type]
        log(s, f"{card.name} is queued to start at position {action.slot}, heading {action.heading}")
    else:
        effect = getattr(card, "effect", None)
        assert isinstance(effect, str)
        load_handlers()[effect](game, action, card)


def _end_turn(game: Game) -> None:
    s = game.state
    s.turn = type(s.turn)()
    s.current += 1
    if s.current < s.players:
        return
    s.current = 0
    mainline_phase(game)
    s.second_sections = []
    if s.stage == game.catalog.game.table.stages_per_day and s.day == game.catalog.game.table.game_days:
        s.phase = "over"
        log(s, f"the game ends after {game.catalog.game.table.game_days} Days; scores {s.scores}")
        return
    s.stage += 1
    if s.stage > game.catalog.game.table.stages_per_day:
        s.stage = 1
        s.day += 1
    log(s, f"Day {s.day}, Stage {s.stage}")


# -- the Mainline Phase --------------------------------------------------------


def mainline_phase(game: Game) -> None:
    s = game.state
    due = s.timetable[s.stage - 1]
    if due is not None:
        card = game.catalog.by_id[due]
        assert isinstance(card, TrainCard)
        heading = "east" if int(card.number) % 2 == 1 else "west"
        start = 0 if heading == "east" else len(s.mainline) - 1
        _depart(game, card, None, start, heading, f"{due}/d{s.day}")
        if due in s.second_sections:
            _depart(game, card, None, start, heading, f"{due}/d{s.day}/2")
    while s.extras_queue and s.crew_trays_free > 0:
        order = s.extras_queue.pop(0)
        card = game.catalog.by_id[order.card]
        assert isinstance(card, TrainCard)
        chosen = None if order.load is None else _named_cars(game, order.load)
        _depart(game, card, order.player, order.start, order.heading, order.card, chosen)
    for train in list(s.trains):
        if train in s.trains:
            before = (train.position, train.remaining)
            _move(game, train)
            train.moved = (train.position, train.remaining) != before
    for train in list(s.trains):
        card = game.catalog.by_id[train.card]
        district = train_district(game, train)
        if isinstance(card, TrainCard) and card.effect == "pays-for-stopping" and not train.moved and district is not None:
            made = load_handlers().get("pays-for-stopping")
            if made is not None:
                made(game, train, district)


def _depart(game: Game, card: TrainCard, player: int | None, start: int, heading: str, train_id: str, chosen: list[Car] | None = None) -> None:
    s = game.state
    if s.crew_trays_free <= 0:
        log(s, f"{card.name} cannot run: no Crew Tray is free")
        return
    slot = s.mainline[start]
    name = game.catalog.by_id[s.slot_card(slot)].name
    cars, short = make_up(card, slot.yard, name, game.catalog.game.table.crew_tray_pieces, chosen)
    caboose = card.caboose and s.cabooses_free > 0
    if card.caboose and not caboose:
        short = (short + "; " if short else "") + f"{card.name} left without its caboose: none was free"
    s.crew_trays_free -= 1
    if caboose:
        s.cabooses_free -= 1
    s.serial += 1
    s.trains.append(Train(train_id, card.id, player, heading, start, cars, caboose, sequence=s.serial))  # type: ignore[arg-type]
    log(s, f"{card.name} departs {name} heading {heading} with {len(cars)} car(s)")
    if short:
        log(s, short)


def _finish(game: Game, train: Train, where: str) -> None:
    s = game.state
    s.trains.remove(train)
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


def _move(game: Game, train: Train) -> None:
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
            if not _office_has_room(game, train, train.position + step):
                train.remaining = 1  # stands at the end of the card, held at the Limits
                return
            _arrive(game, train, train.position + step)
        return
    target = train.position + step
    if not 0 <= target < len(s.mainline):
        _finish(game, train, "ends its run")
        return
    slot = s.mainline[target]
    if slot.kind != "terrain":  # an Office or a Division Point straight ahead
        if not _office_has_room(game, train, target):
            return
        _arrive(game, train, target)
        return
    land = terrain(game, target)
    card = game.catalog.by_id[train.card]
    assert isinstance(card, TrainCard)
    on_card = [t for t in s.trains if t.position == target and t.remaining > 0]
    if any(t.heading != train.heading for t in on_card) and not land.passing:
        log(s, f"{card.name} waits: an opposing train holds the single track of {land.name}")
        return
    ahead = [t for t in on_card if t.heading == train.heading]
    if ahead and slot.abs_signals and not land.passing:
        log(s, f"{card.name} waits at the ABS signal: {land.name} is occupied ahead")
        return
    mods = [m for m in (game.catalog.by_id[x] for x in slot.modifiers) if isinstance(m, MainlineModifier)]
    direction = None
    if land.grade and slot.uphill is not None:
        direction = "uphill" if train.heading == slot.uphill else "downhill"
    stages = crossing_stages(land, carries_coach=any(c.type == "coach" for c in train.cars), slow=card.speed == "slow", direction=direction, modifiers=mods)  # type: ignore[arg-type]
    train.position = target
    s.serial += 1
    train.sequence = s.serial
    train.remaining = stages - 1
    if ahead and not land.passing:
        leader = max(ahead, key=lambda t: t.sequence)
        if train.remaining < leader.remaining:
            _wreck(game, [leader, train], land.name)
            return
    if train.remaining == 0:
        if not _office_has_room(game, train, target + step):
            train.remaining = 1  # stands at the end of the card, held at the Limits
            return
        _arrive(game, train, target + step)


def _office_has_room(game: Game, train: Train, node: int) -> bool:
    """An Office holds as many standing trains as it has A/D tracks. One more
    arriving is a collision, unless the district's Interlocking holds it at
    the Limits until a track frees (then this returns False: it waits)."""
    s = game.state
    slot = s.mainline[node]
    if slot.kind != "office" or slot.player is None:
        return True
    tier = game.catalog.by_id[s.office(slot.player)]
    assert isinstance(tier, OfficeTier)
    standing = [t for t in s.trains if t.position == node and t.remaining == 0 and t is not train]
    if len(standing) < tier.ad_tracks:
        return True
    if _has_enhancement(game, slot.player, "interlocking"):
        load_handlers()["interlocking"](game, train, slot.player)
        return False
    _wreck(game, [train, standing[-1]], f"player {slot.player}'s {tier.name} ({tier.ad_tracks} A/D track(s), all taken)")
    return False


def _arrive(game: Game, train: Train, node: int) -> None:
    s = game.state
    if train not in s.trains:
        return
    train.position = node
    train.remaining = 0
    step = 1 if train.heading == "east" else -1
    if s.mainline[node].kind == "divisionPoint" and not 0 <= node + step < len(s.mainline):
        where = game.catalog.by_id[s.slot_card(s.mainline[node])].name
        deliver(game, train.cars, where)
        s.mainline[node].yard.extend(train.cars)
        train.cars = []
        _finish(game, train, f"arrives at {where} and ends its run")


def _wreck(game: Game, trains: list[Train], where: str) -> None:
    s = game.state
    names = " and ".join(game.catalog.by_id[t.card].name for t in trains)
    for t in trains:
        t.cars = []
        _finish(game, t, f"is wrecked on {where}")
    log(s, f"rear-end collision on {where}: {names}")
