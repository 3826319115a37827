"""Inline SVG pictures of the Trick Lane, for the rules site.

As with Station Master's track pictures (``generator/stationmaster/svg.py``), a
slot's picture is one line of SVG (no XML declaration, no newline, no ``|``,
no ``id``), the same lane always gives the same text, attributes come in a
fixed order and every number is written the same way. Each slot carries a
``<title>`` saying what it holds; the lane is a group named by its title.

A slot is a card under its trick number, drawn as a small picture of its
own: the lane is a row of them that wraps where the page ends
(``lane_html``), so on a phone it takes more rows instead of shrinking, and
no text is drawn smaller than ``MIN_FONT`` CSS pixels at any width. Its
fill says the kind of trick (amber: stock, blue: operating), a dashed outline says setup draws the card at random from more
cards than there are slots, and a slot whose card brings another (the [6]
and the [∞]) is drawn as two stacked cards in one slot. Text and outlines
use ``currentColor`` or a mid-grey, so the picture reads on the light and the
dark theme alike.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

CARD_WIDTH = 72
CARD_HEIGHT = 84
NUMBER_BAND = 18  # room above a card for its trick number
MARGIN = 2  # room for half an outline at the picture's edges
# The smallest text drawn, in CSS pixels: a slot is never scaled (the lane
# wraps instead), so this is what a reader sees at any width.
MIN_FONT = 11
STACK_OFFSET = 5  # how far the card behind shows, in a slot of two cards
CORNER = 6
STOCK_FILL = "#ffb300"  # amber
OPERATING_FILL = "#1e88e5"  # blue: told from amber in either theme, and by most colour-blind readers
FILL_OPACITY = 0.3
OUTLINE_COLOUR = "#9e9e9e"  # mid-grey: visible on white and on the dark slate theme
OUTLINE_WIDTH = 1.5
DRAWN_DASH = "6 4"
TEXT_COLOUR = "currentColor"
NOTE_WORDS = {"drawn": "drawn at random", "shuffled": "shuffled"}


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

    def label(self, number: int) -> str:
        """The slot in words, for a screen reader and the tooltip."""
        what = " ".join(part for part in (self.kind, self.mark) if part)
        if self.follower:
            what += f" with {self.follower}"
        if self.note:
            what += f", {NOTE_WORDS.get(self.note, self.note)}"
        return f"Trick {number}: {what}; {'a stock' if self.stock else 'an operating'} trick"


def _num(value: float) -> str:
    """A number as the SVG writes it: no trailing zeros, never ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _text(x: float, y: float, words: str, size: float, *, bold: bool = False, italic: bool = False, colour: str = TEXT_COLOUR) -> str:
    assert size >= MIN_FONT, f"text of {size} px would be smaller than {MIN_FONT} px"
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
            parts.append(_text(middle, y + 17 + 13 * i, line, MIN_FONT))
        parts.append(_text(middle, y + 46, slot.mark, 22, bold=True))
        if slot.follower:
            parts.append(_text(middle, y + 65, "+ " + slot.follower, 14, bold=True))
    else:
        top = y + height / 2 + 4 - 7 * (len(lines) - 1)
        for i, line in enumerate(lines):
            parts.append(_text(middle, top + 14 * i, line, MIN_FONT, bold=True))
    if slot.note:
        parts.append(_text(middle, y + height - 9, slot.note, MIN_FONT, italic=True))
    return parts


def slot_svg(number: int, slot: SlotPicture) -> str:
    """One line of inline SVG: the slot of trick ``number`` (1-based), its
    number above the card."""
    width = CARD_WIDTH + 2 * MARGIN
    height = NUMBER_BAND + CARD_HEIGHT + 2 * MARGIN
    label = slot.label(number)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(label, quote=True)}">',
        f"<title>{html.escape(label, quote=False)}</title>",
        _text(MARGIN + CARD_WIDTH / 2, MARGIN + NUMBER_BAND - 6, str(number), MIN_FONT, colour=OUTLINE_COLOUR),
        *_slot(MARGIN, MARGIN + NUMBER_BAND, slot),
        "</svg>",
    ]
    return "".join(parts)


def lane_html(slots: Sequence[SlotPicture], title: str) -> str:
    """The lane's ``slots``, left to right, as a group of slot pictures, one
    a line, that the page wraps into rows (``.trick-lane`` in the site's
    stylesheet): HTML for a Markdown page, with no blank line in it."""
    if not slots:
        raise ValueError("a lane has at least one slot")
    lines = [f'<div class="trick-lane" role="group" aria-label="{html.escape(title, quote=True)}">']
    lines += [slot_svg(number, slot) for number, slot in enumerate(slots, start=1)]
    lines.append("</div>")
    return "\n".join(lines)
