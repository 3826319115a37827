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


LEGEND = "(north is up; ~ turned 180°; * enhanced; 2c: 2 cars standing; +cab: a caboose standing)"


def district_grid(game: Game, player: int, width: int | None = None) -> list[str]:
    """The district as a grid: rows by y (north at the top), columns by x from
    the west Limits sign to the east one; row 0 is the Running Track. A grid
    wider than ``width`` is drawn in bands of columns, west ones first."""
    district = game.state.districts[player]
    squares = {coords(k): sq for k, sq in district.squares.items()}
    xs = [x for x, _ in squares] + [district.west_limit, district.east_limit]
    ys = [y for _, y in squares] + [0]
    columns = list(range(min(xs), max(xs) + 1))
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
    cell = max([len(c) for c in cells.values()] + [len(f"x={x}") for x in columns]) + 1
    mark = "  <- Running Track"
    per_band = len(columns) if width is None else max(1, (width - 8) // cell)
    lines: list[str] = []
    for at in range(0, len(columns), per_band):
        band = columns[at : at + per_band]
        lines.append("        " + "".join(f"{f'x={x}':<{cell}}" for x in band).rstrip())
        for y in rows:
            row = f"  y={y:<3} " + "".join(f"{cells[x, y]:<{cell}}" for x in band).rstrip()
            fits = width is None or len(row) + len(mark) <= width
            lines.append(row + (mark if y == 0 and fits else ""))
    return lines


def district_heading(game: Game, player: int) -> str:
    district = game.state.districts[player]
    office = card_name(game, game.state.office(player))
    return f"District {player} (its Office: {office}); its Limits signs stand at columns {district.west_limit} and {district.east_limit}:"


def district_details(game: Game, player: int) -> list[str]:
    """Each square of the district in a line of words, north to south."""
    district = game.state.districts[player]
    return [_square_detail(game, district, k, sq) for k, sq in sorted(district.squares.items(), key=lambda kv: coords(kv[0])[::-1])]


def render_district(game: Game, player: int, width: int | None = None) -> str:
    """The district's grid, its legend and each square in words."""
    return "\n".join([district_heading(game, player), *district_grid(game, player, width), f"  {LEGEND}", *district_details(game, player)])


def district_brief(game: Game, player: int) -> list[str]:
    """The district in a line or two: its Office, its Limits, what works there."""
    district = game.state.districts[player]
    office = card_name(game, game.state.office(player))
    works = []
    cars = 0
    for where, square in sorted(district.squares.items(), key=lambda kv: coords(kv[0])[::-1]):
        cars += len(square.cars)
        card = game.catalog.by_id.get(square.card)
        if isinstance(card, Facility):
            x, y = coords(where)
            works.append(f"{card.name} ({x}, {y})")
    tracks = sum(1 for square in district.squares.values() if square.kind == "track")
    head = f"District {player}: Office {office}, Limits at columns {district.west_limit} and {district.east_limit}, {counted(tracks, 'track card')}"
    head += f", {counted(cars, 'car')} standing" if cars else ""
    return [head + (f"; facilities: {', '.join(works)}" if works else "; no facility yet")]
