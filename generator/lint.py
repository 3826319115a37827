"""A lint over every page of the site, reading Markdown as a parser does.

It refuses what would make the site lie or break: a table column that prints
a count, a count in a generated cell, a link to a page or anchor that does not
exist, and a card that appears in no table.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

from engine.content.model import Catalog
from engine.content.problems import Problem
from generator.cells import anchor
from generator.render import Rendered

_COUNT_HEADER = re.compile(r"\b(count|counts|copies|copy|qty|quantity|how many|number of|in deck)\b|^#$|^no\. of\b", re.IGNORECASE)
_COUNT_CELL = re.compile(r"^\s*(?:[x×]\s*\d+|\d+\s*[x×])\s*$", re.IGNORECASE)
_NUMBER_CELL = re.compile(r"^\s*[-+]?\d+(?:\.\d+)?\s*$")
# Generated columns whose numbers are rules of play, not copies in a deck.
NUMERIC_COLUMNS = re.compile(r"^(A/D tracks|Porters|Outbound slots|Inbound slots|Inbound boxes|Outbound boxes|Passenger mph|Freight mph|Stages, .*|Number)$")
_DEALT_COLUMN = re.compile(r"^(Dealt\b.*|In the inventory)$")
_ID_ATTR = re.compile(r"""\bid\s*=\s*["']([^"']+)["']""")
_ATTR_LIST_ID = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}\s*$")


@dataclass(frozen=True)
class _Table:
    header: list[str]
    header_line: int  # 0-based
    rows: list[tuple[int, list[str]]]  # (0-based line, cells)


def slugify(text: str) -> str:
    """Heading anchors as Python-Markdown's toc extension makes them."""
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def _inline_text(token: Token) -> str:
    return "".join(child.content for child in token.children or [] if child.type in ("text", "code_inline"))


def anchors_of(tokens: list[Token]) -> set[str]:
    found: set[str] = set()
    seen_slugs: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token.type in ("html_block", "html_inline"):
            found.update(_ID_ATTR.findall(token.content))
        if token.type == "inline":
            for child in token.children or []:
                if child.type == "html_inline":
                    found.update(_ID_ATTR.findall(child.content))
        if token.type == "heading_open" and i + 1 < len(tokens):
            inline = tokens[i + 1]
            explicit = _ATTR_LIST_ID.search(inline.content)
            if explicit:
                found.add(explicit.group(1))
                continue
            slug = slugify(_inline_text(inline))
            count = seen_slugs.get(slug, 0)
            seen_slugs[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}_{count}")
    return found


def _tables(tokens: list[Token]) -> list[_Table]:
    tables: list[_Table] = []
    header: list[str] = []
    rows: list[tuple[int, list[str]]] = []
    current: list[str] = []
    in_head = False
    in_cell = False
    header_line = 0
    row_line = 0
    for token in tokens:
        if token.type == "table_open":
            header, rows = [], []
            header_line = token.map[0] if token.map else 0
        elif token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            current = []
            row_line = token.map[0] if token.map else 0
        elif token.type in ("th_open", "td_open"):
            in_cell = True
        elif token.type in ("th_close", "td_close"):
            in_cell = False
        elif token.type == "inline" and in_cell:
            current.append(_inline_text(token).strip())
        elif token.type == "tr_close":
            if in_head:
                header = current
            else:
                rows.append((row_line, current))
        elif token.type == "table_close":
            tables.append(_Table(header, header_line, rows))
    return tables


def _generated_lines(rendered: Rendered, page: str) -> set[int]:
    """0-based line numbers inside generated blocks of the page's new text."""
    inside: set[int] = set()
    open_at: int | None = None
    for number, line in enumerate(rendered.new[page].splitlines()):
        if line.startswith("<!-- generated: "):
            open_at = number
        elif line.startswith("<!-- /generated -->"):
            open_at = None
        elif open_at is not None:
            inside.add(number)
    return inside


def lint(catalog: Catalog, rendered: Rendered, tables: Mapping[str, object], display_prefix: str = "site/") -> list[Problem]:
    """Every lint problem over the freshly rendered pages."""
    md = _parser()
    problems: list[Problem] = []
    parsed = {name: md.parse(text) for name, text in rendered.new.items()}
    anchors = {name: anchors_of(tokens) for name, tokens in parsed.items()}

    for name, tokens in parsed.items():
        shown = display_prefix + name
        lines = rendered.new[name].splitlines()
        generated = _generated_lines(rendered, name)
        for table in _tables(tokens):
            for col, head in enumerate(table.header):
                if _COUNT_HEADER.search(head):
                    line = table.header_line
                    col_at = lines[line].find(head) + 1 if line < len(lines) and head in lines[line] else 1
                    problems.append(Problem(shown, line + 1, col_at, f"table column '{head}' prints a count; the site says only whether a card is dealt (yes/no)"))
            for line, cells in table.rows:
                if line not in generated:
                    continue
                for col, value in enumerate(cells):
                    head = table.header[col] if col < len(table.header) else ""
                    if NUMERIC_COLUMNS.match(head):
                        continue
                    if _COUNT_CELL.match(value):
                        problems.append(Problem(shown, line + 1, 1, f"generated cell '{value}' under '{head}' reads as a card count"))
                    elif _DEALT_COLUMN.match(head) and value not in ("yes", "no"):
                        problems.append(Problem(shown, line + 1, 1, f"column '{head}' must say yes or no, not '{value}'"))
                    elif _NUMBER_CELL.match(value) and not NUMERIC_COLUMNS.match(head):
                        problems.append(Problem(shown, line + 1, 1, f"generated cell '{value}' under '{head}' is a bare number in a column that holds no rule figure; counts are never printed"))
        problems.extend(_links(name, shown, tokens, lines, anchors))

    everywhere = set().union(*anchors.values()) if anchors else set()
    for card in catalog.cards:
        if anchor(card.id) not in everywhere:
            problems.append(Problem(card.origin.file, 0, 0, f"card '{card.id}' appears in no table of the site; place its table on a page"))
    for missing in sorted(set(tables) - set(rendered.table_page)):
        problems.append(Problem(display_prefix.rstrip("/"), 0, 0, f"table '{missing}' is placed on no page; add '<!-- generated: {missing} -->' and '<!-- /generated -->' where it belongs"))
    return problems


def _find_line(lines: list[str], needle: str, start: int) -> int:
    for i in range(max(0, start), len(lines)):
        if needle in lines[i]:
            return i
    return max(0, start)


def _links(name: str, shown: str, tokens: list[Token], lines: list[str], anchors: Mapping[str, set[str]]) -> list[Problem]:
    problems: list[Problem] = []
    for token in tokens:
        if token.type != "inline":
            continue
        start = token.map[0] if token.map else 0
        for child in token.children or []:
            if child.type != "link_open":
                continue
            href = str(child.attrs.get("href", ""))
            if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.IGNORECASE):
                continue  # another site, mail: not ours to check
            path, _, fragment = href.partition("#")
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), path)) if path else name
            line = _find_line(lines, href, start)
            col = lines[line].find(href) + 1 if line < len(lines) and href in lines[line] else 1
            if target.endswith("/") or (path and not target.endswith(".md")):
                problems.append(Problem(shown, line + 1, col, f"link '{href}' should point at a .md page"))
            elif target not in anchors:
                problems.append(Problem(shown, line + 1, col, f"link '{href}' points at a page that does not exist"))
            elif fragment and fragment not in anchors[target]:
                problems.append(Problem(shown, line + 1, col, f"link '{href}' points at anchor '#{fragment}', which {target} does not have"))
    return problems
