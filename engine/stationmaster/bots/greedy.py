"""The greedy bot's heuristic: a fixed rank for every action it may take.

``greedy_value(game, action)`` ranks one proposed action (higher is
preferred); the bot (``bots.greedy_bot``) takes a legal action of the best
rank. The ranks, best first:

- a switching move that delivers: spotting loads at an industry that takes
  them in or empties at one that loads them (the more, and the fewer other
  cars, the better; never so many that no train could pull the track), a
  Flying Switch that rolls its car to such an industry, pulling loads the
  district shipped, or first setting cars out on a siding to make room for
  them;
- spending a Red Flag on a train at one's own Office, or holding one's own
  Extra there, where standing another Mainline Phase earns: riders beyond
  what the Office sets down this turn, or a stop that pays;
- a Draw (a Department showing a card that could be played now first);
- playing a card: first a timetabled train that brings riders to a
  Passenger Facility; then, close together, a Facility, an Office upgrade or
  Modifier that sets more riders down, an Extra made up in a yard whose run
  comes to one's Office (with cars for its industries, when it has some), a
  timetabled freight train once there are industries it reaches; then a
  Second Section behind a train of riders, a Modifier whose box its industry
  uses, track, and any other card by kind. Rails and industries a train from
  the Office can reach (or, with a Flying Switch in hand, a car it kicks)
  come before those it cannot;
- a Discard: a card that can never be played in this game first, then one
  that cannot be played now, then the rest, the least useful first (the one
  card that raises the hand limit is kept, and so is a held card that has
  somewhere to act);
- with rivals: answering an attack with a defence held rather than letting
  it stand, and an attack played like an Enhancement, at the leading rival;
- ending the turn (after clearing an industry's track of cars it is done with);
- moves that earn nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Set
from dataclasses import replace
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from engine.stationmaster.content.model import (
    Card,
    Enhancement,
    Facility,
    FacilityModifier,
    MainlineModifier,
    Maneuver,
    OfficeTier,
    SecondSection,
    TrackShape,
    TrainCard,
)
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.actions import Action, Answer, Attack, ChooseGrade, Decline, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, RedFlag, Spot
from engine.stationmaster.rules.consist import car_label, car_refusal
from engine.stationmaster.rules.district import capacity, grant_note, placement_candidates, routes_of
from engine.stationmaster.rules.events import TRAIN_STOOD
from engine.stationmaster.rules.geometry import OPPOSITE, coords, key, neighbour, ports
from engine.stationmaster.rules.held import spent_by
from engine.stationmaster.rules.industry import works
from engine.stationmaster.rules.inputs import HEADINGS
from engine.stationmaster.rules.lookups import effect_of
from engine.stationmaster.rules.play import card_play_reasons
from engine.stationmaster.rules.proposals import proposals
from engine.stationmaster.rules.state import OFFICE_SQUARE, Car, District, Square, Train
from engine.stationmaster.rules.switching import pull_refusals, reachable, train_district
from engine.stationmaster.rules.yards import cars_for, has_yard

if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game

_PLAY_VALUES: Final[tuple[tuple[type[Card], int], ...]] = (
    (Facility, 40),
    (OfficeTier, 38),
    (FacilityModifier, 35),
    (TrackShape, 30),
    (TrainCard, 27),
    (Enhancement, 25),
    (MainlineModifier, 15),
    (SecondSection, 15),
    (Maneuver, 10),
)
_RIDERS_TRAIN = 45  # a timetabled train that brings riders to a Passenger Facility, every Day
_FREIGHT_TRAIN = 41  # a timetabled freight train, once the district has an industry it reaches
_YARD_EXTRA = 42  # an Extra made up in a yard, running through one's own Office
_LIGHT_EXTRA = 12  # an Extra that would leave light or never pass one's Office
_SECOND_SECTION_RIDERS = 39
_MORE_RIDERS = 43  # an Office upgrade or Modifier that sets more riders down every visit
_NO_MORE_RIDERS = 20  # a Modifier that adds nothing its host uses
_BOX_USED = 36  # a Modifier whose box its industry uses
_DRAW = 50
_HOLD_PAYS = 56
_RED_FLAG_PAYS = 57
_DELIVER_SPOT = 60
_KICK_DELIVERS = 59
_DELIVER_PULL = 55
_CLEAR_TRACK = 5
_MAKE_ROOM = 54  # setting cars out on a siding so that shipped loads can be pulled
_ANSWER = 58  # a defence that makes an attack do nothing
_ATTACK = 24
_END_TURN = 0
_WASTED = -10  # a switching move that delivers nothing, a sort, a Red Flag that earns nothing: below ending the turn


def play_value(card: Card) -> int:
    """A card's rank by kind alone, before what the game around it says."""
    for kind, value in _PLAY_VALUES:
        if isinstance(card, kind):
            if isinstance(card, TrainCard) and card.service == "extra":
                return value - 1
            return value
    return 10


def playable(game: Game, player: int, card: Card) -> bool:
    """Whether ``card`` could be played now somewhere (were it in the hand and
    the turn free to play): the card's own rules, not the turn's."""
    if isinstance(card, (TrackShape, Facility)) and effect_of(card) is None:
        return _laid_somewhere(game, player, card)
    if isinstance(card, (TrackShape, Facility, FacilityModifier)) or (isinstance(card, Enhancement) and card.placement == "district"):
        return any(not card_play_reasons(game, card, Play(player, card.id, x=x, y=y, rotation=r), verdict=True) for x, y, r in placement_candidates(game, player, card))
    if isinstance(card, TrainCard) and card.service == "extra":
        return True
    if isinstance(card, MainlineModifier) or (isinstance(card, Enhancement) and card.placement == "mainline"):
        slots = [i for i, slot in enumerate(game.state.mainline) if slot.kind == "terrain"]
        return any(not card_play_reasons(game, card, Play(player, card.id, slot=i), verdict=True) for i in slots)
    if isinstance(card, SecondSection):
        due = game.state.timetable[game.state.stage - 1]
        return due is not None and not card_play_reasons(game, card, Play(player, card.id, train=due), verdict=True)
    return not card_play_reasons(game, card, Play(player, card.id), verdict=True)


def _laid_somewhere(game: Game, player: int, card: TrackShape | Facility) -> bool:
    """``playable`` for track or an industry with no effect of its own.

    Whether such a card may be laid somewhere turns on the district alone
    (its squares: card, kind, turn, and what stands on or carries it; its
    Limits) unless an attack in force holds one of its squares: so the
    answer is kept on the game with those facts, and given again while they
    are the same (the greedy bot asks it of a Department's top card at the
    start of every turn)."""
    district = game.state.districts[player]
    if any(entry.player == player and entry.square is not None for entry in game.state.lasting):
        return any(not card_play_reasons(game, card, Play(player, card.id, x=x, y=y, rotation=r), verdict=True) for x, y, r in placement_candidates(game, player, card))
    shape = (
        district.west_limit,
        district.east_limit,
        tuple([(k, sq.card, sq.kind, sq.rotation, bool(sq.cars), sq.caboose_of is not None, sq.enhancement) for k, sq in district.squares.items()]),
    )
    kept = game.bot_views.get("playable")
    if not isinstance(kept, dict):
        kept = game.bot_views["playable"] = {}
    known = kept.get((player, card.id))
    if known is not None and known[0] == shape:
        return known[1] is True
    found = any(not card_play_reasons(game, card, Play(player, card.id, x=x, y=y, rotation=r), verdict=True) for x, y, r in placement_candidates(game, player, card))
    kept[player, card.id] = (shape, found)
    return found


def _train(game: Game, train_id: str) -> Train | None:
    return next((t for t in game.state.trains if t.id == train_id), None)


def _is_coach(game: Game, car: Car) -> bool:
    return game.catalog.supplies.car_categories.get(car.type) == "coach"


def _passenger_office(game: Game, player: int) -> bool:
    office = game.catalog.by_id[game.state.office(player)]
    return isinstance(office, OfficeTier) and office.passenger_facility


def set_down_room(game: Game, player: int) -> int:
    """How many coaches of riders ``player``'s Office sets down at the end of a turn."""
    office = game.catalog.by_id[game.state.office(player)]
    if not isinstance(office, OfficeTier) or not office.passenger_facility:
        return 0
    district = game.state.districts[player]
    porters = office.porters + capacity(game, district, OFFICE_SQUARE, "porter")
    return min(office.inbound_slots + capacity(game, district, OFFICE_SQUARE, "inboundSlot"), porters)


def _grant_used(game: Game, action: Play) -> bool:
    """Whether a Facility Modifier played there adds a box its host uses."""
    if action.x is None or action.y is None:
        return False
    card = game.catalog.by_id[action.card]
    district = game.state.districts[action.player]
    if not isinstance(card, FacilityModifier):
        return False
    for port in ("N", "E", "S", "W"):
        host = district.squares.get(key(*neighbour(action.x, action.y, port)))
        if host is not None and host.kind == "facility" and grant_note(game, district, card, host) is None:
            hosted = game.catalog.by_id[host.card]
            if not isinstance(card.hosts, tuple) or host.card in card.hosts:
                return isinstance(hosted, Facility)
    return False


def card_adds_riders(game: Game, player: int, card: Card, action: Play) -> bool:
    """Whether playing ``card`` makes ``player``'s Office set more riders down a visit."""
    office = game.catalog.by_id[game.state.office(player)]
    if not isinstance(office, OfficeTier):
        return False
    district = game.state.districts[player]
    porters = office.porters + capacity(game, district, OFFICE_SQUARE, "porter")
    slots = office.inbound_slots + capacity(game, district, OFFICE_SQUARE, "inboundSlot")
    if isinstance(card, OfficeTier):
        return card.passenger_facility and min(slots + card.inbound_slots - office.inbound_slots, porters + card.porters - office.porters) > set_down_room(game, player)
    if isinstance(card, FacilityModifier) and card.hosts == "office" and office.passenger_facility:
        return (card.grant == "porter" and slots > porters) or (card.grant == "inboundSlot" and porters > slots)
    return False


def riders_for(game: Game, player: int, train: Train) -> int:
    """Coaches of riders on ``train`` that ``player``'s Office may set down."""
    card = game.catalog.by_id[train.card]
    if isinstance(card, TrainCard) and "mayNotSwitch" in card.restrictions:
        return 0
    return sum(1 for car in train.cars if _is_coach(game, car) and car.loaded and car.shipper != player)


def passes_office(game: Game, player: int, start: int, heading: str | None) -> bool:
    """Whether a train made up at ``start`` and heading that way comes to
    ``player``'s Office (one made up at an Office leaves it at once)."""
    mainline = game.state.mainline
    if heading is None:
        return False
    step = 1 if heading == "east" else -1
    return any(mainline[i].kind == "office" and mainline[i].player == player for i in range(start + step, len(mainline) if step > 0 else -1, step))


def pays_for_stopping(card: Card) -> bool:
    return isinstance(card, TrainCard) and card.effect is not None and load_handlers().get_handler(TRAIN_STOOD, card.effect) is not None


State = tuple[str, "str | None", bool]  # a square, the port entered by (None: the start), kicked


class Walked:
    """What a train from the Office reaches (see ``_walk``): the squares off
    the Running Track, the open ends faced ("x,y:port"), every state the walk
    went through; and, to walk on from it when a card is laid, those states
    by square, how many of the open ends face each empty square, and every
    way the walk tried into each square (the port it would enter by, and
    whether kicked), taken or not."""

    __slots__ = ("by_square", "ends", "ends_at", "into", "reached", "seen")

    def __init__(self, reached: set[str], ends: set[str], seen: set[State], into: dict[str, list[tuple[str, bool]]]) -> None:
        self.reached, self.ends, self.seen, self.into = reached, ends, seen, into
        self.by_square: dict[str, list[State]] = {}
        for state in seen:
            self.by_square.setdefault(state[0], []).append(state)
        self.ends_at: dict[str, int] = {}
        for end in ends:
            where = end.partition(":")[0]
            self.ends_at[where] = self.ends_at.get(where, 0) + 1


def frontier(game: Game, district: District, *, kick: bool = False) -> tuple[set[str], set[str]]:
    """What a train from the Office reaches (see :func:`_walk`), kept on
    the game for as long as the district's cards and standing cars are as
    they were."""
    walked = _explored(game, district, kick)
    return walked.reached, walked.ends


def _explored(game: Game, district: District, kick: bool) -> Walked:
    choosing = game.bot_views.get(_CHOOSING)
    if isinstance(choosing, dict):
        kept_now = choosing.get((id(district), kick))
        if kept_now is not None and kept_now[0] is district:
            return kept_now[1]  # type: ignore[no-any-return]
    shape = tuple((k, sq.card, sq.rotation, bool(sq.cars or sq.caboose_of)) for k, sq in district.squares.items())
    memo = ("frontier", district.player, kick)
    kept = game.bot_views.get(memo)
    if isinstance(kept, tuple) and kept[0] == shape:
        found: Walked = kept[1]
    else:
        into: dict[str, list[tuple[str, bool]]] = {}
        found = Walked(*_frontier(game, district.squares, kick, into), into)
        game.bot_views[memo] = (shape, found)
    if isinstance(choosing, dict):
        choosing[id(district), kick] = (district, found)
    return found


def _frontier(game: Game, squares: Mapping[str, Square], kick: bool, into: dict[str, list[tuple[str, bool]]] | None = None) -> tuple[set[str], set[str], set[State]]:
    reached: set[str] = set()
    ends: set[str] = set()
    seen: set[State] = set()
    _walk(game, squares, kick, [(OFFICE_SQUARE, None, False)], frozenset(), seen, reached, ends, into)
    return reached, ends, seen


def _walk(
    game: Game,
    squares: Mapping[str, Square],
    kick: bool,
    queue: list[State],
    known: Set[State],
    seen: set[State],
    reached: set[str],
    ends: set[str],
    into: dict[str, list[tuple[str, bool]]] | None = None,
) -> None:
    """What a train leaving the Office can reach, as the switching rules have
    it (in by one port, out by a port its routes join; never through standing
    cars): the squares off the Running Track it passes or stops on, and the
    empty squares off the Running Track it would run on into (where a card
    laid with a port facing it extends the reach). With ``kick``, what a car
    a Flying Switch cuts off reaches instead: it rolls back through a turnout
    the train ran through and down its other leg.

    Walks on from the states in ``queue``, adding to ``seen``, ``reached``
    and ``ends``; a state in ``known`` (walked already) is not walked again,
    unless it is the first of the queue (a square that changed since). With
    ``into``, every way tried into a square is noted there."""
    routes_here = _routes(game)
    again = set(queue) if known else set()
    while queue:
        state = queue.pop()
        if state in again:
            again.discard(state)
        elif state in seen or state in known:
            continue
        seen.add(state)
        here, entered, kicked = state
        square = squares[here]
        x, y = coords(here)
        if y != 0 and kicked == kick:
            reached.add(here)
        if here != OFFICE_SQUARE and (square.cars or square.caboose_of):
            continue
        routes, joined = routes_here(square)
        exits = joined if entered is None else {b if a == entered else a for a, b in routes if entered in (a, b)}
        moves = [(port, kicked) for port in exits]
        if kick and not kicked and entered is not None and len(routes) > 1:
            moves += [(b if a == out else a, True) for out in exits for a, b in routes if out in (a, b) and entered not in (a, b)]
        for port, now_kicked in moves:
            nx, ny = neighbour(x, y, port)
            nxt = key(nx, ny)
            other = squares.get(nxt)
            facing = OPPOSITE[port]
            if into is not None:
                into.setdefault(nxt, []).append((facing, now_kicked))
            if other is None:
                if ny != 0 and now_kicked == kick:
                    ends.add(f"{nxt}:{facing}")
            elif facing in routes_here(other)[1]:
                queue.append((nxt, facing, now_kicked))


def _routes(game: Game) -> Callable[[Square], tuple[list[tuple[str, str]], frozenset[str]]]:
    """A square's rails as laid and the ports they join (``routes_of``), by
    what the answer follows from: its card, kind and rotation; kept on the
    game (its copies share it: the catalog is the same)."""
    kept = game.bot_views.get("routes")
    if not isinstance(kept, dict):
        kept = game.bot_views["routes"] = {}
    known: dict[tuple[str, str, int], tuple[list[tuple[str, str]], frozenset[str]]] = kept

    def routes_here(square: Square) -> tuple[list[tuple[str, str]], frozenset[str]]:
        found = known.get((square.card, square.kind, square.rotation))
        if found is None:
            routes = routes_of(game, square)
            found = known[square.card, square.kind, square.rotation] = (routes, frozenset(ports(routes)))
        return found

    return routes_here


class _Laid(Mapping[str, Square]):
    """A district's squares with one more card laid on one of them."""

    __slots__ = ("_here", "_laid", "_squares")

    def __init__(self, squares: dict[str, Square], here: str, laid: Square) -> None:
        self._squares, self._here, self._laid = squares, here, laid

    def __getitem__(self, where: str) -> Square:
        return self._laid if where == self._here else self._squares[where]

    def get(self, where: str, default: object = None) -> Any:
        return self._laid if where == self._here else self._squares.get(where, default)

    def __iter__(self) -> Iterator[str]:
        return iter({**self._squares, self._here: self._laid})

    def __len__(self) -> int:
        return len(self._squares) + (self._here not in self._squares)


def _laid_gain(game: Game, district: District, laid: Square, x: int, y: int, kick: bool) -> int:
    """How much more a train from the Office would reach (squares and open
    ends) were ``laid`` on (x, y).

    A card laid on an empty square, or over one whose rails it keeps, only
    adds rails: the walk of the district as it stands (kept) then needs only
    walking on from the new card: into it, by each way the walk tried into
    that square that its rails now take, and out of it again from where the
    walk stood on it before. That finds what walking it all again would, for
    far less. Over rails it does not keep (a proposal the rules refuse,
    still ranked), it is walked again in full."""
    here = key(x, y)
    walked = _explored(game, district, kick)
    old = district.squares.get(here)
    routes_here = _routes(game)
    routes, joined = routes_here(laid)
    if here == OFFICE_SQUARE or (old is not None and not {frozenset(r) for r in routes_here(old)[0]} <= {frozenset(r) for r in routes}):
        whole = _frontier(game, _Laid(district.squares, here, laid), kick)
        return len(whole[0]) + len(whole[1]) - len(walked.reached) - len(walked.ends)
    queue: list[State] = list(walked.by_square.get(here, ()))
    queue += [(here, facing, kicked) for facing, kicked in walked.into.get(here, ()) if facing in joined]
    lost = walked.ends_at.get(here, 0)  # the open ends that faced the square face a card now
    if not queue:
        return -lost
    reached: set[str] = set()
    ends: set[str] = set()
    _walk(game, _Laid(district.squares, here, laid), kick, queue, walked.seen, set(), reached, ends)
    return len(reached - walked.reached) + len(ends - walked.ends) - lost


def reach_gain(game: Game, player: int, card: Card, x: int, y: int, rotation: int) -> int:
    """How much laying ``card`` there adds to what a train from the Office
    reaches off the Running Track (squares reached and open ends faced), and,
    while the player holds a Flying Switch, to what a car it cuts off reaches."""
    district = game.state.districts[player]
    laid = Square(card.id, "facility" if isinstance(card, Facility) else "track", rotation)
    gain = _laid_gain(game, district, laid, x, y, False)
    if _holds_flying_switch(game, player):
        gain += _laid_gain(game, district, laid, x, y, True)
    return gain


def _holds_flying_switch(game: Game, player: int) -> bool:
    """Whether ``player`` holds a card spent as a Flying Switch (asked once a choice)."""
    choosing = game.bot_views.get(_CHOOSING)
    memo = ("kicks", player)
    if isinstance(choosing, dict) and memo in choosing:
        return choosing[memo] is True
    found = any(spent_by(game, game.catalog.by_id[c]) is FlyingSwitch for c in game.state.hands[player])
    if isinstance(choosing, dict):
        choosing[memo] = found
    return found


def _reached_facilities(game: Game, player: int) -> list[Facility]:
    """The industries of ``player``'s district a train from the Office reaches."""
    district = game.state.districts[player]
    reached = frontier(game, district)[0]
    found = []
    for where in sorted(reached):
        card = game.catalog.by_id[district.squares[where].card]
        if district.squares[where].kind == "facility" and isinstance(card, Facility):
            found.append(card)
    return found


def extra_loads(game: Game) -> list[Action]:
    """Extras the player to act holds, made up in a yard whose run passes
    their Office, each loaded with cars the industries there work (loads for
    those that take them in, empties for those that load them): proposals the
    engine's own list leaves to the yard's choice."""
    s = game.state
    p = s.current
    if s.phase != "local" or s.turn.played:
        return []
    extras = [card for card in map(game.catalog.by_id.__getitem__, sorted(set(s.hands[p]))) if isinstance(card, TrainCard) and card.service == "extra" and not pays_for_stopping(card)]
    facilities = _reached_facilities(game, p) if extras else []
    if not facilities:
        return []
    found: list[Action] = []
    for card in extras:
        room = min(card.consist.freight, game.catalog.game.table.crew_tray_pieces - (1 if card.caboose else 0))
        for start in range(len(s.mainline)):
            if not has_yard(game, start):
                continue
            for heading in HEADINGS:
                if not passes_office(game, p, start, heading):
                    continue
                pool = list(cars_for(game, start))
                load: list[Car] = []
                for facility in facilities * room:
                    car = next((c for c in pool if works(facility, c, p) and car_refusal(card, c, pickup=False) is None and card.category(c.type) == "freight"), None)
                    if car is not None and len(load) < room:
                        pool.remove(car)
                        load.append(car)
                if load:
                    found.append(Play(p, card.id, slot=start, heading=heading, load=tuple(car_label(c) for c in reversed(load))))
    return found


def _moves_limits_to_reach(game: Game, player: int, x: int, y: int) -> bool:
    """Whether track laid on a Limits sign there moves it past rails that
    already run toward it (a siding that may then be built on)."""
    district = game.state.districts[player]
    if y != 0 or x not in (district.west_limit, district.east_limit):
        return False
    return any(int(end.split(",")[0]) == x for end in frontier(game, district)[1])


def _serves_industries(game: Game, player: int, card: TrainCard) -> bool:
    """Whether a train of this card may set out cars at the industries a train
    from ``player``'s Office reaches (it may switch and carries freight)."""
    return card.consist.freight > 0 and "mayNotSwitch" not in card.restrictions and bool(_reached_facilities(game, player))


def _train_play_value(game: Game, action: Play, card: TrainCard) -> int:
    if card.service == "timetabled":
        riders = card.consist.coach > 0 and _passenger_office(game, action.player)
        if riders:
            return _RIDERS_TRAIN
        return _FREIGHT_TRAIN if _serves_industries(game, action.player, card) else play_value(card)
    if action.slot is None or not has_yard(game, action.slot) or not passes_office(game, action.player, action.slot, action.heading):
        return _LIGHT_EXTRA
    return _YARD_EXTRA + (1 if action.load else 0)


def _facility_at(game: Game, player: int, x: int, y: int) -> Facility | None:
    square = game.state.districts[player].squares.get(key(x, y))
    card = game.catalog.by_id.get(square.card) if square is not None else None
    return card if square is not None and square.kind == "facility" and isinstance(card, Facility) else None


def _spot_value(game: Game, action: Spot) -> int:
    """A Spot that sets out cars the industry there works ranks above a Draw,
    the more of them (and the fewer others) the better; any other, nothing."""
    train = _train(game, action.train)
    if train is None or train_district(game, train) is None or not 1 <= action.cars <= len(train.cars):
        return _WASTED
    card = _facility_at(game, action.player, action.x, action.y)
    if card is None:
        return _MAKE_ROOM if _makes_room(game, train, action) else _WASTED
    worked = sum(1 for car in train.cars[-action.cars :] if works(card, car, action.player))
    standing = len(game.state.districts[action.player].squares[key(action.x, action.y)].cars)
    # A track no train can couple in one Pull strands what an industry loads there.
    over = max(0, standing + action.cars - _longest_freight(game)) if card.traffic != "inbound" else 0
    return _DELIVER_SPOT + 2 * worked - 3 * (action.cars - worked) - 4 * over if worked > over else _WASTED


def _longest_freight(game: Game) -> int:
    """The most freight cars any train card pulls (from the catalog alone:
    kept on the game, and carried to its copies)."""
    kept = game.bot_views.get("longest freight")
    if not isinstance(kept, int):
        kept = game.bot_views["longest freight"] = max((c.consist.freight for c in game.catalog.of_type(TrainCard)), default=0)
    return kept


def _makes_room(game: Game, train: Train, action: Spot) -> bool:
    """Whether setting these cars out off the industries lets the train pull
    loads the district shipped that it is now too long to couple (and the
    cars set out do not stand in the way to them)."""
    district = train_district(game, train)
    card = game.catalog.by_id[train.card]
    if district is None or not isinstance(card, TrainCard) or action.caboose:
        return False
    stuck = _stuck_loads(game, train, card, district, action.player)
    if not stuck:
        return False
    here = key(action.x, action.y)
    lighter = replace(train, cars=train.cars[: -action.cars])
    freed = [where for where in stuck if where != here and not pull_refusals(game, lighter, card, district, where)]
    if not freed:
        return False
    trial = District(district.player, dict(district.squares), district.west_limit, district.east_limit)
    trial.squares[here] = replace(district.squares[here], cars=district.squares[here].cars + train.cars[-action.cars :])
    still = reachable(game, trial)
    return any(where in still for where in freed)


def _stuck_loads(game: Game, train: Train, card: TrainCard, district: District, player: int) -> list[str]:
    """The squares the train reaches where loads ``player`` shipped stand that
    it cannot couple as it is; the same for every Spot of the train a
    choice ranks, so worked out once a choice."""
    choosing = game.bot_views.get(_CHOOSING)
    memo = ("stuck", train.id, player)
    if isinstance(choosing, dict) and memo in choosing:
        return choosing[memo]  # type: ignore[no-any-return]
    found = [where for where in reachable(game, district) if any(car.loaded and car.shipper == player for car in district.squares[where].cars) and pull_refusals(game, train, card, district, where)]
    if isinstance(choosing, dict):
        choosing[memo] = found
    return found


def _kick_delivers(game: Game, action: FlyingSwitch) -> bool:
    """Whether the car a Flying Switch cuts off rolls to an industry that works it."""
    train = _train(game, action.train)
    if train is None or not train.cars:
        return False
    card = _facility_at(game, action.player, action.x, action.y)
    return card is not None and works(card, train.cars[-1], action.player)


def _pull_value(game: Game, action: Pull) -> int:
    """Pulling loads the district shipped (they score at a Division Point)
    ranks above a Draw; clearing an industry's track of cars it has done with
    (nothing there it still works) ranks above ending a turn; any other, nothing."""
    train = _train(game, action.train)
    district = train_district(game, train) if train is not None else None
    if district is None:
        return _WASTED
    square = district.squares.get(key(action.x, action.y))
    if square is None or not square.cars:
        return _WASTED
    if any(car.loaded and car.shipper == action.player for car in square.cars):
        return _DELIVER_PULL
    card = _facility_at(game, action.player, action.x, action.y)
    if card is not None and not any(works(card, car, action.player) for car in square.cars):
        return _CLEAR_TRACK
    return _WASTED


def _hold_pays(game: Game, action: Hold) -> bool:
    """Holding one's own Extra at the Office pays when standing still earns
    (a train that pays for stopping, full and not yet paid here), or when it
    carries more riders than the Office sets down this turn."""
    train = _train(game, action.train)
    if train is None:
        return False
    card = game.catalog.by_id[train.card]
    district = train_district(game, train)
    if district is None:
        return False
    if pays_for_stopping(card):
        return train.id not in district.paid_stops and bool(train.cars) and all(car.loaded for car in train.cars)
    return district.player == action.player and riders_for(game, action.player, train) > set_down_room(game, action.player)


def _red_flag_pays(game: Game, action: RedFlag) -> bool:
    """A train standing at the player's own Office with more riders than the
    Office sets down this turn: held one more Mainline Phase, it sets down more."""
    train = _train(game, action.train)
    if train is None or train.held:
        return False
    district = train_district(game, train)
    return district is not None and district.player == action.player and riders_for(game, action.player, train) > set_down_room(game, action.player)


def _held_card_usable(game: Game, player: int, card: Card) -> bool:
    """Whether a card spent by its own action has somewhere to act now: a
    Flying Switch a track a car may be kicked to, a Red Flag a train."""
    if spent_by(game, card) is FlyingSwitch:
        return bool(reachable(game, game.state.districts[player], kick=True))
    return bool(game.state.trains)


def may_become_playable(game: Game, player: int, card: Card) -> bool:
    """Whether a card that cannot be played now may be later in this game
    (False only where the game as it stands rules it out for good)."""
    s = game.state
    effect = getattr(card, "effect", None)
    if isinstance(effect, str) and effect not in load_handlers():
        return False  # nothing plays an effect that is not built
    if isinstance(card, MainlineModifier) and isinstance(card.play_on, tuple):
        return any(s.slot_card(slot) in card.play_on and card.id not in slot.modifiers for slot in s.mainline)
    if isinstance(card, MainlineModifier):
        sources = {before for before, _ in card.realign}
        return any(s.slot_card(slot) in sources for slot in s.mainline)
    if isinstance(card, SecondSection):
        return any(due is not None for due in s.timetable)
    if isinstance(card, OfficeTier):
        ladder = list(game.ladder())
        return card.id in ladder and ladder.index(card.id) > ladder.index(s.office(player)) + 1
    if isinstance(card, Facility):
        built = {sq.card for sq in s.districts[player].squares.values() if sq.kind == "facility"}
        return card.id not in built and not built & set(card.lockouts)
    if isinstance(card, Enhancement) and card.placement == "district":
        return not any(sq.enhancement == card.id for sq in s.districts[player].squares.values())
    return True


def _riders_on_timetable(game: Game, player: int) -> bool:
    """Whether a timetabled train of riders runs, to a Passenger Facility."""
    trains = [game.catalog.by_id[due] for due in game.state.timetable if due is not None]
    return _passenger_office(game, player) and any(isinstance(t, TrainCard) and t.consist.coach > 0 for t in trains)


def _discard_rank(game: Game, action: Discard) -> int:
    """1 (keep) .. 9 (throw away): a card that can never be played in this
    game goes first, then one that cannot be played now, then the rest; of
    each, the less it is worth the sooner. The only card in hand that raises
    the hand limit is kept (it pays for its own place), and a card spent by
    its own action is kept while it has somewhere to act."""
    card = game.catalog.by_id[action.card]
    p = action.player
    bonuses = game.limit_bonus
    if card.id in bonuses and sum(1 for c in game.state.hands[p] if c in bonuses) == 1:
        return 1
    value = play_value(card)
    if spent_by(game, card) is not None:
        return 3 if _held_card_usable(game, p, card) else 5
    if playable(game, p, card):
        return max(2, 5 - value // 10)
    if isinstance(card, SecondSection) and _riders_on_timetable(game, p):
        return 2  # it earns a second visit of riders when their train is due
    if may_become_playable(game, p, card):
        return 6 - value // 40
    return 9 - value // 40


def _attack_value(game: Game, action: Attack) -> int:
    """An attack is a play like an Enhancement's, aimed at the rival who leads
    (or, on a Mainline card, at every rival alike)."""
    scores = game.state.scores
    rivals = [i for i in range(len(scores)) if i != action.player]
    if action.rival is None or not rivals:
        return _ATTACK
    return _ATTACK + (1 if scores[action.rival] == max(scores[i] for i in rivals) else -1)


def _play_rank(game: Game, action: Play) -> int:
    """A Play's rank (a ceiling of it by card alone: ``_card_ceiling``)."""
    card = game.catalog.by_id[action.card]
    if isinstance(card, TrainCard):
        return _train_play_value(game, action, card)
    if isinstance(card, SecondSection) and action.train is not None:
        due = game.catalog.by_id[action.train]
        if isinstance(due, TrainCard) and due.consist.coach > 0 and _passenger_office(game, action.player):
            return _SECOND_SECTION_RIDERS
    value = play_value(card)
    if isinstance(card, (OfficeTier, FacilityModifier)) and card_adds_riders(game, action.player, card, action):
        value = _MORE_RIDERS
    elif isinstance(card, FacilityModifier) and card.hosts == "office":
        value = _NO_MORE_RIDERS
    elif isinstance(card, FacilityModifier):
        value = _BOX_USED if _grant_used(game, action) else _NO_MORE_RIDERS
    if isinstance(card, (TrackShape, Facility)) and action.x is not None and action.y is not None:
        # Rails and industries a train from the Office can reach first.
        gain = reach_gain(game, action.player, card, action.x, action.y, action.rotation or 0)
        if isinstance(card, TrackShape) and _moves_limits_to_reach(game, action.player, action.x, action.y):
            gain += 1
        value += 4 if gain > 0 else (0 if isinstance(card, Facility) or action.y == 0 else -2)
    return value


def greedy_value(game: Game, action: Action) -> int:
    """The greedy bot's rank of a proposed action (higher is preferred); see the module."""
    rank = _RANKS.get(type(action))
    return rank(game, action) if rank is not None else _rank_by_kind(game, action)


def _draw_value(game: Game, action: Draw) -> int:
    if action.source == "deck":
        return _DRAW + 1
    pile = game.state.departments[int(action.source) - 1]
    top = game.catalog.by_id[pile[-1]] if pile else None
    if top is not None and play_value(top) >= 30 and spent_by(game, top) is None and playable(game, action.player, top):
        return _DRAW + 2
    return _DRAW


def _rank_by_kind(game: Game, action: Action) -> int:
    """``greedy_value`` of an action of any class, by the kind it is."""
    if isinstance(action, ChooseGrade):
        return 0
    if isinstance(action, Draw):
        return _draw_value(game, action)
    if isinstance(action, Play):
        return _play_rank(game, action)
    if isinstance(action, Discard):
        return _discard_rank(game, action)
    if isinstance(action, Spot):
        return _spot_value(game, action)
    if isinstance(action, Pull):
        return _pull_value(game, action)
    if isinstance(action, FlyingSwitch):
        return _KICK_DELIVERS if _kick_delivers(game, action) else _WASTED
    if isinstance(action, Hold):
        return _HOLD_PAYS if _hold_pays(game, action) else _WASTED
    if isinstance(action, RedFlag):
        return _RED_FLAG_PAYS if _red_flag_pays(game, action) else _WASTED
    if isinstance(action, Answer):
        return _ANSWER
    if isinstance(action, Decline):
        return _END_TURN
    if isinstance(action, Attack):
        return _attack_value(game, action)
    if isinstance(action, EndTurn):
        return _END_TURN
    return _WASTED  # SortCars: nothing earned


# ``_rank_by_kind`` of the classes of action the greedy bot ranks most,
# looked up at once (it ranks thousands a game); the rest go by kind.
_RANKS: Final[dict[type[Action], Callable[[Game, Any], int]]] = {
    Draw: _draw_value,
    Play: _play_rank,
    Discard: _discard_rank,
    Spot: _spot_value,
    Pull: _pull_value,
    EndTurn: lambda game, action: _END_TURN,
}


def _ceiling(game: Game, action: Action) -> int | None:
    """A rank ``greedy_value`` never exceeds for ``action``, found without
    its costly questions (where a card could be played, what laying it adds
    to the reach, what a Spot delivers); None where the rank itself costs
    little."""
    if isinstance(action, Spot):
        return max(_DELIVER_SPOT + 2 * action.cars, _MAKE_ROOM)
    if isinstance(action, Draw):
        return None if action.source == "deck" else _DRAW + 2
    if isinstance(action, Play):
        return _card_ceiling(game, action.card)
    if isinstance(action, Discard):
        return 9  # the top of _discard_rank's scale
    return None


def _card_ceiling(game: Game, card_id: str) -> int:
    """A rank no Play of the card exceeds (``_play_rank``), wherever and
    however it is played: from the card alone, so kept on the game (and
    carried to its copies) by card."""
    kept = game.bot_views.get("card ceilings")
    if not isinstance(kept, dict):
        kept = game.bot_views["card ceilings"] = {}
    found = kept.get(card_id)
    if found is None:
        found = kept[card_id] = _ceiling_of_card(game.catalog.by_id[card_id])
    return found


def _ceiling_of_card(card: Card) -> int:
    if isinstance(card, TrainCard):
        return _RIDERS_TRAIN if card.service == "timetabled" else _YARD_EXTRA + 1
    if isinstance(card, SecondSection):
        return max(_SECOND_SECTION_RIDERS, play_value(card))
    if isinstance(card, (OfficeTier, FacilityModifier)):
        return max(_MORE_RIDERS, _BOX_USED, play_value(card))
    if isinstance(card, (TrackShape, Facility)):
        return play_value(card) + 4  # laid where a train from the Office reaches
    return play_value(card)


def _run_ceiling(game: Game, first: Action) -> int | None:
    """A ceiling for a whole run of the proposals (``Proposals.runs``), from
    its first: a run that starts with a Play is the ways to play that one
    card, and one that starts with a discard is that card's discards onto
    each Department (``rules.proposals`` builds them so); None for any
    other run."""
    if isinstance(first, Play):
        return _card_ceiling(game, first.card)
    if isinstance(first, Discard):
        return 9
    return None


# The key in ``Game.bot_views`` of what one choice keeps while it ranks: the
# position cannot change before it has chosen, so nothing kept there is
# checked against the position again (``_explored``).
_CHOOSING = "choosing"

# An unranked entry: its ceiling, the place of its first proposal, how many
# proposals, and the proposal (one) or the maker of the k-th (a run).
_Unranked = tuple[int, int, int, "Action | Callable[[int], Action]"]


def choose(game: Game) -> Action | None:
    """The greedy bot's action (``bots.greedy_bot``): of the proposals of the
    best rank, one drawn uniformly from ``game.bot`` and checked until one is
    legal, then the next rank's, and so on.

    A playout asks this at every step, and ranking every proposal was most of
    its cost: so a proposal is ranked only when it might belong to the rank
    tried next. Each gets a cheap ceiling first (``_ceiling``; a card's
    placements and its discards one for the whole run, ``_run_ceiling``,
    which are not even built until then); a rank is tried once every
    proposal whose ceiling reaches it has been ranked, so its proposals are
    exactly those ranking every one would find, in the same order, drawn
    with the same draws."""
    game.bot_views[_CHOOSING] = {}
    try:
        return _choose(game)
    finally:
        del game.bot_views[_CHOOSING]


def _choose(game: Game) -> Action | None:
    ranked: dict[int, list[tuple[int, Action]]] = {}
    unranked: list[_Unranked] = []
    pool = proposals(game)
    runs = [(place, count, make, True) for place, count, make in pool.runs()]
    loads = extra_loads(game)
    if loads:
        runs.append((len(pool), len(loads), loads.__getitem__, False))  # Extras, each its own
    for place, count, make, of_one_card in runs:
        first = make(0)
        ceiling = _run_ceiling(game, first) if of_one_card else None
        if ceiling is not None:
            unranked.append((ceiling, place, count, make))
            continue
        for k in range(count):
            action = make(k) if k else first
            ceiling = _ceiling(game, action)
            if ceiling is None:
                ranked.setdefault(greedy_value(game, action), []).append((place + k, action))
            else:
                unranked.append((ceiling, place + k, 1, action))
    unranked.sort(key=itemgetter(0), reverse=True)
    done = 0
    while True:
        top = max(ranked) if ranked else None
        while done < len(unranked) and (top is None or unranked[done][0] >= top):
            _, place, count, item = unranked[done]
            done += 1
            if isinstance(item, Action):
                value = greedy_value(game, item)
                ranked.setdefault(value, []).append((place, item))
            elif isinstance(first := item(0), Discard):
                value = greedy_value(game, first)  # a card's discard rank is the same onto any Department
                ranked.setdefault(value, []).extend((place + k, item(k) if k else first) for k in range(count))
            else:
                for k in range(count):
                    action = item(k) if k else first
                    found = greedy_value(game, action)
                    ranked.setdefault(found, []).append((place + k, action))
                    value = found if k == 0 or found > value else value
            if top is None or value > top:
                top = value
        if top is None:
            return None
        pool_of_rank = [action for _, action in sorted(ranked.pop(top), key=itemgetter(0))]
        chosen = game.first_legal(pool_of_rank, game.bot)
        if chosen is not None:
            return chosen
