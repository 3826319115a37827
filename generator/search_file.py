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

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

from generator.datafiles import DataFile, read_data
from generator.search import CardEntry, card_entries, card_labels

# Where the file sits, relative to the docs folder (and to the built site).
SEARCH_FILE = "assets/search/cards.js"
_HEADER = "// Every card's search entry, made by `stationmaster cards` from the card tables: do not edit.\n"


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
    names = tuple(sorted(pack.names.items()))
    families = tuple(sorted(pack.families.items()))
    entries: list[CardEntry] = []
    for name in sorted(pack.pages):
        if name.endswith(".md"):
            entries += _page_entries(pack.pages[name], f"{pack.folder}/{name[:-3]}.html", name[:-3], pack.title, names, families)
    return entries


@functools.lru_cache(maxsize=256)
def _page_entries(text: str, location: str, fallback_title: str, pack_title: str, names: tuple[tuple[str, str], ...], families: tuple[tuple[str, str], ...]) -> tuple[CardEntry, ...]:
    """One page's entries. Remembered for this process, by everything they
    are made of: ``serve`` and a test session make them again and again from
    pages that mostly did not change (nothing is kept on disk)."""
    parser = _parser()
    tokens = parser.parse(text)
    html = parser.renderer.render(tokens, parser.options, {})
    labels = card_labels(pack_title, _title(list(tokens), fallback_title), dict(families))
    return tuple(card_entries(html, location, dict(names), labels=labels))


@functools.cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def file_text(packs: Iterable[PackCards]) -> str:
    """The file: a script that hands the browser every pack's entries (one a line, so a change diffs as the rows it touches)."""
    lines = [json.dumps(entry.as_document(), ensure_ascii=False, separators=(",", ":")) for pack in packs for entry in pack_entries(pack)]
    return _HEADER + "window.__cardEntries = [\n" + ",\n".join(lines) + "\n];\n"


def search_file(site_root: Path, shown_root: str, packs: Iterable[PackCards]) -> DataFile:
    """The docs folder's search entries file, read and made afresh (OSError when it cannot be read)."""
    return read_data(
        site_root / SEARCH_FILE,
        shown_root + SEARCH_FILE,
        file_text(packs).encode("utf-8"),
        missing="the cards' search entries are missing",
        made_from="what the pages make of the cards' search entries",
    )
