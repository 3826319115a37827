"""Building a district: track, Offices, Facilities, Modifiers and Enhancements.

``placement_refusals`` says every reason a card cannot go on a square now;
``place`` puts it there. The Running Track is row 0, from the west Limits
sign to the east one; the Office stands on it at column 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card, Enhancement, Facility, FacilityModifier, OfficeTier, TrackShape
from engine.stationmaster.rules.geometry import OPPOSITE, ORTHOGONAL, coords, has_through_route, key, neighbour, ports, rotate
from engine.stationmaster.rules.lasting import square_refusals
from engine.stationmaster.rules.state import OFFICE_SQUARE, District, Square

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext

FACILITY_ROUTES = [("W", "E")]
OFFICE_ROUTES = [("W", "E")]


def new_district(player: int, office: str) -> District:
    district = District(player)
    district.squares[OFFICE_SQUARE] = Square(office, "office")
    return district


def routes_of(game: RulesContext, square: Square) -> list[tuple[str, str]]:
    """The rails a square carries, turned as the card was laid."""
    card = game.catalog.by_id[square.card]
    if isinstance(card, TrackShape):
        return rotate(card.routes, square.rotation)
    if square.kind in ("facility", "office"):
        return list(FACILITY_ROUTES)
    return []


def joins(game: RulesContext, district: District, x: int, y: int, routes: list[tuple[str, str]]) -> bool:
    """Whether a card with ``routes`` at (x, y) meets a neighbour's rails."""
    for port in ports(routes):
        nx, ny = neighbour(x, y, port)
        other = district.squares.get(key(nx, ny))
        if other is not None and OPPOSITE[port] in ports(routes_of(game, other)):
            return True
    return False


def _inside(district: District, x: int, y: int) -> bool:
    return district.west_limit < x < district.east_limit


def _plain_straight(game: RulesContext, square: Square | None) -> bool:
    if square is None or square.kind != "track":
        return False
    card = game.catalog.by_id[square.card]
    return isinstance(card, TrackShape) and [frozenset(r) for r in card.routes] == [frozenset(("W", "E"))]


def _busy(square: Square) -> tuple[str, str] | None:
    """Why a square's track cannot be replaced or built over: (code, text)."""
    if square.cars or square.caboose_of:
        return "track-has-cars", "cars are standing on it"
    if square.enhancement:
        return "track-has-enhancement", "it carries an Enhancement"
    return None


def placement_refusals(game: RulesContext, player: int, card: Card, x: int | None, y: int | None, rotation: int | None, *, verdict: bool = False) -> list[str]:
    """Every reason ``card`` cannot be placed at (x, y) in ``player``'s district.
    With ``verdict``, only whether it can: the answer may stop at the first
    reasons found (reasons the full answer gives too)."""
    if x is None or y is None:
        return [Reason("needs-square", f"{card.name} is placed in your district: give the square (x, y)")]
    # a square an attack in force holds (a rival's claim), then the card's own rules
    held: list[str] = [*square_refusals(game, player, x, y)]
    if verdict and held:
        return held
    return [*held, *_card_refusals(game, player, card, x, y, rotation, verdict)]


def _card_refusals(game: RulesContext, player: int, card: Card, x: int, y: int, rotation: int | None, verdict: bool = False) -> list[str]:
    district = game.state.districts[player]
    if isinstance(card, TrackShape):
        return _track_refusals(game, district, card, x, y, rotation or 0, verdict)
    if isinstance(card, Facility):
        return _facility_refusals(game, district, card, x, y, verdict)
    if isinstance(card, FacilityModifier):
        return _modifier_refusals(game, district, card, x, y)
    if isinstance(card, Enhancement):
        return _enhancement_refusals(game, district, card, x, y)
    return [Reason("not-placed-on-a-square", f"{card.name} is not placed on a square")]


def _track_refusals(game: RulesContext, district: District, card: TrackShape, x: int, y: int, rotation: int, verdict: bool = False) -> list[str]:
    reasons: list[str] = []
    routes = rotate(card.routes, rotation)
    on_limit = x in (district.west_limit, district.east_limit)
    if on_limit and y != 0:
        reasons.append(Reason("outside-limits", f"({x}, {y}) is outside your Limits"))
    elif not on_limit and not _inside(district, x, y):
        reasons.append(Reason("outside-limits", f"({x}, {y}) is outside your Limits (they stand at columns {district.west_limit} and {district.east_limit})"))
    if y == 0 and not has_through_route(routes):
        reasons.append(Reason("no-through-route", f"{card.name} has no east-west route, so it cannot stand on the Running Track"))
    if verdict and reasons:
        return reasons
    here = district.squares.get(key(x, y))
    if here is not None:
        reasons += _upgrade_refusals(game, card, routes, here)
        if verdict and reasons:
            return reasons
    if not joins(game, district, x, y, routes):
        reasons.append(Reason("joins-no-rail", f"{card.name} turned {rotation} degrees at ({x}, {y}) does not join any neighbouring rail"))
    return reasons


def _upgrade_refusals(game: RulesContext, card: TrackShape, routes: list[tuple[str, str]], here: Square) -> list[str]:
    existing = game.catalog.by_id[here.card]
    is_turnout = len(card.routes) > 1 and has_through_route(card.routes)
    if not is_turnout or here.kind != "track" or not isinstance(existing, TrackShape):
        return [Reason("square-taken", f"the square is taken by {existing.name}")]
    laid = {frozenset(r) for r in rotate(existing.routes, here.rotation)}
    mine = {frozenset(r) for r in routes}
    diverging = mine - {frozenset(("W", "E"))}
    if not (_plain_straight_card(existing) or (laid <= mine and laid <= diverging)):
        return [Reason("not-an-upgrade", f"a turnout may replace a straight, or a curve whose arc is exactly its diverging arc; {existing.name} as laid is neither")]
    busy = _busy(here)
    return [Reason(busy[0], f"the {existing.name} there cannot be replaced: {busy[1]}")] if busy else []


def _plain_straight_card(card: TrackShape) -> bool:
    return [frozenset(r) for r in card.routes] == [frozenset(("W", "E"))]


def _facility_refusals(game: RulesContext, district: District, card: Facility, x: int, y: int, verdict: bool = False) -> list[str]:
    reasons: list[str] = []
    if y == 0:
        reasons.append(Reason("industry-on-running-track", "an industry never stands on the Running Track"))
    if not _inside(district, x, y):
        reasons.append(Reason("outside-limits", f"({x}, {y}) is outside your Limits"))
    if verdict and reasons:
        return reasons
    here = district.squares.get(key(x, y))
    if here is not None:
        if not _plain_straight(game, here):
            reasons.append(Reason("not-a-plain-straight", f"an industry may only be built over a plain straight, not over {game.catalog.by_id[here.card].name}"))
        else:
            busy = _busy(here)
            if busy:
                reasons.append(Reason(busy[0], f"the straight there cannot be built over: {busy[1]}"))
    elif not joins(game, district, x, y, FACILITY_ROUTES):
        reasons.append(Reason("not-on-a-stub", f"({x}, {y}) is not on a connected stub: no rail joins it from the east or west"))
    if verdict and reasons:
        return reasons
    built = {s.card for s in district.squares.values() if s.kind == "facility"}
    if card.id in built:
        reasons.append(Reason("one-per-office-area", f"this Office Area already has a {card.name}"))
    for partner in card.lockouts:
        if partner in built:
            reasons.append(Reason("lockout-pair", f"{card.name} and {game.catalog.by_id[partner].name} are a lockout pair (one makes what the other takes); both cannot stand in one Office Area"))
    return reasons


def _hosts_beside(game: RulesContext, district: District, card: FacilityModifier, x: int, y: int) -> list[str]:
    found = []
    for port in ORTHOGONAL:
        nx, ny = neighbour(x, y, port)
        square = district.squares.get(key(nx, ny))
        if square is None:
            continue
        if card.hosts == "office" and square.kind == "office":
            found.append(key(nx, ny))
        elif card.hosts == "anyFreight" and square.kind == "facility":
            found.append(key(nx, ny))
        elif isinstance(card.hosts, tuple) and square.kind == "facility" and square.card in card.hosts:
            found.append(key(nx, ny))
    return found


def _modifier_refusals(game: RulesContext, district: District, card: FacilityModifier, x: int, y: int) -> list[str]:
    reasons: list[str] = []
    if y == 0:
        reasons.append(Reason("modifier-on-running-track", "a Modifier may not stand in the Running Track row"))
    if not _inside(district, x, y):
        reasons.append(Reason("outside-limits", f"({x}, {y}) is outside your Limits"))
    if key(x, y) in district.squares:
        reasons.append(Reason("square-taken", "a Modifier needs an empty square"))
    if any(s.kind == "modifier" and s.card == card.id for s in district.squares.values()):
        reasons.append(Reason("one-per-office-area", f"this Office Area already has a {card.name}; one of each kind"))
    if not _hosts_beside(game, district, card, x, y):
        what = "the Office" if card.hosts == "office" else "a facility it serves"
        reasons.append(Reason("not-beside-host", f"{card.name} must stand north, south, east or west of {what} (a corner does not touch)"))
    if card.passenger:
        office = game.catalog.by_id[game.state.office(district.player)]
        if isinstance(office, OfficeTier) and not office.passenger_facility:
            reasons.append(Reason("needs-passenger-facility", f"{card.name} needs a Passenger Facility, and a {office.name} is not one: upgrade the Office first"))
    return reasons


def _enhancement_refusals(game: RulesContext, district: District, card: Enhancement, x: int, y: int) -> list[str]:
    square = district.squares.get(key(x, y))
    if square is None or square.kind not in ("track", "office", "facility"):
        return [Reason("needs-rail", f"{card.name} goes onto a square of your district that carries rail")]
    if square.enhancement:
        return [Reason("square-has-enhancement", f"that square already carries {game.catalog.by_id[square.enhancement].name}")]
    if any(s.enhancement == card.id for s in district.squares.values()):
        return [Reason("one-per-district", f"your district already has {card.name}")]
    return []


def place(game: RulesContext, player: int, card: Card, x: int, y: int, rotation: int) -> None:
    """Put ``card`` on (x, y); a replaced card leaves play for the Salvage Yard."""
    s = game.state
    district = s.districts[player]
    district.revision += 1
    here = district.squares.get(key(x, y))
    if isinstance(card, Enhancement):
        assert here is not None
        here.enhancement = card.id
        s.log.append(f"{card.name} is built at ({x}, {y})")
        return
    if here is not None:
        s.salvage.append(here.card)
    if isinstance(card, TrackShape):
        district.squares[key(x, y)] = Square(card.id, "track", rotation)
        if y == 0 and x == district.west_limit:
            district.west_limit -= 1
        elif y == 0 and x == district.east_limit:
            district.east_limit += 1
        s.log.append(f"{card.name} is laid at ({x}, {y})" + (f", turned {rotation} degrees" if rotation else ""))
    elif isinstance(card, Facility):
        start = game.catalog.facility_start
        district.squares[key(x, y)] = Square(card.id, "facility", laborers=start.laborers, pipeline=[0] * len(start.pipeline))
        s.log.append(f"{card.name} is built at ({x}, {y})")
    elif isinstance(card, FacilityModifier):
        hosts = _hosts_beside(game, district, card, x, y)
        # Beside two hosts, it serves one that can use its grant, if any.
        host = next((h for h in hosts if grant_note(game, district, card, district.squares[h]) is None), hosts[0])
        district.squares[key(x, y)] = Square(card.id, "modifier", modifies=host)
        note = grant_note(game, district, card, district.squares[host])
        s.log.append(f"{card.name} stands beside {game.catalog.by_id[district.squares[host].card].name}" + (f": {note}" if note else ""))


def grant_note(game: RulesContext, district: District, card: FacilityModifier, host: Square) -> str | None:
    """Why a Modifier's grant does nothing for its host, or None when it counts."""
    hosted = game.catalog.by_id[host.card]
    if isinstance(hosted, Facility):
        if card.grant == "inboundBox" and hosted.traffic == "outbound":
            return f"its inbound box does nothing: {hosted.name} only ships"
        if card.grant == "outboundBox" and hosted.traffic == "inbound":
            return f"its outbound box does nothing: {hosted.name} only receives"
    return None


def capacity(game: RulesContext, district: District, square_key: str, grant: str) -> int:
    """The boxes or slots a Modifier adds to the square at ``square_key``."""
    extra = 0
    for square in district.squares.values():
        if square.kind == "modifier" and square.modifies == square_key:
            card = game.catalog.by_id[square.card]
            if isinstance(card, FacilityModifier) and card.grant == grant and grant_note(game, district, card, district.squares[square_key]) is None:
                extra += 1
    return extra


def open_ends(game: RulesContext, district: District) -> set[tuple[int, int]]:
    """Empty squares that some rail of the district points into (cached per
    district until the next card is placed there)."""
    stamp = (district.revision, len(district.squares))
    cached = game.open_ends_cache.get(district.player)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    found = _open_ends(game, district)
    game.open_ends_cache[district.player] = (stamp, found)
    return found


def _open_ends(game: RulesContext, district: District) -> set[tuple[int, int]]:
    squares = district.squares
    found: set[tuple[int, int]] = set()
    for square_key, square in squares.items():
        x, y = coords(square_key)
        for port in ports(routes_of(game, square)):
            nx, ny = neighbour(x, y, port)
            if key(nx, ny) not in squares:
                found.add((nx, ny))
    return found


def placement_candidates(game: RulesContext, player: int, card: Card, ends: set[tuple[int, int]] | None = None) -> list[tuple[int, int, int]]:
    """Squares (and turns) worth proposing for ``card``: beside an open end of
    the district's rails, or over a card it may replace, or beside a host.
    A proposal is only a proposal; ``placement_refusals`` still judges it."""
    district = game.state.districts[player]
    squares = district.squares
    open_ends_here = ends if ends is not None else open_ends(game, district)
    found: list[tuple[int, int, int]] = []
    if isinstance(card, TrackShape):
        turns = (0, 180) if card.handedness != "none" or len(card.routes) > 1 else (0,)
        spots = set(open_ends_here)
        if len(card.routes) > 1:
            spots.update(coords(k) for k, sq in squares.items() if sq.kind == "track")
        found = [(x, y, r) for x, y in sorted(spots) for r in turns]
    elif isinstance(card, Facility):
        spots = {(x, y) for x, y in open_ends_here if y != 0}
        spots.update(coords(k) for k, sq in squares.items() if _plain_straight(game, sq) and coords(k)[1] != 0)
        found = [(x, y, 0) for x, y in sorted(spots)]
    elif isinstance(card, FacilityModifier):
        spots = set()
        for square_key, square in squares.items():
            if square.kind in ("facility", "office"):
                x, y = coords(square_key)
                spots.update(neighbour(x, y, p) for p in ORTHOGONAL)
        found = [(x, y, 0) for x, y in sorted(spots) if key(x, y) not in squares and y != 0]
    elif isinstance(card, Enhancement):
        found = [(*coords(k), 0) for k, sq in sorted(squares.items()) if sq.kind in ("track", "office", "facility") and not sq.enhancement]
    return found
