"""Reading the rules site's pages as a reader would, independently of
``generator/``: splitting a page into prose and generated blocks, and reading
a generated table. The generator's own parser is not used on purpose, so a
bug in it cannot hide a bug in its output."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

OPEN_MARKER = re.compile(r"^<!-- generated: ([a-z][a-z0-9-]*) -->$")
CLOSE_MARKER = "<!-- /generated -->"


def split_page(text: str) -> tuple[str, dict[str, str]]:
    """(the page with every block body removed, {block name: body}).

    Marker lines stay in the prose, so moving or renaming a block shows."""
    prose: list[str] = []
    blocks: dict[str, str] = {}
    current: str | None = None
    body: list[str] = []
    fence = ""  # inside a fenced code block (```/~~~), marker lines are example text
    for raw in text.splitlines(keepends=True):
        line = raw.rstrip("\r\n")
        opened = OPEN_MARKER.match(line)
        run = re.match(r"^ {0,3}(`{3,}|~{3,})", line)
        if current is None and fence:
            if run and run.group(1)[0] == fence[0] and len(run.group(1)) >= len(fence) and not line[run.end() :].strip():
                fence = ""
            prose.append(raw)
        elif current is None and run and not (run.group(1)[0] == "`" and "`" in line[run.end() :]):
            fence = run.group(1)
            prose.append(raw)
        elif current is None and opened:
            current, body = opened.group(1), []
            prose.append(raw)
        elif current is not None and line == CLOSE_MARKER:
            blocks[current] = "".join(body)
            current = None
            prose.append(raw)
        elif current is not None:
            body.append(raw)
        else:
            prose.append(raw)
    assert current is None, f"block {current} not closed"
    return "".join(prose), blocks


def split_cells(row: str) -> list[str]:
    """The cells of one Markdown table row, splitting on unescaped pipes only."""
    inner = row.strip()
    assert inner.startswith("|") and inner.endswith("|"), row
    return [c.strip() for c in re.split(r"(?<!\\)\|", inner[1:-1])]


class Table(NamedTuple):
    header: list[str]
    rows: dict[str, dict[str, str]]  # anchor id (without card-/rule-) -> header -> cell
    ordered: list[list[str]]


_ANCHOR = re.compile(r'<a id="(?:card|rule|effect)-([a-zA-Z0-9-]+)"></a>')


def read_table(body: str) -> Table:
    """The first Markdown table of a generated block body."""
    lines = [line for line in body.splitlines() if line.startswith("|")]
    assert len(lines) >= 2, body
    header = split_cells(lines[0])
    assert all(set(c) <= set("-: ") for c in split_cells(lines[1])), lines[1]
    rows: dict[str, dict[str, str]] = {}
    ordered: list[list[str]] = []
    for line in lines[2:]:
        cells = split_cells(line)
        assert len(cells) == len(header), (header, line)
        ordered.append(cells)
        found = _ANCHOR.search(line)
        if found:
            rows[found.group(1)] = dict(zip(header, cells))
    return Table(header, rows, ordered)


_ENGINE_WORD = re.compile(r'<span class="engine-word">([A-Za-z]+)</span>')


def status_of(cell: str) -> str:
    """The engine's status word in a Status cell (shown beneath its plain
    words), or the cell itself where a card has none ("—")."""
    found = _ENGINE_WORD.search(cell)
    return found.group(1) if found else cell


def page_table(site: Path, page: str, block: str) -> Table:
    _, blocks = split_page((site / page).read_text(encoding="utf-8"))
    return read_table(blocks[block])
