"""Comparing the committed pages with what the content renders to, and
writing the fresh version. Both start from the same in-memory render."""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from generator.blocks import parse_page
from generator.render import Rendered, split_stamp

_ROW_ANCHOR = re.compile(r'<a id="(?:card|rule|effect|status)-([a-zA-Z0-9-]+)"></a>')
_LINKED_CARD = re.compile(r"\(#card-([a-z0-9-]+)\)|\.md#card-([a-z0-9-]+)\)")
FIX_HINT = "run `make cards` (or `stationmaster cards`) to regenerate the tables, then commit the pages"


@dataclass
class TableChange:
    table: str
    line: int
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    # Why the text differs when no row did (see ``_unrowed_change``).
    note: str = ""


@dataclass
class PageDrift:
    page: str
    tables: list[TableChange]
    diff: str


def _rows(body: str) -> dict[str, str]:
    """Each table row keyed by what it is about: the card, rule or effect its
    anchor names; else the cards its first two cells link to (a map from one
    card to another); else the anchored row above it plus its first cells (a
    house rule's further options). Header and separator rows are skipped."""
    rows: dict[str, str] = {}
    last = ""
    lines = body.splitlines()
    for i, line in enumerate(lines):
        is_header = i + 1 < len(lines) and lines[i + 1].startswith("| ---")
        if not line.startswith("|") or line.startswith("| ---") or is_header:
            continue
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        found = _ROW_ANCHOR.search(line)
        if found:
            key = last = found.group(1)
        else:
            linked = [a or b for a, b in _LINKED_CARD.findall(" | ".join(cells[:2]))]
            key = " -> ".join(linked) if linked else f"{last} {' '.join(cells[:2])}".strip()
        rows[key] = line
    return rows


def _unrowed_change(committed: str, fresh: str) -> str:
    """What a difference that touches no card row is. A stamped table tells
    a hand edit (its text no longer matches its own stamp) from a stale one
    (the content or code it is computed from changed, its text did not)."""
    old, new = split_stamp(committed), split_stamp(fresh)
    if old.body is not None:
        if not old.matches_its_stamp:
            return "its text was edited by hand since it was generated (it no longer matches the stamp at its end)"
        if old.text == new.text:
            return "stale: the content or engine code it is computed from changed since it was written; its rows come out the same, only the stamp at its end is out of date"
    return "its text outside the card rows differs (edited by hand, or its template changed)"


def drift(rendered: Rendered, display_prefix: str = "site/") -> list[PageDrift]:
    """Every page whose committed text differs from the fresh render."""
    found: list[PageDrift] = []
    for name in sorted(rendered.new):
        old, new = rendered.old[name], rendered.new[name]
        if old == new:
            continue
        import difflib  # only once a page differs: a clean ``check`` starts quicker

        fresh = {b.name: b for b in parse_page(display_prefix + name, new, rendered.tables.tables).blocks}
        tables: list[TableChange] = []
        for block in rendered.pages[name].blocks:
            now = fresh[block.name]
            if now.body == block.body:
                continue
            before, after = _rows(block.body), _rows(now.body)
            change = TableChange(block.name, block.line)
            change.changed = [k for k in after if k in before and before[k] != after[k]]
            change.added = [k for k in after if k not in before]
            change.removed = [k for k in before if k not in after]
            if not (change.changed or change.added or change.removed):
                change.note = _unrowed_change(block.body, now.body)
            tables.append(change)
        diff = "".join(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=f"{display_prefix}{name} (committed)",
                tofile=f"{display_prefix}{name} (from content/)",
            )
        )
        found.append(PageDrift(display_prefix + name, tables, diff))
    return found


def describe(drifts: list[PageDrift]) -> str:
    lines: list[str] = []
    for page in drifts:
        lines.append(f"{page.page}: out of date with content/")
        for t in page.tables:
            parts = []
            if t.changed:
                parts.append("changed: " + ", ".join(t.changed))
            if t.added:
                parts.append("added: " + ", ".join(t.added))
            if t.removed:
                parts.append("removed: " + ", ".join(t.removed))
            detail = "; ".join(parts) if parts else t.note
            lines.append(f"{page.page}:{t.line}:1: table '{t.table}': {detail}")
    for page in drifts:
        lines.append(page.diff.rstrip("\n"))
    lines.append(f"The site disagrees with the content: {FIX_HINT}.")
    return "\n".join(lines)


def write_pages(site_dir: Path, rendered: Rendered) -> list[str]:
    """Write every changed page atomically; return the names written."""
    written: list[str] = []
    for name in sorted(rendered.new):
        if rendered.new[name] == rendered.old[name]:
            continue
        target = site_dir / name
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        except OSError as exc:
            raise OSError(exc.errno, f"{exc.strerror} (writing {name})") from None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(rendered.new[name].encode("utf-8"))
            os.chmod(tmp, target.stat().st_mode & 0o777)
            os.replace(tmp, target)
        except BaseException as exc:
            if os.path.exists(tmp):
                os.unlink(tmp)
            if isinstance(exc, OSError):
                raise OSError(exc.errno, f"{exc.strerror} (writing {name})") from None
            raise
        written.append(name)
    return written
