"""The tokens of a generated block's tables, read without a Markdown parser.

With every cache off, parsing the generated tables was most of a cold
``check``: markdown-it reads a 10,000-card table cell by cell, character by
character. The tables the generator writes are regular (one row a line, each
value escaped by ``generator.cells.cell``), so this module reads them in one
pass and hands the lint the very tokens markdown-it would have made for
them: the lint's own reading of tokens is unchanged.

It reads only what it is sure of. A chunk holding anything that could make
Markdown read the lines otherwise (code fences, indented lines, lists,
quotes, raw HTML blocks that run past a blank line) is left to markdown-it
whole, and so is a table whose cells hold anything but plain text,
backslash escapes, the four entities ``cell`` writes, inline HTML tags,
simple code spans and plain links: emphasis, images, other entities or a link this
reader does not know the parser's answer for. ``tests/generator/test_fasttables.py``
holds it to markdown-it's tokens, on every shipped table and on generated
cells.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.common.html_re import HTML_OPEN_CLOSE_TAG_RE
from markdown_it.common.utils import mdTrim
from markdown_it.rules_block.table import MAX_AUTOCOMPLETED_CELLS
from markdown_it.token import Token

Parse = Callable[[str], list[Token]]

# Lines that can make Markdown read what follows differently: a fence, an
# indented line (code, or a list's continuation), a list item, a quote, an
# HTML block of the kinds that run past a blank line (a comment closed on
# its own line, as the checksum line is, does not), or a heading.
_UNSURE = re.compile(r"^(?: {0,3}(?:```|~~~|[-+*] |\d{1,9}[.)](?: |$)|>|<(?:pre|script|style|textarea|\?|!(?!--.*-->))|#)| {4}|\t)", re.IGNORECASE | re.MULTILINE)
_DELIMITER_CELL = re.compile(r"^:?-+:?$")
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"'}
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot);")
# What needs a closer look in a cell; anything else is text as it stands.
_SPECIAL = re.compile(r"[\\&`*_\[\]<>!]")
_INTERESTING = re.compile(r"[\\<\[!`]")
# A code span of one backtick each side, holding none (longer runs go to the parser).
_CODE = re.compile(r"`([^`]+)`(?!`)")
# A link this reader is sure of: text of plain characters and escapes, a
# relative target of characters the parser keeps as they are, an optional
# title in double quotes.
_LINK = re.compile(r'\[((?:[^\[\]\\`*_<>!]|\\[!-/:-@\[-`{-~])*)\]\(([A-Za-z0-9._~/?#@$\'+,;=-]+)(?: "([^"\\&\n]*)")?\)')


def _escaped_split(text: str) -> list[str]:
    """Split at each pipe not escaped; an escaped pipe stays, as a plain one
    (markdown-it's ``escapedSplit``)."""
    if "\\" not in text:
        return text.split("|")
    result: list[str] = []
    current, last, escaped = "", 0, False
    for at, char in enumerate(text):
        if char == "|":
            if not escaped:
                result.append(current + text[last:at])
                current, last = "", at + 1
            else:
                current += text[last : at - 1]
                last = at
        escaped = char == "\\"
    result.append(current + text[last:])
    return result


def _cells(line: str) -> list[str]:
    """A row's cells as the parser takes them: split, the empty pieces the
    enclosing pipes leave dropped, each trimmed."""
    cells = _escaped_split(mdTrim(line))
    if cells and cells[0] == "":
        cells.pop(0)
    if cells and cells[-1] == "":
        cells.pop()
    return [mdTrim(cell) for cell in cells]


def _aligned(line: str) -> int | None:
    """How many columns a delimiter row sets, or None if it is not one."""
    if len(line) < 2 or line[0] not in "|-:" or line[1] not in "|-: \t" or line.startswith("- "):
        return None
    if any(char not in "|-: \t" for char in line):
        return None
    pieces = line.split("|")
    count = 0
    for index, piece in enumerate(pieces):
        piece = mdTrim(piece)
        if not piece:
            if index in (0, len(pieces) - 1):
                continue
            return None
        if not _DELIMITER_CELL.match(piece):
            return None
        count += 1
    return count


def _text(text: str) -> str | None:
    """Plain cell text with its escapes and entities resolved, or None where
    it holds anything the parser could read as more than text."""
    if not _SPECIAL.search(text):
        return text
    out: list[str] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == "\\" and at + 1 < len(text) and text[at + 1] in _PUNCTUATION:
            out.append(text[at + 1])
            at += 2
        elif char == "&":
            found = _ENTITY.match(text, at)
            if found is None:
                return None
            out.append(_ENTITIES[found.group()])
            at = found.end()
        elif char in "`*_[]<>" or (char == "!" and text.startswith("![", at)):
            return None
        else:
            out.append(char)
            at += 1
    return "".join(out)


def _inline(content: str, line: int) -> Token | None:
    """The inline token of one cell, with the children the parser gives it."""
    children: list[Token] = []
    pending: list[str] = []
    at = 0

    def flush() -> bool:
        if pending:
            plain = _text("".join(pending))
            if plain is None:
                return False
            children.append(Token("text", "", 0, content=plain))
            pending.clear()
        return True

    while at < len(content):
        found = _INTERESTING.search(content, at)
        if found is None:
            pending.append(content[at:])
            break
        if found.start() > at:
            pending.append(content[at : found.start()])
            at = found.start()
        char = content[at]
        if char == "\\" and at + 1 < len(content):
            pending.append(content[at : at + 2])
            at += 2
        elif char == "<":
            tag = HTML_OPEN_CLOSE_TAG_RE.match(content[at:])
            if tag is None or not flush():
                return None
            children.append(Token("html_inline", "", 0, content=tag.group()))
            at += tag.end()
        elif char == "`":
            code = _CODE.match(content, at)
            if code is None or not flush():
                return None
            inner = code.group(1)
            # As CommonMark has it: one space off each end when both have one
            # and the span is not only spaces.
            if len(inner) > 1 and inner[0] == " " and inner[-1] == " " and inner.strip(" "):
                inner = inner[1:-1]
            children.append(Token("code_inline", "code", 0, content=inner, markup="`"))
            at = code.end()
        elif char == "!" and content.startswith("![", at):
            return None  # an image
        elif char == "[":
            link = _LINK.match(content, at)
            if link is None or ":" in link.group(2) or not flush():
                return None
            label = _text(link.group(1))
            if label is None:
                return None
            attrs: dict[str, str | int | float] = {"href": link.group(2)}
            if link.group(3) is not None:
                attrs["title"] = link.group(3)
            opened = Token("link_open", "a", 1, attrs=attrs, markup="", info="")
            children.append(opened)
            if label:
                children.append(Token("text", "", 0, content=label))
            children.append(Token("link_close", "a", -1))
            at = link.end()
        else:
            pending.append(char)
            at += 1
    if not flush():
        return None
    # The parser joins neighbouring text, as here; an empty cell has no child.
    return Token("inline", "", 0, content=content, map=[line, line + 1], children=children)


def _table(lines: list[str], first: int) -> list[Token] | None:
    """The tokens of one table (header, delimiter and body lines, starting at
    chunk line ``first``), or None where the parser might read it otherwise."""
    header = _cells(lines[0])
    columns = _aligned(lines[1])
    if columns is None or columns == 0 or "|" not in mdTrim(lines[0]) or len(header) != columns:
        return None
    filled = 0  # the parser stops a table that would make up too many empty cells
    end = first + len(lines)
    tokens = [Token("table_open", "table", 1, map=[first, end]), Token("thead_open", "thead", 1, map=[first, first + 1]), Token("tr_open", "tr", 1, map=[first, first + 1])]
    for cell in header:
        inline = _inline(cell, first)
        if inline is None:
            return None
        tokens += [Token("th_open", "th", 1), inline, Token("th_close", "th", -1)]
    tokens += [Token("tr_close", "tr", -1), Token("thead_close", "thead", -1)]
    if len(lines) > 2:
        tokens.append(Token("tbody_open", "tbody", 1, map=[first + 2, end]))
        for offset, line in enumerate(lines[2:], start=2):
            cells = _cells(line)
            filled += columns - len(cells)
            if filled > MAX_AUTOCOMPLETED_CELLS:
                return None
            cells = cells[:columns] + [""] * (columns - len(cells))
            tokens.append(Token("tr_open", "tr", 1, map=[first + offset, first + offset + 1]))
            for cell in cells:
                inline = _inline(cell, first + offset)
                if inline is None:
                    return None
                tokens += [Token("td_open", "td", 1), inline, Token("td_close", "td", -1)]
            tokens.append(Token("tr_close", "tr", -1))
        tokens.append(Token("tbody_close", "tbody", -1))
    tokens.append(Token("table_close", "table", -1))
    level = 0  # as the parser's state gives each token its depth
    for token in tokens:
        level -= token.nesting < 0
        token.level = level
        level += token.nesting > 0
    return tokens


def block_tokens(text: str, parse: Parse) -> list[Token]:
    """The tokens of a generated block's body: its tables read here where
    they are plain, everything else (and any table they are not) by
    ``parse``, which sees the body with those tables blanked out, so every
    line keeps its number."""
    if _UNSURE.search(text):
        return parse(text)
    lines = text.split("\n")
    # Paragraph-like runs of lines between blank lines: a run is a table to
    # read here when every line of it is a row.
    runs: list[tuple[int, int]] = []
    start = None
    for number, line in enumerate(lines + [""]):
        if line.strip():
            start = number if start is None else start
        elif start is not None:
            runs.append((start, number))
            start = None
    tables: list[tuple[int, list[Token]]] = []
    rest = list(lines)
    for first, stop in runs:
        run = lines[first:stop]
        if len(run) < 2 or not all(line.startswith("|") for line in run):
            continue
        found = _table(run, first)
        if found is None:
            continue
        tables.append((first, found))
        for number in range(first, stop):
            rest[number] = ""
    if not tables:
        return parse(text)
    others = parse("\n".join(rest)) if any(line.strip() for line in rest) else []
    # Put each table among the other blocks by its first line.
    merged: list[Token] = []
    pending = list(tables)
    for token in others:
        if token.level == 0 and token.nesting >= 0 and token.map and pending and pending[0][0] < token.map[0]:
            while pending and pending[0][0] < token.map[0]:
                merged.extend(pending.pop(0)[1])
        merged.append(token)
    for _, found in pending:
        merged.extend(found)
    return merged
