"""A lint over every page of the site, reading Markdown as a parser does.

It refuses what would make the site lie or break: a table column that prints
a count, a count in a generated cell, a link to a page or anchor that does not
exist (a designed card's mark on a page with no legend for it is reported once
for the page), and a card that appears in no table.
"""

from __future__ import annotations

import bisect
import functools
import posixpath
import re
import unicodedata
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from engine.content.problems import Problem
from engine.pack import CatalogLike
from generator.blocks import CLOSE, Block, parse_page
from generator.cells import anchor
from generator.fasttables import block_tokens
from generator.forked import map_pieces
from generator.records import EXPORT_NAME, SCHEMA_NAME
from generator.render import Rendered
from generator.tableset import DEALT_CELL

_COUNT_HEADER = re.compile(r"\b(count|counts|copies|copy|qty|quantity|how many|number of|in deck)\b|^#$|^no\. of\b", re.IGNORECASE)
_COUNT_CELL = re.compile(r"^\s*(?:[x×]\s*\d+|\d+\s*[x×])\s*$", re.IGNORECASE)
_NUMBER_CELL = re.compile(r"^\s*[-+]?\d+(?:\.\d+)?\s*$")
_DEALT_COLUMN = re.compile(r"^(Dealt\b.*|In the inventory)$")
_ID_ATTR = re.compile(r"""\bid\s*=\s*["']([^"']+)["']""")
_ATTR_LIST_ID = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}\s*$")


def slugify(text: str) -> str:
    """Heading anchors as Python-Markdown's toc extension makes them."""
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


_MD: MarkdownIt | None = None


def _parser() -> MarkdownIt:
    """One CommonMark parser with GFM tables per process (workers make their own)."""
    global _MD
    if _MD is None:
        _MD = MarkdownIt("commonmark").enable("table")
    return _MD


def _inline_text(token: Token) -> str:
    return "".join(child.content for child in token.children or [] if child.type in ("text", "code_inline"))


@dataclass(frozen=True)
class _Chunk:
    """A piece of a page parsed on its own: the prose (with every generated
    block's body blanked to empty lines, so line numbers stay the page's), or
    one block's body. A block body starts and ends with a blank line between
    two marker lines, each an HTML block of its own, so it parses alone to the
    very tokens it gives inside the page; the prose's link definitions are
    handed to it all the same."""

    page: str
    shown: str
    text: str
    first_line: int  # 0-based page line of the chunk's first line
    generated: tuple[tuple[int, int], ...]  # chunk lines [start, end) inside generated blocks
    references: Mapping[str, Any]
    markers: tuple[int, ...] = ()  # chunk lines of the marker lines it holds
    # The pack's columns whose numbers are rule figures (``TableSet.numeric_columns``).
    numeric: tuple[str, ...] = ()

    @property
    def numeric_pattern(self) -> re.Pattern[str] | None:
        return _numeric_pattern(self.numeric) if self.numeric else None


@functools.cache
def _numeric_pattern(columns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("^(?:" + "|".join(columns) + ")$")


@dataclass(frozen=True)
class _Facts:
    """What the lint needs to know of one chunk, small enough to travel
    between processes: the parsed tokens never leave the worker."""

    ids: tuple[tuple[str, int, int], ...]  # (HTML id or heading's explicit id, page line, column)
    headings: tuple[tuple[int, str], ...]  # (page line, slug before de-duplication)
    problems: tuple[Problem, ...]  # count columns and counts in cells
    links: tuple[tuple[str, int, int], ...]  # (href, 1-based page line, column)
    markers_alone: bool  # every marker line parsed as an HTML block of its own


def _tokens(chunk: _Chunk) -> list[Token]:
    """The chunk's tokens: a generated block's plain tables read directly
    (``generator.fasttables``), everything else by the parser."""

    def parse(text: str) -> list[Token]:
        return _parser().parse(text, {"references": dict(chunk.references)})

    if not chunk.markers and chunk.generated == ((0, chunk.text.count("\n")),):
        return block_tokens(chunk.text, parse)
    return parse(chunk.text)


# Facts of chunks already read in this process, by everything a chunk is
# made of. ``serve`` and the tests run the lint again and again over pages
# that mostly did not change; a chunk's facts depend on nothing but the chunk.
_KNOWN_FACTS: dict[tuple[object, ...], _Facts] = {}
_KNOWN_FACTS_LIMIT = 4096


def _chunk_key(chunk: _Chunk) -> tuple[object, ...]:
    return (chunk.page, chunk.shown, chunk.text, chunk.first_line, chunk.generated, repr(sorted(chunk.references.items())), chunk.markers, chunk.numeric)


def _chunk_facts(chunk: _Chunk) -> _Facts:
    """``_lint_chunk``, remembered for this process (nothing is kept on disk)."""
    key = _chunk_key(chunk)
    found = _KNOWN_FACTS.get(key)
    if found is None:
        if len(_KNOWN_FACTS) >= _KNOWN_FACTS_LIMIT:
            _KNOWN_FACTS.clear()
        found = _KNOWN_FACTS[key] = _lint_chunk(chunk)
    return found


def _lint_chunk(chunk: _Chunk) -> _Facts:
    tokens = _tokens(chunk)
    lines = chunk.text.splitlines()
    starts = _line_starts(chunk.text)
    cursor = 0  # links are met in text order: each is searched for after the last
    base = chunk.first_line
    ids: list[tuple[str, int, int]] = []
    headings: list[tuple[int, str]] = []

    def found_ids(text: str, line: int) -> None:
        """Record each ``id="..."`` in ``text``, found on or after chunk line
        ``line`` (an inline tag's own line is not in its token, so it is
        looked for in the lines that follow)."""
        for match in _ID_ATTR.finditer(text):
            row = line + text.count("\n", 0, match.start())
            while row < len(lines) - 1 and match.group(0) not in lines[row]:
                row += 1
            column = lines[row].find(match.group(0)) + 1 if row < len(lines) else 0
            ids.append((match.group(1), base + row + 1, column or 1))

    problems: list[Problem] = []
    links: list[tuple[str, int, int]] = []
    header: list[str] = []
    cells: list[str] = []
    in_head = in_cell = False
    row = 0
    for i, token in enumerate(tokens):
        kind = token.type
        if kind == "inline":
            if in_cell:
                cells.append(_inline_text(token).strip())
            start, stop = (token.map[0], token.map[1]) if token.map else (0, len(starts))
            cursor = max(cursor, starts[start] if start < len(starts) else len(chunk.text))
            end = starts[stop] if stop < len(starts) else len(chunk.text)
            for child in token.children or []:
                if child.type == "html_inline":
                    found_ids(child.content, start)
                elif child.type == "link_open":
                    href = str(child.attrs.get("href", ""))
                    line, col, cursor = _locate(chunk.text, starts, href, cursor, end, start)
                    links.append((href, base + line + 1, col))
        elif kind in ("td_open", "th_open"):
            in_cell = True
        elif kind in ("td_close", "th_close"):
            in_cell = False
        elif kind == "tr_open":
            cells = []
            row = token.map[0] if token.map else 0
        elif kind == "thead_open":
            in_head = True
        elif kind == "tr_close":
            if in_head:
                header = cells
                problems.extend(_count_columns(chunk.shown, header, lines, row, base))
            elif any(start <= row < end for start, end in chunk.generated):
                problems.extend(_count_cells(chunk.shown, header, cells, base + row + 1, chunk.numeric_pattern))
        elif kind == "thead_close":
            in_head = False
        elif kind == "html_block":
            found_ids(token.content, token.map[0] if token.map else 0)
        elif kind == "heading_open" and i + 1 < len(tokens):
            inline = tokens[i + 1]
            explicit = _ATTR_LIST_ID.search(inline.content)
            if explicit:
                row = inline.map[0] if inline.map else 0
                ids.append((explicit.group(1), base + row + 1, (lines[row].find("#" + explicit.group(1)) + 1 if row < len(lines) else 0) or 1))
            else:
                headings.append((base + (token.map[0] if token.map else 0), slugify(_inline_text(inline))))
    alone = {t.map[0] for t in tokens if t.type == "html_block" and t.map and t.map[1] == t.map[0] + 1}
    return _Facts(tuple(ids), tuple(headings), tuple(problems), tuple(links), all(line in alone for line in chunk.markers))


def _count_columns(shown: str, header: list[str], lines: list[str], line: int, base: int) -> list[Problem]:
    problems: list[Problem] = []
    for head in header:
        if _COUNT_HEADER.search(head):
            col = lines[line].find(head) + 1 if line < len(lines) and head in lines[line] else 1
            problems.append(Problem(shown, base + line + 1, col, f"table column '{head}' prints a count; the site says only whether a card is dealt (yes/no)"))
    return problems


def _count_cells(shown: str, header: list[str], cells: list[str], line: int, numeric: re.Pattern[str] | None) -> list[Problem]:
    problems: list[Problem] = []
    for col, value in enumerate(cells):
        head = header[col] if col < len(header) else ""
        if numeric is not None and numeric.match(head):
            continue
        if _COUNT_CELL.match(value):
            problems.append(Problem(shown, line, 1, f"generated cell '{value}' under '{head}' reads as a card count"))
        elif _DEALT_COLUMN.match(head) and not DEALT_CELL.match(value):
            problems.append(Problem(shown, line, 1, f"column '{head}' must say yes, no or where the card is dealt, not '{value}'"))
        elif _NUMBER_CELL.match(value):
            problems.append(Problem(shown, line, 1, f"generated cell '{value}' under '{head}' is a bare number in a column that holds no rule figure; counts are never printed"))
    return problems


def _chunks(name: str, shown: str, text: str, tables: Collection[str], numeric: tuple[str, ...] = ()) -> list[_Chunk]:
    """The prose chunk of a page first, then one chunk per generated block."""
    page = parse_page(shown, text, tables)
    prose: list[str] = []
    bodies: list[tuple[int, str]] = []
    markers: list[int] = []
    for part in page.parts:
        if isinstance(part, Block):
            body_lines = part.body.count("\n")
            bodies.append((part.line, part.body))  # the body starts on the line after the marker
            markers += [part.line - 1, part.line + body_lines]
            prose.append(f"<!-- generated: {part.name} -->\n" + "\n" * body_lines + CLOSE + "\n")
        else:
            prose.append(part)
    prose_text = "".join(prose)
    env: dict[str, Any] = {}
    if "]:" in prose_text:  # every link reference definition has a label right before a colon
        _parser().parse(prose_text, env)
    references: Mapping[str, Any] = env.get("references", {})
    chunks = [_Chunk(name, shown, prose_text, 0, (), references, tuple(markers), numeric)]
    chunks.extend(_Chunk(name, shown, body, first, ((0, body.count("\n")),), references, (), numeric) for first, body in bodies)
    return chunks


def _whole(chunks: list[_Chunk], text: str) -> _Chunk:
    """The page as one chunk, for a page whose markers do not stand as HTML
    blocks of their own (an unclosed <pre> or <script> above them, say):
    there a block's body is not read on its own, so it is not parsed so."""
    prose = chunks[0]
    generated = tuple((c.first_line, c.first_line + c.text.count("\n")) for c in chunks[1:])
    return _Chunk(prose.page, prose.shown, text, 0, generated, prose.references, (), prose.numeric)


def without_bom(text: str) -> str:
    """``text`` without a leading byte order mark. MkDocs drops one before
    it reads a page, but the parser here would take it as text, so a first
    heading would read as a paragraph and lose its anchor."""
    return text[1:] if text.startswith("\ufeff") else text


def _heading_anchors(slugs: list[tuple[int, str]]) -> set[str]:
    """Heading ids as the toc extension numbers them, in page order."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for _, slug in sorted(slugs):
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}_{count}")
    return anchors


class _OtherPages(Mapping[str, set[str]]):
    """The anchors of the site's pages outside the pack being linted (the
    kit's home page, another pack's pages), keyed by their path from the
    pack's folder (``../index.md``): MkDocs builds the whole site, so a link
    there is live. A page is parsed only when a link asks for it."""

    def __init__(self, site_pages: Mapping[str, str], folder: str) -> None:
        self._texts: dict[str, str] = {}
        for path, text in site_pages.items():
            relative = posixpath.relpath(path, folder or ".")
            if relative.startswith("../"):
                self._texts[relative] = text
            elif folder:
                # The pack's own page reached the long way round
                # (``../stationmaster/rules.md`` from one of that same pack's pages).
                self._texts[posixpath.normpath(posixpath.join("..", folder, relative))] = text
        self._parsed: dict[str, set[str]] = {}

    def __getitem__(self, name: str) -> set[str]:
        if name not in self._parsed:
            text = without_bom(self._texts[name])  # KeyError: no such page
            found = _chunk_facts(_Chunk(name, name, text, 0, (), {}))
            self._parsed[name] = {anchor_id for anchor_id, _, _ in found.ids} | _heading_anchors(list(found.headings))
        return self._parsed[name]

    def __contains__(self, name: object) -> bool:
        return name in self._texts

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


class _Anchors(Mapping[str, set[str]]):
    """The pack's own pages' anchors, then the rest of the site's."""

    def __init__(self, own: dict[str, set[str]], others: _OtherPages) -> None:
        self._own, self._others = own, others

    def __getitem__(self, name: str) -> set[str]:
        return self._own[name] if name in self._own else self._others[name]

    def __contains__(self, name: object) -> bool:
        return name in self._own or name in self._others

    def __iter__(self) -> Iterator[str]:
        return iter([*self._own, *(n for n in self._others if n not in self._own)])

    def __len__(self) -> int:
        return sum(1 for _ in self)


def lint(
    catalog: CatalogLike, rendered: Rendered, tables: Mapping[str, object], display_prefix: str = "site/", workers: int = 1, *, site_pages: Mapping[str, str] | None = None, folder: str = ""
) -> list[Problem]:
    """Every lint problem over the freshly rendered pages.

    Each page is parsed in chunks (its prose, then each generated block), over
    up to ``workers`` processes; the result is the same for any number.
    ``site_pages`` (the text of every page of the site, keyed by its path
    under the site's folder) and ``folder`` (the pack's folder there) let a
    link reach a page outside the pack, as it does once MkDocs builds it.
    """
    known = {**rendered.tables.tables, **tables}  # the kit's tables too (render_site adds them)
    pages = {name: without_bom(text) for name, text in rendered.new.items()}
    chunks: list[_Chunk] = []
    for name, text in pages.items():
        chunks.extend(_chunks(name, display_prefix + name, text, known, rendered.tables.numeric_columns))
    facts = map_pieces(_chunk_facts, chunks, workers, cost=lambda chunk: len(chunk.text))
    for name, text in pages.items():
        at = [i for i, chunk in enumerate(chunks) if chunk.page == name]
        if not facts[at[0]].markers_alone:
            whole = _whole([chunks[i] for i in at], text)
            chunks = [c for i, c in enumerate(chunks) if i not in at] + [whole]
            facts = [f for i, f in enumerate(facts) if i not in at] + [_chunk_facts(whole)]

    own: dict[str, set[str]] = {name: set() for name in pages}
    headings: dict[str, list[tuple[int, str]]] = {name: [] for name in pages}
    placed: dict[str, list[tuple[str, int, int]]] = {name: [] for name in pages}
    for chunk, found in zip(chunks, facts):
        own[chunk.page].update(anchor_id for anchor_id, _, _ in found.ids)
        placed[chunk.page].extend((anchor_id, line, column) for anchor_id, line, column in found.ids)
        headings[chunk.page].extend(found.headings)
    for name, slugs in headings.items():
        own[name] |= _heading_anchors(slugs)
    anchors = _Anchors(own, _OtherPages(site_pages or {}, folder))

    problems: list[Problem] = []
    for name in pages:
        mine = [(chunk, found) for chunk, found in zip(chunks, facts) if chunk.page == name]
        problems.extend(sorted((p for _, found in mine for p in found.problems), key=lambda p: p.line))
        link_problems = sorted((p for chunk, found in mine for p in _dead_links(name, chunk.shown, found.links, anchors)), key=lambda p: p.line)
        # A missing legend is one problem for the page, at its first mark, not one per mark.
        legend = [p for p in link_problems if p.message == _NO_LEGEND]
        problems.extend(p for p in link_problems if p.message != _NO_LEGEND or p is legend[0])
        problems.extend(_repeated_anchors(display_prefix + name, placed[name]))

    everywhere = set().union(*own.values()) if own else set()
    for card in catalog.cards:
        if anchor(card.id) not in everywhere:
            problems.append(Problem(card.origin.file, 0, 0, f"card '{card.id}' appears in no table of the site; place its table on a page"))
    for missing in sorted(set(tables) - set(rendered.table_page)):
        problems.append(Problem(display_prefix.rstrip("/"), 0, 0, f"table '{missing}' is placed on no page; add '<!-- generated: {missing} -->' and '<!-- /generated -->' where it belongs"))
    return problems


def _repeated_anchors(shown: str, placed: list[tuple[str, int, int]]) -> list[Problem]:
    """An anchor names one place on its page: a second use (a card in two
    tables of one page, a hand-written id that clashes) makes links land on
    the first, so it is an error at the second."""
    first: dict[str, int] = {}
    problems: list[Problem] = []
    for anchor_id, line, column in sorted(placed, key=lambda p: (p[1], p[2])):
        if anchor_id in first:
            problems.append(Problem(shown, line, column, f"anchor '{anchor_id}' is already used on this page (line {first[anchor_id]}); each anchor names one place"))
        else:
            first[anchor_id] = line
    return problems


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at != -1:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def _locate(text: str, starts: list[int], href: str, cursor: int, end: int, start_line: int) -> tuple[int, int, int]:
    """The 0-based line and 1-based column of a link's target, searched from
    ``cursor`` to ``end`` (the end of its paragraph or cell), and the cursor
    after it. A target not written there as such (decoded by the parser, or
    given by a reference definition elsewhere) is placed at the start of its
    paragraph, and the cursor stays put."""
    found = text.find(href, cursor, end) if href else -1
    if found == -1:
        return start_line, 1, cursor
    line = bisect.bisect_right(starts, found) - 1
    return line, found - starts[line] + 1, found + len(href)


_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
# The anchor a designed card's mark links to (``designed_mark`` in
# templates/_macros.md.j2): the page's own legend, written in its prose.
LEGEND_ANCHOR = "designed-legend"
_NO_LEGEND = f'the page marks designed cards (†) but has no legend for the mark; add a paragraph starting with <span id="{LEGEND_ANCHOR}"></span> that explains it'


# Data files published beside a pack's pages (its export, which `cards`
# writes there) and at the site's top (the export's schema), relative to
# the pack's folder.
_PUBLISHED = frozenset({EXPORT_NAME, f"../{SCHEMA_NAME}"})


def _dead_links(name: str, shown: str, links: tuple[tuple[str, int, int], ...], anchors: Mapping[str, set[str]]) -> list[Problem]:
    problems: list[Problem] = []
    for href, line, col in links:
        if _SCHEME.match(href):
            continue  # another site, mail: not ours to check
        if href == "#" + LEGEND_ANCHOR and LEGEND_ANCHOR not in anchors.get(name, set()):
            problems.append(Problem(shown, line, col, _NO_LEGEND))
            continue
        path, _, fragment = href.partition("#")
        target = posixpath.normpath(posixpath.join(posixpath.dirname(name), path)) if path else name
        if target in _PUBLISHED and not fragment:
            continue
        if target.endswith("/") or (path and not target.endswith(".md")):
            problems.append(Problem(shown, line, col, f"link '{href}' should point at a .md page"))
        elif target not in anchors:
            problems.append(Problem(shown, line, col, f"link '{href}' points at a page that does not exist"))
        elif fragment and fragment not in anchors[target]:
            problems.append(Problem(shown, line, col, f"link '{href}' points at anchor '#{fragment}', which {target} does not have"))
    return problems
