"""Every card as an entry of its own in the site's search index.

A reader who searches for a card's name wants its row, not the top of a page
that happens to mention it. The rows are the generated tables themselves, so
the entries are read from each page's finished HTML: one entry per card
anchor (``<a id="card-<id>">``), titled with the card's name from the catalog
and holding the text of its row. What the table shows and what search finds
can therefore never disagree.

The index format is Material for MkDocs' ``search/search_index.json``:
``{"config": ..., "docs": [{"location", "title", "text", ...}]}``, where a
document whose location is ``page.html#anchor`` counts as a section of the
document at ``page.html``, which must come earlier in the list. This module
only transforms text; the MkDocs adapter reads and writes the file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

from generator.cells import visible

CARD_ANCHOR = "card-"

# A card's entry weighs this many times its page's sections, so it ranks
# above a section of the same page whose heading contains the card's name.
CARD_BOOST = 4.0


@dataclass(frozen=True)
class CardEntry:
    """One card's search document: where its row is, its name, its row's text."""

    location: str
    title: str
    text: str
    boost: float

    def as_document(self) -> dict[str, object]:
        return {"location": self.location, "title": self.title, "text": self.text, "boost": self.boost}


def _markup_safe(text: str) -> str:
    """Text the result list may insert as HTML without making elements, and
    with any control or bidi character shown by its code point (as the
    tables show it) rather than reordering or hiding the text around it.

    Only ``<`` and ``>`` are escaped: the index is searched as written, and
    an escaped ``&`` would make a name such as "A&Z 1" unfindable by typing "A&Z"."""
    return visible(text).replace("<", "&lt;").replace(">", "&gt;")


class _RowReader(HTMLParser):
    """Collects every table row holding a card anchor: each anchor with the
    index of its cell, and the text of every cell."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[tuple[list[tuple[str, int]], list[str]]] = []
        self._anchors: list[tuple[str, int]] | None = None
        self._cells: list[str] = []
        self._cell: list[str] | None = None
        self._svg_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self._svg_depth += 1
        elif tag == "tr":
            self._anchors, self._cells = [], []
        elif tag in ("td", "th") and self._anchors is not None:
            self._cell = []
        elif tag == "a" and self._anchors is not None:
            anchor = dict(attrs).get("id") or ""
            if anchor.startswith(CARD_ANCHOR):
                self._anchors.append((anchor[len(CARD_ANCHOR) :], len(self._cells)))

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self._svg_depth = max(0, self._svg_depth - 1)
        elif tag in ("td", "th") and self._cell is not None:
            self._cells.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._anchors is not None:
            if self._anchors:
                self.rows.append((self._anchors, self._cells))
            self._anchors = None

    def handle_data(self, data: str) -> None:
        # A picture's <title> repeats what a cell already says in words.
        if self._cell is not None and not self._svg_depth:
            self._cell.append(data)


def card_entries(page_html: str, page_location: str, names: Mapping[str, str], page_boost: float = 1.0) -> list[CardEntry]:
    """The entries of every card whose row is on this page, in page order.

    ``names`` maps card ids to names; an anchor naming no card is not a card's
    row and is left out. ``page_boost`` is the page's own search boost."""
    reader = _RowReader()
    reader.feed(page_html)
    reader.close()
    entries: list[CardEntry] = []
    seen: set[str] = set()
    for anchors, cells in reader.rows:
        for card_id, own_cell in anchors:
            # The cell that holds the anchor names the card (or is its value):
            # left out, so a longer name containing this one does not outweigh
            # it in the text as well as in the title.
            text = _markup_safe(" · ".join(cell for number, cell in enumerate(cells) if cell and number != own_cell))
            if card_id in names and card_id not in seen:
                seen.add(card_id)
                entries.append(CardEntry(f"{page_location}#{CARD_ANCHOR}{card_id}", _markup_safe(names[card_id]), text, page_boost * CARD_BOOST))
    return entries


def with_card_entries(index_text: str, entries: Mapping[str, Sequence[CardEntry]]) -> str:
    """The search index with each page's card entries placed after that page's
    own documents (a section must follow its page). A page the index does not
    hold (excluded from search) gets no card entries either."""
    index = json.loads(index_text)
    docs: list[dict[str, object]] = index["docs"]
    last_of_page: dict[str, int] = {}
    for position, doc in enumerate(docs):
        last_of_page[str(doc["location"]).split("#", 1)[0]] = position
    merged: list[dict[str, object]] = []
    for position, doc in enumerate(docs):
        merged.append(doc)
        page = str(doc["location"]).split("#", 1)[0]
        if last_of_page[page] == position:
            merged.extend(entry.as_document() for entry in entries.get(page, ()))
    index["docs"] = merged
    return json.dumps(index, separators=(",", ":"))
