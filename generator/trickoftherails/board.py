"""The table of a game in progress as HTML, for the trick-by-trick page: a
hand and the Trick Lane as rows of named cards, and the railways as a
table, one company a row, each card showing its number (or its kind) over
its station value.

Both are text laid out by the site's stylesheet (``.totr-lane``,
``.totr-railways``), not pictures: they wrap on a narrow screen and never
shrink, and a screen reader reads a list and a table. Each is one line of
HTML with no ``|`` and no ``id``, the same input always giving the same
text, so it sits in a generated block of a Markdown page."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from engine.trickoftherails.content.model import Card
from engine.trickoftherails.rules.lanecards import trick_kind
from generator.trickoftherails.walkthrough import Railway


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def lane_list(cards: Sequence[Card], label: str) -> str:
    """The lane's cards, front first, each marked by the kind of trick it
    makes (``stock`` or ``operating``); the front one is marked ``front``."""
    items = []
    for i, card in enumerate(cards):
        classes = ["stock" if trick_kind(card) == "stock" else "operating"] + (["front"] if i == 0 else [])
        items.append(f'<li class="{" ".join(classes)}">{_e(card.name)}</li>')
    return f'<ol class="totr-lane" aria-label="{_e(label)}">{"".join(items)}</ol>'


def hand_list(cards: Sequence[Card], label: str) -> str:
    """A hand of cards, each kept on one line (``B&O 10`` never splits)."""
    items = "".join(f"<li>{_e(card.name)}</li>" for card in cards)
    return f'<ul class="totr-hand" aria-label="{_e(label)}">{items}</ul>'


def _face(card: Card) -> str:
    """What a card shows in its railway: a Railway card its number, any
    other its name (a Station as the word)."""
    if card.family == "railway" and card.number is not None:
        return str(card.number)
    return "Station" if card.family == "stations" else card.name


def railways_table(railways: Sequence[Railway], caption: str) -> str:
    """The railways, one company a row: its Locomotive (if any) at the head,
    then its cards left to right, each card laid this trick marked ``new``;
    and what a share would be worth if the game ended now."""
    rows = []
    for railway in railways:
        items = []
        if railway.locomotive is not None:
            marked = " new" if railway.new_locomotive else ""
            items.append(f'<li class="loco{marked}">{_e(railway.locomotive.name.removeprefix("Locomotive "))}</li>')
        for i, card in enumerate(railway.cards):
            marked = ' class="new"' if i in railway.new else ""
            items.append(f"<li{marked}><b>{_e(_face(card))}</b> <small>{card.station_value or 0}</small></li>")
        # A colour word of the content (blue, gray) marks the row; anything else is left out.
        colour = railway.company.colour
        style = f' style="border-left-color:{colour}"' if re.fullmatch(r"[a-z]+", colour) else ""
        rows.append(f'<tr><th scope="row"{style}>{_e(railway.company.name)}</th><td><ol class="totr-rail">{"".join(items)}</ol></td><td>{railway.share_value}</td></tr>')
    head = '<thead><tr><th scope="col">Company</th><th scope="col">Locomotive and railway, left to right</th><th scope="col">Share now</th></tr></thead>'
    return f'<table class="totr-railways"><caption>{_e(caption)}</caption>{head}<tbody>{"".join(rows)}</tbody></table>'
