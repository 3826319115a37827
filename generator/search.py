"""Every card as an entry of its own in the site's search index.

A reader who searches for a card's name wants its row, not the top of a page
that happens to mention it. The rows are the generated tables themselves, so
the entries are read from each page's finished HTML: one entry per card
anchor (``<a id="card-<id>">``), titled with the card's name from the catalog
and holding the text of its row. What the table shows and what search finds
can therefore never disagree.

A result must say what it found: each entry carries, as Material's
``tags``, the card's game, its page and its kind, shown beside the result
but not searched (a reader typing a word of a game's title wants the card
of that name, not every card of the game), and
its text labels every cell with its column's heading ("Dealt: yes · Status:
working live"). Ranking by the reader's own game is done in the browser
(``site/assets/search/reader-search.js``), the only place that knows it.

An entry is a document of Material for MkDocs' search index
(``{"location", "title", "text", "boost", "tags"}``), where a document whose
location is ``page.html#anchor`` counts as a section of the document at
``page.html``. This module only reads HTML; ``generator.search_file`` makes
the file of every entry, and the browser adds them to the index.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

from generator.cells import visible

CARD_ANCHOR = "card-"

# A card's entry weighs this many times its page's sections, so it ranks
# above a section of the same page whose heading contains the card's name.
CARD_BOOST = 4.0


# The labels of a search document that Material shows beside a result.
LABELS_FIELD = "tags"


@dataclass(frozen=True)
class CardEntry:
    """One card's search document: where its row is, its name, its row's
    text, and the labels that say what it is (game, page, kind)."""

    location: str
    title: str
    text: str
    boost: float
    labels: tuple[str, ...] = ()

    def as_document(self) -> dict[str, object]:
        document: dict[str, object] = {"location": self.location, "title": self.title, "text": self.text, "boost": self.boost}
        if self.labels:
            document[LABELS_FIELD] = list(self.labels)
        return document


def kind_words(family: str) -> str:
    """A card family's id as the kind of one card, in words: "facilities"
    is a "Facility", "mainline-modifiers" a "Mainline modifier"."""
    words = family.replace("-", " ").strip()
    if words.endswith("ies"):
        words = words[:-3] + "y"
    elif words.endswith("s") and not words.endswith("ss"):
        words = words[:-1]
    return words[:1].upper() + words[1:]


def card_labels(game: str, page_title: str, kinds: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Each card's labels on one page: its game, the page, its kind
    (``kinds`` maps card ids to family ids)."""
    return {card_id: tuple(_markup_safe(label) for label in (game, page_title, kind_words(family)) if label) for card_id, family in kinds.items()}


def _markup_safe(text: str) -> str:
    """Text the result list may insert as HTML without making elements, and
    with any control or bidi character shown by its code point (as the
    tables show it) rather than reordering or hiding the text around it.

    Only ``<`` and ``>`` are escaped: the index is searched as written, and
    an escaped ``&`` would make a name such as "A&Z 1" unfindable by typing "A&Z"."""
    return visible(text).replace("<", "&lt;").replace(">", "&gt;")


@dataclass(frozen=True)
class _Row:
    """A table row holding card anchors: each anchor with the index of its
    cell, the text of every cell, and the headings of the row's table."""

    anchors: list[tuple[str, int]]
    cells: list[str]
    headings: list[str]


class _RowReader(HTMLParser):
    """Collects every table row holding a card anchor, with its table's
    column headings (the cells of its ``<thead>``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[_Row] = []
        self._headings: list[str] = []
        self._in_head = False
        self._anchors: list[tuple[str, int]] | None = None
        self._cells: list[str] = []
        self._cell: list[str] | None = None
        self._svg_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self._svg_depth += 1
        elif tag == "table":
            self._headings = []
        elif tag == "thead":
            self._in_head = True
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
        elif tag == "thead":
            self._in_head = False
        elif tag == "tr" and self._anchors is not None:
            if self._in_head:
                self._headings = self._cells
            elif self._anchors:
                self.rows.append(_Row(self._anchors, self._cells, self._headings))
            self._anchors = None

    def handle_data(self, data: str) -> None:
        # A picture's <title> repeats what a cell already says in words.
        if self._cell is not None and not self._svg_depth:
            self._cell.append(data)


def card_entries(
    page_html: str,
    page_location: str,
    names: Mapping[str, str],
    page_boost: float = 1.0,
    labels: Mapping[str, tuple[str, ...]] | None = None,
) -> list[CardEntry]:
    """The entries of every card whose row is on this page, in page order.

    ``names`` maps card ids to names; an anchor naming no card is not a card's
    row and is left out. ``page_boost`` is the page's own search boost;
    ``labels`` gives each card's labels (``card_labels``)."""
    reader = _RowReader()
    reader.feed(page_html)
    reader.close()
    entries: list[CardEntry] = []
    seen: set[str] = set()
    for row in reader.rows:
        for card_id, own_cell in row.anchors:
            if card_id in names and card_id not in seen:
                seen.add(card_id)
                others = {cell for other, cell in row.anchors if other != card_id}
                cells = ["" if number in others else cell for number, cell in enumerate(row.cells)]
                preview = _markup_safe(row_preview(cells, row.headings, own_cell, names[card_id]))
                # A paragraph, as Material's own sections are: the labels go on a line of their own.
                text = f"<p>{preview}</p>" if preview else ""
                found = (labels or {}).get(card_id, ())
                entries.append(CardEntry(f"{page_location}#{CARD_ANCHOR}{card_id}", _markup_safe(names[card_id]), text, page_boost * CARD_BOOST, found))
    return entries


# A cell saying the card has nothing there.
_NOTHING = {"", "—", "-"}


def _stem(heading: str) -> str:
    """A heading without its parenthesis: "Dealt (3p)" is one of the "Dealt" columns."""
    return heading.split(" (", 1)[0].strip()


def row_preview(cells: Sequence[str], headings: Sequence[str], own_cell: int, name: str) -> str:
    """A card's row in words: each cell after its column's heading
    ("Dealt: yes · Status: working live"). Columns of one heading that say
    the same ("Dealt (3p)", "Dealt (4p)": all "yes") are said once; the cell
    holding the card's anchor is left out when it names the card (a longer
    name holding this one must not outweigh it in the text as well as in the
    title), or labelled "Value" when it is the card's value in a grid (whose
    other cards' cells the caller blanks)."""
    said: list[tuple[str, str]] = []
    for number, cell in enumerate(cells):
        heading = headings[number] if number < len(headings) else ""
        if number == own_cell:
            if not cell.startswith(visible(name)):
                said.append(("Value", cell))
            continue
        if cell in _NOTHING:
            continue
        said.append((heading, cell))
    parts: list[str] = []
    at = 0
    while at < len(said):
        heading, cell = said[at]
        run = at + 1
        while run < len(said) and _stem(said[run][0]) == _stem(heading) and said[run][1] == cell:
            run += 1
        label = _stem(heading) if run - at > 1 else heading
        parts.append(f"{label}: {cell}" if label else cell)
        at = run
    return " · ".join(parts)
