"""Small inline SVG pictures of track cards, for the rules site.

A picture is one line of SVG (no XML declaration, no newline, no ``|``), so it
can sit inside a Markdown table cell. The same routes always give the same
text: attributes come in a fixed order and every number is written the same
way. Nothing here knows about MkDocs; the picture is plain SVG.

The card is drawn in a 100 × 100 box: a mid-grey outline of the square, and
each route as a thick rail between its two ports on the edge (sides at the
edge midpoints, corners at the corners). Two opposite ports are joined by a
straight line; any other pair by a quadratic Bézier curve whose control point
is the centre of the card, so a rail leaves each port heading into the card
the way a train would. Rails use ``currentColor``, so they follow the text
colour of the light and the dark theme alike.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from engine.stationmaster.rules.geometry import OPPOSITE

BOX = 100  # the drawing's own units; ``size`` only scales it
INSET = 5  # the outline sits this far inside the box, leaving room for round rail ends
CENTRE = BOX / 2
RAIL_WIDTH = 9
OUTLINE_WIDTH = 2
OUTLINE_COLOUR = "#9e9e9e"  # mid-grey: visible on white and on the dark slate theme
RAIL_COLOUR = "currentColor"

_LOW, _HIGH = INSET, BOX - INSET
PORT_POINT: dict[str, tuple[float, float]] = {
    "N": (CENTRE, _LOW),
    "NE": (_HIGH, _LOW),
    "E": (_HIGH, CENTRE),
    "SE": (_HIGH, _HIGH),
    "S": (CENTRE, _HIGH),
    "SW": (_LOW, _HIGH),
    "W": (_LOW, CENTRE),
    "NW": (_LOW, _LOW),
}


def _num(value: float) -> str:
    """A number as the SVG writes it: no trailing zeros, never ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _point(x: float, y: float) -> str:
    return f"{_num(x)} {_num(y)}"


def route_label(routes: Iterable[tuple[str, str]]) -> str:
    """The routes in words, as the track table's Routes column spells them."""
    return ", ".join(f"{a}–{b}" for a, b in routes)


def route_path(a: str, b: str) -> str:
    """The ``d`` of one rail: a straight line between opposite ports, else a
    curve bent through the middle of the card."""
    if a not in PORT_POINT or b not in PORT_POINT:
        raise ValueError(f"unknown port in route {a}–{b}")
    start, end = PORT_POINT[a], PORT_POINT[b]
    if OPPOSITE[a] == b:
        return f"M {_point(*start)} L {_point(*end)}"
    return f"M {_point(*start)} Q {_point(CENTRE, CENTRE)} {_point(*end)}"


def track_svg(routes: Iterable[tuple[str, str]], size: int = 64) -> str:
    """One line of inline SVG showing a track card with ``routes``."""
    if size <= 0:
        raise ValueError("size must be positive")
    pairs = [(str(a), str(b)) for a, b in routes]
    label = html.escape("Track routes: " + (route_label(pairs) or "none"), quote=True)
    side = BOX - 2 * INSET
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {BOX} {BOX}" role="img" aria-label="{label}">',
        f"<title>{label}</title>",
        f'<rect x="{_num(INSET)}" y="{_num(INSET)}" width="{_num(side)}" height="{_num(side)}" fill="none" stroke="{OUTLINE_COLOUR}" stroke-width="{_num(OUTLINE_WIDTH)}"/>',
    ]
    for a, b in pairs:
        parts.append(f'<path d="{route_path(a, b)}" fill="none" stroke="{RAIL_COLOUR}" stroke-width="{_num(RAIL_WIDTH)}" stroke-linecap="round"/>')
    parts.append("</svg>")
    return "".join(parts)
