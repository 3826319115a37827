"""What changed between two versions of a generated block, row by row, and
how to show it in lines a reader can take in at a glance.

``check`` used to name a changed row by a key that could be the wrong card
(the first anchor anywhere on the row) and then print a diff whose lines
could be whole inline pictures thousands of characters long. Here each row
is named by what it is about, each changed cell by its column, and every
line the report prints is kept under ``LIMIT`` characters without hiding
the part that changed.

How a row is named (its key, unique within the block):

- an anchor in its first cell (``<a id="card-ID"></a>``): that id;
- else the card its first cell links to, else its first cell's text;
- an empty first cell continues the row above that has one (a further
  option of the same rule), so it is named by that row plus its second cell;
- a key that two rows of one table share (on either side of the change) is
  widened with the second cell, and if that still does not tell them apart,
  numbered in order: two rows are never merged into one;
- a block holding several tables keys each row by its table as well: the
  caption above it (a bold lead-in or a heading) and its header's first
  cell, so equal rows under different captions stay apart.

A cell other than the first that holds its own anchor is a card of its own
(a grid of cards, one per cell): a change there names that card.

This module reads only text, so it can be tried on any two strings.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

# No line of the report, its diff included, is longer than this.
LIMIT = 200
ELLIPSIS = "…"

_ANCHOR = re.compile(r'<a id="((?:card|rule|effect|status)-[A-Za-z0-9-]+)"></a>')
_ANY_ANCHOR = re.compile(r'<a id="[^"]*"></a>')
# A Markdown link, its text allowed escaped brackets; the title is optional.
_LINK = re.compile(r'\[((?:\\.|[^\]\\])*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)')
_CARD_HREF = re.compile(r"#card-([A-Za-z0-9-]+)$")
_HTML_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|])")
# An inline picture: an SVG element (to its end, or to the line's end when
# it is not closed there) or an image whose source is inline data.
_PICTURE = re.compile(r"<svg\b.*?(?:</svg>|$)|<img\b[^>]*\bsrc=\"data:[^\"]*\"[^>]*>", re.IGNORECASE)
_SEPARATOR = re.compile(r"^\|\s*:?-+:?\s*(?:\||$)")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_BOLD_LEAD = re.compile(r"^\*\*(.+?)\*\*")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*(?:\{#[^}]*\})?\s*$")
# Comment lines at a block's end (its stamp, whatever form it takes) are
# not rows and not text a reader wrote: they are left out of the cell diff.
_END_COMMENT = re.compile(r"^<!-- .* -->$")


def is_picture(text: str) -> bool:
    return _PICTURE.search(text) is not None


def plain(cell: str) -> str:
    """A cell as a reader sees it: anchors gone, a link reduced to its text,
    HTML tags and Markdown escapes taken out, entities decoded, pictures
    reduced to a word."""
    text = _PICTURE.sub("[picture]", cell)
    text = _ANY_ANCHOR.sub("", text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _HTML_TAG.sub("", text)
    text = _MD_ESCAPE.sub(r"\1", text).replace("`", "")
    return " ".join(html.unescape(text).split())


def _name(cell: str) -> str:
    """A first cell's text without the mark that flags a designed card."""
    return plain(cell).removesuffix("†").strip()


# -- reading the tables of a block ------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One Markdown table of a block: where its header is, what its columns
    are called, and what it is called in the report when the block has
    more than one (``label``, empty otherwise)."""

    ident: str
    label: str
    header: int  # offset of its header line in the block's text (-1: none)
    separator: int
    columns: tuple[str, ...]


@dataclass(frozen=True)
class Row:
    key: str
    label: str  # how the report names the row: a card id, or its text quoted
    detail: str  # what tells it from rows of the same label (another cell, its table)
    name: str  # the row's first cell as the page shows it
    offset: int  # the row's line in the block's text, counted from 0
    cells: tuple[str, ...]
    table: Table

    def column(self, index: int) -> str:
        columns = self.table.columns
        return columns[index] if index < len(columns) and columns[index] else f"column {index + 1}"

    def card_of(self, index: int) -> str | None:
        """The card a cell past the first is about, when it holds its own anchor."""
        if index == 0 or index >= len(self.cells):
            return None
        found = _ANCHOR.search(self.cells[index])
        return _bare(found.group(1)) if found else None


def _bare(anchor_id: str) -> str:
    return anchor_id.partition("-")[2]


def split_cells(line: str) -> tuple[str, ...]:
    """A row's cells, split at the pipes Markdown splits at (not at ``\\|``)."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return tuple(cell.strip() for cell in _CELL_SPLIT.split(inner))


def table_lines(body: str) -> list[str]:
    """The block's lines that rows are read from: its text without comment
    lines at its end (the stamp)."""
    lines = body.splitlines()
    while lines and (not lines[-1].strip() or _END_COMMENT.match(lines[-1].strip())):
        lines.pop()
    return lines


@dataclass
class _RawRow:
    offset: int
    cells: tuple[str, ...]
    table: int
    base: str  # the key from its own cells (see the module's docstring)
    label: str
    detail: str
    name: str
    wide: str = ""  # the second cell's key, to tell apart rows that share ``base``
    wide_detail: str = ""


@dataclass
class _RawTable:
    caption: str
    header: int
    separator: int
    columns: tuple[str, ...]
    rows: list[_RawRow] = field(default_factory=list)


def _parse(lines: Sequence[str]) -> list[_RawTable]:
    tables: list[_RawTable] = []
    caption = ""
    current: _RawTable | None = None
    parent: tuple[str, str, str] | None = None  # (base, label, name) of the last row with a first cell
    for offset, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("|"):
            current = None
            lead = _BOLD_LEAD.match(stripped) or _HEADING.match(stripped)
            if lead:
                caption = plain(lead.group(1))
            continue
        if _SEPARATOR.match(stripped):
            continue
        header_next = offset + 1 < len(lines) and bool(_SEPARATOR.match(lines[offset + 1].strip()))
        if header_next or current is None:
            current = _RawTable(caption, offset if header_next else -1, offset + 1 if header_next else -1, tuple(plain(c) for c in split_cells(line)) if header_next else ())
            tables.append(current)
            parent = None
            if header_next:
                continue
        cells = split_cells(line)
        base, label, name = _own_key(cells)
        if not base:
            second = plain(cells[1]) if len(cells) > 1 else ""
            column = current.columns[1] if len(current.columns) > 1 else "column 2"
            detail = f"{column}: {_short(second, 40)}"
            if parent is not None:
                base, label, name = f"{parent[0]}\x1f{second}", parent[1], parent[2]
            else:
                base, label, name, detail = f"\x1f{second}", f"'{_short(second, 40)}'", second, ""
        else:
            detail = ""
            parent = (base, label, name)
        row = _RawRow(offset, cells, len(tables) - 1, base, label, detail, name)
        if len(cells) > 1 and not detail:
            wide, _, _ = _own_key(cells[1:])
            second = plain(cells[1])
            column = current.columns[1] if len(current.columns) > 1 else "column 2"
            row.wide, row.wide_detail = wide or second, f"{column}: {_short(second, 40)}"
        current.rows.append(row)
    return tables


def _own_key(cells: Sequence[str]) -> tuple[str, str, str]:
    """(key, label, name) from a row's first cell; an empty key for an empty cell."""
    first = cells[0] if cells else ""
    anchor = _ANCHOR.match(first)
    if anchor:
        return anchor.group(1), _bare(anchor.group(1)), _name(first)
    for text, href in _LINK.findall(first):
        card = _CARD_HREF.search(href)
        if card:
            return f"card-{card.group(1)}", card.group(1), plain(text)
    text = _name(first)
    return (f"text\x1f{text}", f"'{_short(text, 40)}'", text) if text else ("", "", "")


def _table_idents(tables: Sequence[_RawTable]) -> list[tuple[str, str]]:
    """Each table's (identity, label): its caption and its header's first
    cell, numbered when a block repeats both."""
    seen: Counter[tuple[str, str]] = Counter()
    per_caption = Counter(t.caption for t in tables)
    found = []
    for table in tables:
        first = table.columns[0] if table.columns else ""
        seen[(table.caption, first)] += 1
        number = seen[(table.caption, first)]
        ident = f"{table.caption}\x1e{first}\x1e{number}"
        parts = [f"under '{_short(table.caption, 50)}'"] if table.caption else []
        if per_caption[table.caption] > 1 or not table.caption:
            parts.append(f"the '{_short(first, 30)}' table" + (f" (#{number})" if number > 1 else ""))
        found.append((ident, ", ".join(parts)))
    return found


def rows_of(old_body: str, new_body: str) -> tuple[dict[str, Row], dict[str, Row], list[Table], list[Table]]:
    """The rows of both versions of a block, keyed alike (see the module's
    docstring), and the tables they sit in. Keys are settled over both
    versions at once, so a row keeps its key whichever version adds a row
    that shares its first cell."""
    sides = [_parse(table_lines(old_body)), _parse(table_lines(new_body))]
    idents = [_table_idents(tables) for tables in sides]
    several = any(len(tables) > 1 for tables in sides)
    shared: set[tuple[str, str]] = set()  # (table identity, base key) that two rows share
    for tables, names in zip(sides, idents):
        for table, (ident, _) in zip(tables, names):
            counts = Counter(row.base for row in table.rows)
            shared |= {(ident, base) for base, n in counts.items() if n > 1}
    result: list[dict[str, Row]] = []
    table_lists: list[list[Table]] = []
    for tables, names in zip(sides, idents):
        rows: dict[str, Row] = {}
        made: list[Table] = []
        for table, (ident, label) in zip(tables, names):
            shown = Table(ident, label if several else "", table.header, table.separator, table.columns)
            made.append(shown)
            numbered: Counter[str] = Counter()
            for raw in table.rows:
                key, details = raw.base, [raw.detail]
                if (ident, raw.base) in shared and raw.wide:
                    key, details = f"{raw.base}\x1f{raw.wide}", [raw.wide_detail]
                numbered[key] += 1
                if numbered[key] > 1:
                    key, details = f"{key}\x1f#{numbered[key]}", [*details, f"row #{numbered[key]} of these"]
                details.append(shown.label)
                full = f"{ident}\x1d{key}"
                rows[full] = Row(full, raw.label, "; ".join(d for d in details if d), raw.name, raw.offset, raw.cells, shown)
        result.append(rows)
        table_lists.append(made)
    return result[0], result[1], table_lists[0], table_lists[1]


# -- what changed ------------------------------------------------------------------


@dataclass(frozen=True)
class CellChange:
    column: str
    old: str  # the cell as committed ("" when the row had no such cell)
    new: str
    card: str | None  # the card the cell itself is about, if it holds its own anchor


@dataclass(frozen=True)
class RowChange:
    """One row that differs. ``offset`` is its line in the committed block
    (for an added row: the committed line it goes below, ``below`` set; -1
    stands for the block's opening marker, in a block with no table yet)."""

    kind: str  # "changed", "added" or "removed"
    label: str
    detail: str
    name: str
    offset: int
    cells: tuple[CellChange, ...] = ()
    below: bool = False

    @property
    def named(self) -> list[str]:
        """What the report's summary names for this row: the cards of its
        changed cells when they are cards of their own, else the row."""
        cards = [c.card for c in self.cells if c.card]
        return list(dict.fromkeys(cards)) if cards else [self.shown]

    @property
    def shown(self) -> str:
        """The row's label with what tells it from others of that label."""
        return f"{self.label} ({self.detail})" if self.detail else self.label


def compare(old_body: str, new_body: str) -> list[RowChange]:
    """Every row that was changed, added or removed between the committed
    and the fresh block, in the order they stand on the page."""
    before, after, old_tables, _ = rows_of(old_body, new_body)
    changes: list[RowChange] = []
    for key, row in before.items():
        if key not in after:
            changes.append(RowChange("removed", row.label, row.detail, row.name, row.offset))
            continue
        now = after[key]
        if now.cells == row.cells:
            continue
        cells = []
        for index in range(max(len(row.cells), len(now.cells))):
            old = row.cells[index] if index < len(row.cells) else ""
            new = now.cells[index] if index < len(now.cells) else ""
            if old != new:
                cells.append(CellChange(now.column(index), old, new, now.card_of(index) or row.card_of(index)))
        changes.append(RowChange("changed", row.label, row.detail, row.name, row.offset, tuple(cells)))
    placed = _placing(before, after, old_tables)
    for key, row in after.items():
        if key not in before:
            changes.append(RowChange("added", row.label, row.detail, row.name, placed[key], below=True))
    order = {"removed": 0, "changed": 1, "added": 2}
    return sorted(changes, key=lambda c: (c.offset, order[c.kind]))


def _placing(before: dict[str, Row], after: dict[str, Row], old_tables: Sequence[Table]) -> dict[str, int]:
    """For each added row, the committed line it goes below: the last row
    before it (in the fresh order) that the committed block has, else its
    table's header, else the block's opening marker (offset -1)."""
    headers = {t.ident: max(t.separator, t.header) for t in old_tables if t.header >= 0}
    placed: dict[str, int] = {}
    last: dict[str, int] = {}
    for key, row in after.items():
        ident = row.table.ident
        if key in before:
            last[ident] = before[key].offset
        else:
            placed[key] = last.get(ident, headers.get(ident, -1))
    return placed


# -- fitting text into a line -------------------------------------------------------


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + ELLIPSIS


def _differing(old: str, new: str) -> tuple[int, int]:
    """The lengths of the start and the end ``old`` and ``new`` share, not
    overlapping in either."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return start, end


def window(text: str, start: int, stop: int, width: int, head: int = 0, core: int | None = None) -> str:
    """``text`` in at most ``width`` characters, keeping ``text[start:stop]``
    (the part that changed) in view with what stands either side of it, and
    the first ``head`` characters (what the line is, for a table row: its
    first cell); what is cut is marked with an ellipsis. ``core`` is the
    length to budget for the changed part (the longer of two versions', so
    both are cut at the same places)."""
    if len(text) <= width:
        return text
    changed = text[start:stop]
    room = width - 2  # an ellipsis may be needed on each side
    budget = max(len(changed), core or 0)
    keep = max(room - 16, 8)
    if budget > keep:  # the change alone is too long: keep its two ends
        if len(changed) > keep:
            changed = changed[: keep - keep // 2 - 1] + ELLIPSIS + changed[len(changed) - keep // 2 :]
        budget = keep
    room -= budget
    kept_head = min(head, start, room // 2)
    room -= kept_head
    after = min(len(text) - stop, room // 2)
    before = min(start - kept_head, room - after)
    after = min(len(text) - stop, room - before)
    begin = start - before
    if begin > kept_head:  # start the context at a word, when one starts near
        space = text.find(" ", begin, min(start, begin + 12))
        begin = space + 1 if space >= 0 else begin
    left = text[:kept_head] + ("" if begin <= kept_head else ELLIPSIS) + text[max(begin, kept_head) : start]
    right = text[stop : stop + after] + (ELLIPSIS if stop + after < len(text) else "")
    return _short(left + changed + right, width)


def fit_pair(old: str, new: str, width: int, head: int = 0) -> tuple[str, str]:
    """Two versions of one text, each in at most ``width`` characters, both
    cut alike around where they differ."""
    if len(old) <= width and len(new) <= width:
        return old, new
    start, end = _differing(old, new)
    core = max(len(old), len(new)) - end - start
    return window(old, start, len(old) - end, width, head, core), window(new, start, len(new) - end, width, head, core)


def fit(text: str, width: int) -> str:
    return _short(text, width)


def pictures_summarised(old: str, new: str | None, where: str, added: bool = False) -> tuple[str, str | None]:
    """``old`` (and its counterpart ``new``) with each inline picture put as
    a short note: "[picture changed: FILE:LINE]" where the two differ (or
    only one has it), "[picture]" where they are the same."""
    old_pictures = _PICTURE.findall(old)
    new_pictures = _PICTURE.findall(new) if new is not None else []

    def swap(text: str, mine: list[str], theirs: list[str] | None) -> str:
        found = iter(range(len(mine)))

        def note(match: re.Match[str]) -> str:
            index = next(found)
            if theirs is not None and index < len(theirs) and theirs[index] == match.group(0):
                return "[picture]"
            if theirs is None:
                return f"[picture added below {where}]" if added else f"[picture removed from {where}]"
            return f"[picture changed: {where}]"

        return _PICTURE.sub(note, text)

    if new is None:
        return swap(old, old_pictures, None), None
    return swap(old, old_pictures, new_pictures), swap(new, new_pictures, old_pictures)


# -- a unified diff that fits ----------------------------------------------------------


def _range(start: int, length: int) -> str:
    """A hunk's range as ``diff -u`` writes it (as difflib does)."""
    beginning = start + 1
    if length == 1:
        return f"{beginning}"
    if not length:
        beginning -= 1
    return f"{beginning},{length}"


def unified(old: str, new: str, fromfile: str, tofile: str, page: str, context: int = 1) -> str:
    """The unified diff of two versions of a page, of its changed lines
    only (with ``context`` lines around each change), every line in at most
    ``LIMIT`` characters: a picture on a line is put as a note naming the
    committed page's file and line, a long line is cut around what changed
    (a changed line is cut alike in its two versions, keeping its start)."""
    import difflib  # only once a page differs: a clean ``check`` starts quicker

    a, b = old.splitlines(), new.splitlines()
    width = LIMIT - 1  # the diff's own first character
    out = [f"--- {fit(fromfile, width - 3)}", f"+++ {fit(tofile, width - 3)}"]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2] - first[1])} +{_range(first[3], last[4] - first[3])} @@")
        for tag, i1, i2, j1, j2 in group:
            out.extend(_hunk_lines(tag, a[i1:i2], b[j1:j2], i1, page, width))
    return "\n".join(out) + "\n"


def _hunk_lines(tag: str, old: Sequence[str], new: Sequence[str], at: int, page: str, width: int) -> Iterator[str]:
    if tag == "equal":
        for line in old:
            yield " " + fit(pictures_summarised(line, line, "")[0], width)
        return
    paired = min(len(old), len(new)) if tag == "replace" else 0
    minus: list[str] = []
    plus: list[str] = []
    for offset in range(paired):
        where = f"{page}:{at + offset + 1}"
        left, right = pictures_summarised(old[offset], new[offset], where)
        assert right is not None
        left, right = fit_pair(left, right, width, head=_row_head(left))
        minus.append("-" + left)
        plus.append("+" + right)
    for offset in range(paired, len(old)):
        line = pictures_summarised(old[offset], None, f"{page}:{at + offset + 1}")[0]
        minus.append("-" + fit(line, width))
    for offset in range(paired, len(new)):
        line = pictures_summarised(new[offset], None, f"{page}:{at + paired + max(len(old) - paired, 0)}", added=True)[0]
        plus.append("+" + fit(line, width))
    yield from minus
    yield from plus


def _row_head(line: str) -> int:
    """How much of a line's start to keep when it is cut: a table row's
    first cell (what the row is about), at most 60 characters."""
    if not line.startswith("|"):
        return 20
    second = line.find(" | ", 1)
    return min(second + 2 if second > 0 else 20, 60)
