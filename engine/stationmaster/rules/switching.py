"""Switching in a district: where a train standing at the Office can reach,
and setting out (Spot) or coupling up (Pull) cars there.

Coupling is mandatory: a train that runs onto standing cars takes them all,
so a Pull that would couple a car the train's card forbids is refused with
the rule, and a path through standing cars is no path. A turnout is run
through but never stopped on. A train may always recover its own caboose.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import TrackShape, TrainCard
from engine.stationmaster.rules.consist import car_refusal, category
from engine.stationmaster.rules.district import routes_of
from engine.stationmaster.rules.geometry import OPPOSITE, key, neighbour, ports
from engine.stationmaster.rules.state import OFFICE_SQUARE, District, Train

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def train_district(game: RulesContext, train: Train) -> District | None:
    """The district whose Office the train is standing at, if any."""
    slot = game.state.mainline[train.position]
    if slot.kind == "office" and train.remaining == 0 and slot.player is not None:
        return game.state.districts[slot.player]
    return None


def _is_turnout(game: RulesContext, district: District, square_key: str) -> bool:
    card = game.catalog.by_id[district.squares[square_key].card]
    return isinstance(card, TrackShape) and len(card.routes) > 1


def reachable(game: RulesContext, district: District, *, kick: bool = False) -> set[str]:
    """Squares a train at the Office can run to and stop on, following the
    rails (into a card by one port, out by a port its routes join to).

    With ``kick`` (a Flying Switch), only the squares a car can reach by being
    cut off on the move: the train runs through a turnout, and the car rolls
    back into it and down its other leg, once.

    What it finds turns on the district's squares alone: which there are,
    and of each its card, turn and kind, and whether cars or a caboose stand
    on it. It is asked at every start of a turn with a train at the Office
    (the switching proposals) and for every switching move judged, so the
    answer for a player's own district is kept on the game with those facts
    as they were, and given again (a copy of it) while they are the same."""
    if district is not game.state.districts[district.player]:
        return _reachable(game, district, kick)  # a trial district (a bot's what-if): never kept
    shape = tuple([(k, sq.card, sq.rotation, sq.kind, not (sq.cars or sq.caboose_of)) for k, sq in district.squares.items()])
    kept = game.reachable_cache.get((district.player, kick))
    if kept is None or kept[0] != shape:
        kept = game.reachable_cache[(district.player, kick)] = (shape, _reachable(game, district, kick))
    return set(kept[1])


def _reachable(game: RulesContext, district: District, kick: bool) -> set[str]:
    found: set[str] = set()
    queue: deque[tuple[str, str | None, bool]] = deque([(OFFICE_SQUARE, None, False)])
    seen: set[tuple[str, str | None, bool]] = set()
    while queue:
        here, entered, kicked = queue.popleft()
        if (here, entered, kicked) in seen:
            continue
        seen.add((here, entered, kicked))
        square = district.squares[here]
        if here != OFFICE_SQUARE:
            if not _is_turnout(game, district, here) and kicked == kick:
                found.add(here)
            if square.cars or square.caboose_of:
                continue  # a train running on would couple them: it stops here
        routes = routes_of(game, square)
        exits = ports(routes) if entered is None else {b if a == entered else a for a, b in routes if entered in (a, b)}
        moves = [(port, kicked) for port in exits]
        if kick and not kicked and entered is not None and _is_turnout(game, district, here):
            # the car rolls back in through the port the engine left by and
            # takes any other route from it, not the way the train came
            moves += [(b if a == x else a, True) for x in exits for a, b in routes if x in (a, b) and entered not in (a, b)]
        for port, now_kicked in moves:
            x, y = (int(v) for v in here.split(","))
            nx, ny = neighbour(x, y, port)
            nxt = key(nx, ny)
            other = district.squares.get(nxt)
            if other is not None and OPPOSITE[port] in ports(routes_of(game, other)):
                queue.append((nxt, OPPOSITE[port], now_kicked))
    return found


def pull_refusals(game: RulesContext, train: Train, card: TrainCard, district: District, square_key: str) -> list[str]:
    square = district.squares[square_key]
    reasons: list[str] = []
    if not square.cars and square.caboose_of != train.id:
        return [Reason("nothing-to-couple", "no cars stand there")]
    for car in square.cars:
        why = car_refusal(card, car, pickup=True)
        if why:
            reasons.append(why)
    coaches = sum(1 for c in train.cars + square.cars if category(card, c) == "coach")
    freight = len(train.cars) + len(square.cars) - coaches
    if coaches > card.consist.coach or freight > card.consist.freight:
        reasons.append(Reason("train-too-long", f"coupling them would make {card.name} longer than its card allows"))
    pieces = len(train.cars) + len(square.cars) + (1 if train.caboose or square.caboose_of == train.id else 0)
    if pieces > game.catalog.game.table.crew_tray_pieces:
        reasons.append(Reason("crew-tray-full", f"a Crew Tray holds {game.catalog.game.table.crew_tray_pieces} pieces, caboose included"))
    if square.caboose_of and square.caboose_of != train.id:
        reasons.append(Reason("another-caboose", "another train's caboose stands there"))
    if not square.cars and square.caboose_of == train.id:
        return []  # a train may always recover its own caboose
    return reasons


def switch_view(game: RulesContext, train: Train) -> dict[str, str | None]:
    """Every square the rails reach from the Office, with why the train may not
    go there (None when it may set out or pick up there)."""
    district = train_district(game, train)
    if district is None:
        return {}
    card = game.catalog.by_id[train.card]
    assert isinstance(card, TrainCard)
    view: dict[str, str | None] = {}
    for square_key in sorted(reachable(game, district)):
        square = district.squares[square_key]
        if "mayNotSwitch" in card.restrictions:
            view[square_key] = f"{card.name} 'may not switch'"
        elif square.cars or square.caboose_of:
            why = pull_refusals(game, train, card, district, square_key)
            room = game.catalog.game.table.cars_per_track - len(square.cars)
            can_spot = bool(train.cars) and room > 0 and not square.caboose_of
            view[square_key] = None if not why or can_spot else "; ".join(why)
        else:
            view[square_key] = None if train.cars else "nothing to set out, and no cars to couple"
    return view
