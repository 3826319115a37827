"""Ports, rotation and how squares join: the grid under every district."""

from __future__ import annotations

from collections.abc import Iterable

DELTA = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}
OPPOSITE = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}
ORTHOGONAL = ("N", "E", "S", "W")
EAST_WEST = frozenset(("W", "E"))
Route = tuple[str, str]


def key(x: int, y: int) -> str:
    return f"{x},{y}"


def coords(square_key: str) -> tuple[int, int]:
    x, y = square_key.split(",")
    return int(x), int(y)


def rotate(routes: Iterable[Route], rotation: int) -> list[Route]:
    """Half a turn swaps every port for its opposite; a flip is never possible."""
    if rotation == 180:
        return [(OPPOSITE[a], OPPOSITE[b]) for a, b in routes]
    return list(routes)


def ports(routes: Iterable[Route]) -> set[str]:
    return {p for route in routes for p in route}


def neighbour(x: int, y: int, port: str) -> tuple[int, int]:
    dx, dy = DELTA[port]
    return x + dx, y + dy


def has_through_route(routes: Iterable[Route]) -> bool:
    return any(frozenset(r) == EAST_WEST for r in routes)
