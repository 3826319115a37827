"""Small inline SVG charts of simulation figures, for the rules site.

Two kinds, for any game: a box plot (one row per configuration, every row
on one shared axis, so spreads compare at a glance) and a shaded grid of
numbers (rows by columns, say cards by configurations: the number is always
written, the shade only helps the eye find the large ones).

As with the card pictures (``generator/stationmaster/svg.py``,
``generator/trickoftherails/svg.py``), a chart is one line of SVG (no XML
declaration, no newline, no ``|``, no ``id``), so it can sit in Markdown;
attributes come in a fixed order and every number is written the same way,
so the same figures always give the same bytes. Ink is ``currentColor``
(text, boxes, shades as a fraction of it) or a mid-grey (grid lines), so a
chart follows the text colour of the light and the dark theme alike and
never sets black or white. Each carries a ``<title>`` and a ``<desc>`` that
says in words what it shows, for screen readers and the search index.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

INK: Final = "currentColor"
GRID_COLOUR: Final = "#9e9e9e"  # mid-grey: visible on white and on the dark slate theme
FONT: Final = 12
CHAR_WIDTH: Final = 7.0  # a generous average advance at FONT, for sizing label columns
MARGIN: Final = 8
PLOT_WIDTH: Final = 400  # the box plot's axis, in the drawing's own units
ROW_HEIGHT: Final = 26
BOX_HEIGHT: Final = 14
AXIS_BAND: Final = 34  # tick labels and the axis name under the rows
CELL_WIDTH: Final = 58
CELL_HEIGHT: Final = 20
HEADER_BAND: Final = 22
SHADE_LOW: Final = 0.04  # the fill opacity of a zero, so every cell shows its edge
SHADE_HIGH: Final = 0.34  # the darkest shade: text in ``currentColor`` still reads on it


def num(value: float) -> str:
    """A number as the SVG writes it: at most two decimals, no trailing
    zeros, never ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def figure(value: float) -> str:
    """A figure as the words say it: to one decimal, without a trailing ``.0``."""
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _text(x: float, y: float, words: str, anchor: str, *, size: int = FONT, colour: str = INK) -> str:
    return f'<text x="{num(x)}" y="{num(y)}" font-size="{size}" text-anchor="{anchor}" fill="{colour}">{html.escape(words, quote=False)}</text>'


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: float) -> str:
    return f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" stroke="{colour}" stroke-width="{num(width)}"/>'


def _open(width: float, height: float, title: str, description: str) -> list[str]:
    label = html.escape(title, quote=True)
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" viewBox="0 0 {num(width)} {num(height)}" role="img" aria-label="{label}" style="max-width:none">',
        f"<title>{html.escape(title, quote=False)}</title>",
        f"<desc>{html.escape(description, quote=False)}</desc>",
    ]


def _label_width(labels: Sequence[str]) -> float:
    return max((len(label) for label in labels), default=0) * CHAR_WIDTH + MARGIN


def ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round tick values from ``low`` to at least ``high``: a step of 1, 2
    or 5 times a power of ten, the fewest ticks (at most ``most``) that
    cover the range; the last tick is the axis's end. The step is never
    below 1: the figures drawn are counts and scores, whole numbers, and a
    tick at 0.2 of a point would mark nothing a game can score."""
    if high <= low:
        high = low + 1
    span = high - low
    step = 1.0
    for power in range(0, 16):
        for factor in (1, 2, 5):
            step = factor * 10.0**power
            if math.ceil(span / step - 1e-9) + 1 <= most:
                break
        else:
            continue
        break
    start = math.floor(low / step + 1e-9) * step
    count = math.ceil((high - start) / step - 1e-9)
    return [round(start + i * step, 6) for i in range(count + 1)]


@dataclass(frozen=True)
class BoxRow:
    """One configuration's spread: the least, the quartiles, the most, and
    the mean (drawn as a dot, since a skewed spread puts it off the median)."""

    label: str
    minimum: float
    lower_quartile: float
    median: float
    upper_quartile: float
    maximum: float
    mean: float

    def words(self) -> str:
        return (
            f"{self.label}: from {figure(self.minimum)} to {figure(self.maximum)}, the middle half from {figure(self.lower_quartile)} "
            f"to {figure(self.upper_quartile)}, median {figure(self.median)}, mean {figure(self.mean)}"
        )


def box_plot_svg(rows: Sequence[BoxRow], title: str, unit: str) -> str:
    """One box a row, all on one axis from a round number at or below the
    least figure (zero where all are positive) to one at or above the most.
    The whisker spans least to most, the box the middle half, the thick
    stroke the median and the dot the mean. ``unit`` names the axis."""
    if not rows:
        raise ValueError("a box plot needs at least one row")
    low = min(0.0, min(r.minimum for r in rows))
    high = max(r.maximum for r in rows)
    marks = ticks(low, high)
    start, end = marks[0], marks[-1]
    labels = _label_width([r.label for r in rows])
    left = MARGIN + labels
    width = left + PLOT_WIDTH + 2 * MARGIN
    height = MARGIN + len(rows) * ROW_HEIGHT + AXIS_BAND

    def x(value: float) -> float:
        return left + (value - start) / (end - start) * PLOT_WIDTH

    bottom = MARGIN + len(rows) * ROW_HEIGHT
    description = f"Box plot on one axis of {unit} from {figure(start)} to {figure(end)}, one row each. " + "; ".join(r.words() for r in rows) + "."
    parts = _open(width, height, title, description)
    for mark in marks:
        parts.append(_line(x(mark), MARGIN, x(mark), bottom, GRID_COLOUR, 0.5))
        parts.append(_text(x(mark), bottom + 14, figure(mark), "middle"))
    parts.append(_text(left + PLOT_WIDTH / 2, bottom + 29, unit, "middle"))
    for index, row in enumerate(rows):
        middle = MARGIN + index * ROW_HEIGHT + ROW_HEIGHT / 2
        top = middle - BOX_HEIGHT / 2
        parts.append(_text(left - MARGIN, middle + 4, row.label, "end"))
        parts.append(_line(x(row.minimum), middle, x(row.maximum), middle, INK, 1.5))
        for end_value in (row.minimum, row.maximum):
            parts.append(_line(x(end_value), middle - 5, x(end_value), middle + 5, INK, 1.5))
        box = x(row.upper_quartile) - x(row.lower_quartile)
        parts.append(f'<rect x="{num(x(row.lower_quartile))}" y="{num(top)}" width="{num(box)}" height="{num(BOX_HEIGHT)}" fill="{INK}" fill-opacity="0.18" stroke="{INK}" stroke-width="1.5"/>')
        parts.append(_line(x(row.median), top - 2, x(row.median), top + BOX_HEIGHT + 2, INK, 3.5))
        parts.append(f'<circle cx="{num(x(row.mean))}" cy="{num(middle)}" r="3" fill="{INK}" stroke="none"/>')
    parts.append("</svg>")
    return "".join(parts)


def grid_svg(
    rows: Sequence[str],
    columns: Sequence[str],
    values: Sequence[Sequence[float | None]],
    title: str,
    description: str,
    written: Callable[[float], str],
    highest: float | None = None,
) -> str:
    """A grid of numbers, ``values[r][c]`` for row ``rows[r]`` and column
    ``columns[c]``, each written by ``written`` in its cell over a shade of
    the text colour that grows with it (to ``highest``, or the largest
    value). A missing value (None) is a dashed empty cell with a dash.
    ``description`` says in words what the grid holds."""
    if not rows or not columns:
        raise ValueError("a grid needs at least one row and one column")
    if len(values) != len(rows) or any(len(line) != len(columns) for line in values):
        raise ValueError("a grid needs one value for each row and column")
    present = [v for line in values for v in line if v is not None]
    top = highest if highest is not None else max(present, default=0.0)
    labels = _label_width(rows)
    column_width = max(CELL_WIDTH, _label_width(columns))
    left = MARGIN + labels
    width = left + len(columns) * column_width + MARGIN
    height = MARGIN + HEADER_BAND + len(rows) * CELL_HEIGHT + MARGIN
    parts = _open(width, height, title, description)
    for c, heading in enumerate(columns):
        parts.append(_text(left + c * column_width + column_width / 2, MARGIN + HEADER_BAND - 7, heading, "middle"))
    for r, (row, line) in enumerate(zip(rows, values)):
        y = MARGIN + HEADER_BAND + r * CELL_HEIGHT
        parts.append(_text(left - MARGIN, y + CELL_HEIGHT / 2 + 4, row, "end"))
        for c, value in enumerate(line):
            x = left + c * column_width
            if value is None:
                parts.append(
                    f'<rect x="{num(x + 1)}" y="{num(y + 1)}" width="{num(column_width - 2)}" height="{num(CELL_HEIGHT - 2)}" '
                    f'fill="none" stroke="{GRID_COLOUR}" stroke-width="1" stroke-dasharray="3 3"/>'
                )
                parts.append(_text(x + column_width / 2, y + CELL_HEIGHT / 2 + 4, "–", "middle", colour=GRID_COLOUR))
                continue
            share = min(max(value / top, 0.0), 1.0) if top > 0 else 0.0
            parts.append(
                f'<rect x="{num(x + 1)}" y="{num(y + 1)}" width="{num(column_width - 2)}" height="{num(CELL_HEIGHT - 2)}" '
                f'fill="{INK}" fill-opacity="{num(SHADE_LOW + share * (SHADE_HIGH - SHADE_LOW))}" stroke="none"/>'
            )
            parts.append(_text(x + column_width / 2, y + CELL_HEIGHT / 2 + 4, written(value), "middle"))
    parts.append("</svg>")
    return "".join(parts)
