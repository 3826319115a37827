"""A district as a grid, and each of its squares in a line of words."""

from __future__ import annotations

from command.stationmaster.screen.names import TRAFFIC_WORDS, car_types, card_name, describe_cars, grid_cell, train_label
from command.words import counted
from engine.stationmaster.content.model import Facility, FacilityModifier, OfficeTier
from engine.stationmaster.rules.district import grant_note
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import coords
from engine.stationmaster.rules.state import District, Square


def _square_detail(game: Game, district: District, where: str, square: Square) -> str:
    x, y = coords(where)
    card = game.catalog.by_id.get(square.card)
    text = f"  ({x}, {y}) {card_name(game, square.card)}"
    if square.rotation == 180:
        text += ", turned 180°"
    if isinstance(card, Facility):
        boxes = ", ".join(f"{box} {n}" for box, n in zip(game.catalog.facility_start.pipeline, square.pipeline))
        text += f" ({TRAFFIC_WORDS.get(card.traffic, card.traffic)} {card.commodity} in {car_types(card.car_types)}): {counted(square.laborers, 'Laborer')}"
        if boxes:
            text += f"; loads in its boxes: {boxes}"
        if card.traffic != "inbound":
            text += f"; {counted(square.waiting, 'load')} waiting for a car"
    elif isinstance(card, FacilityModifier) and square.modifies:
        hx, hy = coords(square.modifies)
        host = district.squares.get(square.modifies)
        idle = grant_note(game, district, card, host) if host is not None else None
        if host is None or idle is not None:
            text += f", beside the {card_name(game, host.card) if host else 'card'} at ({hx}, {hy}), where {idle or 'it does nothing'}"
        else:
            text += f", serving the {card_name(game, host.card)} at ({hx}, {hy})"
    elif isinstance(card, OfficeTier):
        text += f" (Office: {counted(card.ad_tracks, 'A/D track')})"
    if square.cars:
        text += f"; standing there: {describe_cars(square.cars)}"
    if square.caboose_of:
        text += f"; the caboose of {train_label(game, square.caboose_of)}"
    if square.enhancement:
        text += f"; enhancement: {card_name(game, square.enhancement)}"
    return text


def render_district(game: Game, player: int) -> str:
    """The district as a grid: rows by y (north at the top), columns by x from
    the west Limits sign to the east one; row 0 is the Running Track."""
    district = game.state.districts[player]
    squares = {coords(k): sq for k, sq in district.squares.items()}
    xs = [x for x, _ in squares] + [district.west_limit, district.east_limit]
    ys = [y for _, y in squares] + [0]
    columns = range(min(xs), max(xs) + 1)
    rows = range(min(ys), max(ys) + 1)  # y grows southward: north is up
    cells: dict[tuple[int, int], str] = {}
    for x in columns:
        for y in rows:
            square = squares.get((x, y))
            if square is not None:
                cells[x, y] = grid_cell(game, square)
            elif y == 0 and x == district.west_limit:
                cells[x, y] = "|W Limits"
            elif y == 0 and x == district.east_limit:
                cells[x, y] = "E Limits|"
            elif district.west_limit < x < district.east_limit:
                cells[x, y] = "."
            else:
                cells[x, y] = ""
    width = max([len(c) for c in cells.values()] + [len(f"x={x}") for x in columns]) + 1
    office = card_name(game, game.state.office(player))
    lines = [f"District {player} (its Office: {office}); its Limits signs stand at columns {district.west_limit} and {district.east_limit}:"]
    lines.append("        " + "".join(f"{f'x={x}':<{width}}" for x in columns).rstrip())
    for y in rows:
        row = "".join(f"{cells[x, y]:<{width}}" for x in columns).rstrip()
        mark = "  <- Running Track" if y == 0 else ""
        lines.append(f"  y={y:<3} {row}{mark}")
    lines.append("  (north is up; ~ turned 180°, * carries an enhancement, 2c two cars standing, +cab a caboose standing)")
    lines += [_square_detail(game, district, k, sq) for k, sq in sorted(district.squares.items(), key=lambda kv: coords(kv[0])[::-1])]
    return "\n".join(lines)
