"""Every card's search entry, as a file of the docs folder.

``stationmaster cards`` writes ``site/assets/search/cards.js`` beside the
pages and ``check`` refuses it when it no longer matches them, so any
builder that copies the docs folder publishes it with no plugin. The
browser adds its entries to Material's search index when the reader first
searches (``site/assets/search/reader-search.js``); under ``mkdocs serve``
the plugin writes a fresh copy into the built site on every rebuild.

The entries are read from the pages' own Markdown, rendered to HTML here
(CommonMark with tables, as ``generator.lint`` reads it), so what a result
says is what the table shows (``generator.search``). A page's address is
its path with ``.html`` for ``.md``: the site is built with
``use_directory_urls: false``, so that it can be opened from disk.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

from engine.atomic import write_whole
from engine.content.problems import Problem
from generator.search import CardEntry, card_entries, card_labels

# Where the file sits, relative to the docs folder (and to the built site).
SEARCH_FILE = "assets/search/cards.js"
_HEADER = "// Every card's search entry, made by `stationmaster cards` from the card tables: do not edit.\n"
FIX_HINT = "run `make cards` (or `stationmaster cards`) to write it again, then commit it"


@dataclass(frozen=True)
class PackCards:
    """What a pack's entries are made of: its folder, its title, each card's
    name and family, and its pages' Markdown by name ("home-deck.md")."""

    folder: str
    title: str
    names: Mapping[str, str]
    families: Mapping[str, str]
    pages: Mapping[str, str]


def _title(tokens: list[object], fallback: str) -> str:
    for at, token in enumerate(tokens):
        if getattr(token, "type", "") == "heading_open" and getattr(token, "tag", "") == "h1":
            return str(getattr(tokens[at + 1], "content", fallback)).strip() or fallback
    return fallback


def pack_entries(pack: PackCards) -> list[CardEntry]:
    """The pack's card entries, page by page in name order, each page's in row order."""
    parser = MarkdownIt("commonmark").enable("table")
    entries: list[CardEntry] = []
    for name in sorted(pack.pages):
        if not name.endswith(".md"):
            continue
        tokens = parser.parse(pack.pages[name])
        html = parser.renderer.render(tokens, parser.options, {})
        title = _title(list(tokens), name[:-3])
        labels = card_labels(pack.title, title, pack.families)
        entries += card_entries(html, f"{pack.folder}/{name[:-3]}.html", pack.names, labels=labels)
    return entries


def file_text(packs: Iterable[PackCards]) -> str:
    """The file: a script that hands the browser every pack's entries (one a line, so a change diffs as the rows it touches)."""
    lines = [json.dumps(entry.as_document(), ensure_ascii=False, separators=(",", ":")) for pack in packs for entry in pack_entries(pack)]
    return _HEADER + "window.__cardEntries = [\n" + ",\n".join(lines) + "\n];\n"


@dataclass(frozen=True)
class SearchFile:
    """The file as committed (None: there is none) and as the pages make it."""

    path: Path
    shown: str
    old: bytes | None
    new: bytes

    @property
    def is_current(self) -> bool:
        return self.old == self.new

    def problem(self) -> Problem:
        """Where the committed file parts from the pages, at its first differing line."""
        if self.old is None:
            return Problem(self.shown, 1, 1, f"the cards' search entries are missing; {FIX_HINT}")
        old, new = self.old.decode("utf-8", errors="replace").splitlines(), self.new.decode("utf-8").splitlines()
        line = next((number for number, (a, b) in enumerate(zip(old, new, strict=False), start=1) if a != b), min(len(old), len(new)) + 1)
        return Problem(self.shown, line, 1, f"the cards' search entries no longer match the pages, from this line on; {FIX_HINT}")

    def write(self) -> bool:
        """Write it if it changed; True when written. Replaced only if it
        still holds what was read; OSError when it cannot be written."""
        if self.is_current:
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return write_whole(self.path, self.new, expected=self.old)


def search_file(site_root: Path, shown_root: str, packs: Iterable[PackCards]) -> SearchFile:
    """The docs folder's search entries file, read and made afresh (OSError when it cannot be read)."""
    path = site_root / SEARCH_FILE
    try:
        old: bytes | None = path.read_bytes()
    except FileNotFoundError:
        old = None
    return SearchFile(path, shown_root + SEARCH_FILE, old, file_text(packs).encode("utf-8"))
