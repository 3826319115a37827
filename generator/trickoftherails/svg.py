"""Inline SVG pictures of the Trick Lane, for the rules site.

As with Station Master's track pictures (``generator/stationmaster/svg.py``), a
picture is one line of SVG (no XML declaration, no newline, no ``|``, no
``id``), the same lane always gives the same text, attributes come in a fixed
order and every number is written the same way. It carries a ``<title>`` and
a ``<desc>`` that says, slot by slot, what the picture shows.

A slot is a card drawn left to right under its trick number, in rows of at
most ``MAX_PER_ROW``. Its fill says the kind of trick (amber: stock, blue:
operating), a dashed outline says setup draws the card at random from more
cards than there are slots, and a slot whose card brings another (the [6]
and the [∞]) is drawn as two stacked cards in one slot. Text and outlines
use ``currentColor`` or a mid-grey, so the picture reads on the light and the
dark theme alike.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

CARD_WIDTH = 68
CARD_HEIGHT = 92
GAP = 8
NUMBER_BAND = 18  # room above a card for its trick number
ROW_GAP = 12
MARGIN = 6
MAX_PER_ROW = 9
STACK_OFFSET = 5  # how far the card behind shows, in a slot of two cards
CORNER = 6
STOCK_FILL = "#ffb300"  # amber
OPERATING_FILL = "#1e88e5"  # blue: told from amber in either theme, and by most colour-blind readers
FILL_OPACITY = 0.3
OUTLINE_COLOUR = "#9e9e9e"  # mid-grey: visible on white and on the dark slate theme
OUTLINE_WIDTH = 1.5
DRAWN_DASH = "6 4"
TEXT_COLOUR = "currentColor"


@dataclass(frozen=True)
class SlotPicture:
    """What one slot shows: the kind of card, its printed mark (a Locomotive's
    number), the mark of a card that comes with it, a one-word note, and how
    it is drawn."""

    kind: str
    mark: str = ""
    follower: str = ""
    note: str = ""
    stock: bool = True
    drawn: bool = False


def _num(value: float) -> str:
    """A number as the SVG writes it: no trailing zeros, never ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _text(x: float, y: float, words: str, size: float, *, bold: bool = False, italic: bool = False, colour: str = TEXT_COLOUR) -> str:
    style = (' font-weight="bold"' if bold else "") + (' font-style="italic"' if italic else "")
    return f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" text-anchor="middle" fill="{colour}"{style}>{html.escape(words, quote=False)}</text>'


def _card(x: float, y: float, width: float, height: float, stock: bool, drawn: bool) -> str:
    dash = f' stroke-dasharray="{DRAWN_DASH}"' if drawn else ""
    fill = STOCK_FILL if stock else OPERATING_FILL
    return (
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" rx="{_num(CORNER)}" '
        f'fill="{fill}" fill-opacity="{_num(FILL_OPACITY)}" stroke="{OUTLINE_COLOUR}" stroke-width="{_num(OUTLINE_WIDTH)}"{dash}/>'
    )


def _card_behind(x: float, y: float, width: float, height: float, stock: bool, drawn: bool) -> str:
    """The part of a second card, set ``STACK_OFFSET`` down and right, that
    shows past the edges of the card in front (so no outline shows through it)."""
    o = STACK_OFFSET
    corners = [(x + width, y + o), (x + width + o, y + o), (x + width + o, y + height + o), (x + o, y + height + o), (x + o, y + height), (x + width, y + height)]
    points = " ".join(f"{_num(a)},{_num(b)}" for a, b in corners)
    dash = f' stroke-dasharray="{DRAWN_DASH}"' if drawn else ""
    fill = STOCK_FILL if stock else OPERATING_FILL
    return f'<polygon points="{points}" fill="{fill}" fill-opacity="{_num(FILL_OPACITY)}" stroke="{OUTLINE_COLOUR}" stroke-width="{_num(OUTLINE_WIDTH)}" stroke-linejoin="round"{dash}/>'


def rows_of(count: int) -> list[int]:
    """How many slots each row holds: as few rows as ``MAX_PER_ROW`` allows,
    the longer rows first and none longer than another by more than one."""
    if count <= 0:
        return []
    rows = -(-count // MAX_PER_ROW)
    base, extra = divmod(count, rows)
    return [base + 1 if r < extra else base for r in range(rows)]


def _slot(x: float, y: float, slot: SlotPicture) -> list[str]:
    parts: list[str] = []
    width, height = CARD_WIDTH, CARD_HEIGHT
    if slot.follower:
        width, height = CARD_WIDTH - STACK_OFFSET, CARD_HEIGHT - STACK_OFFSET
        parts.append(_card_behind(x, y, width, height, slot.stock, slot.drawn))
    parts.append(_card(x, y, width, height, slot.stock, slot.drawn))
    middle = x + width / 2
    lines = slot.kind.replace(" or ", " or|").split("|")
    if slot.mark:
        for i, line in enumerate(lines):
            parts.append(_text(middle, y + 16 + 12 * i, line, 10))
        parts.append(_text(middle, y + 50, slot.mark, 22, bold=True))
        if slot.follower:
            parts.append(_text(middle, y + 70, "+ " + slot.follower, 14, bold=True))
    else:
        top = y + height / 2 + 4 - 7 * (len(lines) - 1)
        for i, line in enumerate(lines):
            parts.append(_text(middle, top + 14 * i, line, 11, bold=True))
    if slot.note:
        parts.append(_text(middle, y + height - 8, slot.note, 10, italic=True))
    return parts


def lane_svg(slots: Sequence[SlotPicture], title: str, description: str) -> str:
    """One line of inline SVG showing the lane's ``slots``, left to right."""
    if not slots:
        raise ValueError("a lane has at least one slot")
    rows = rows_of(len(slots))
    step = CARD_WIDTH + GAP
    row_height = NUMBER_BAND + CARD_HEIGHT + ROW_GAP
    width = 2 * MARGIN + rows[0] * step - GAP
    height = 2 * MARGIN + len(rows) * row_height - ROW_GAP
    label = html.escape(title, quote=True)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{label}" style="max-width:100%;height:auto">',
        f"<title>{html.escape(title, quote=False)}</title>",
        f"<desc>{html.escape(description, quote=False)}</desc>",
    ]
    index = 0
    for row, length in enumerate(rows):
        top = MARGIN + row * row_height
        for column in range(length):
            x = MARGIN + column * step
            parts.append(_text(x + CARD_WIDTH / 2, top + NUMBER_BAND - 5, str(index + 1), 11, colour=OUTLINE_COLOUR))
            parts.extend(_slot(x, top + NUMBER_BAND, slots[index]))
            index += 1
    parts.append("</svg>")
    return "".join(parts)
