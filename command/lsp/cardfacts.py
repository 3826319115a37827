"""What the rules site says of each card, asked of the generator itself:
the Status and Dealt cells of the card's row (the pack's own table
functions, ``generator.tableset``'s words), the page that places that table,
and the anchor of the row (``generator.cells.anchor``). Nothing is worded
twice: a hover shows what the site shows.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from engine.content import files
from engine.pack import AnyPack
from generator.blocks import MarkerError, parse_page
from generator.cells import anchor
from generator.render import read_pages
from generator.tableset import STATUS_WORDS, table_set

log = logging.getLogger(__name__)
SITE = "site"
BUILT = Path("build") / "site"
_SETTING = re.compile(r"^(site_url|use_directory_urls|site_dir|docs_dir):[ \t]*['\"]?([^'\"#\s]*)", re.MULTILINE)


@dataclass(frozen=True)
class Row:
    """A card's row on the site: its page (under ``site/``), its Dealt words
    and its status."""

    page: str
    dealt: str | None
    status: str | None


def status_words(status: str | None) -> str:
    """A status as the site's reader sees it, with the engine's word after it."""
    if status is None:
        return "— (the card names no effect)"  # the site's Status cell shows the dash
    return f"{STATUS_WORDS.get(status, status)} ({status})"


def rows(pack: AnyPack, catalog: Any, root: Path) -> dict[str, Row]:
    """Every card's row, from the pack's tables placed on its pages.

    Tables that only link to cards, and simulation reports (measured, not
    derived), are passed over: a card's home is its own table."""
    site_dir = root / SITE / pack.id
    try:
        pages = read_pages(site_dir) if site_dir.is_dir() else {}
        tables = table_set(pack.id)
    except (files.Unreadable, UnicodeDecodeError, OSError) as exc:
        log.error("the site pages of %s cannot be read: %s", pack.id, exc)
        return {}
    placed: dict[str, str] = {}
    for name, text in pages.items():
        try:
            page = parse_page(f"{SITE}/{pack.id}/{name}", text, tables.tables)
        except MarkerError:
            continue  # check and cards report it; the hover goes without
        for block in page.blocks:
            placed.setdefault(block.name, f"{pack.id}/{name}")
    found: dict[str, Row] = {}
    for name, make in tables.tables.items():
        if name in tables.reports or name in tables.links_only or name not in placed:
            continue
        context = make(catalog)
        for row in context.get("rows", ()) if isinstance(context, dict) else ():
            if isinstance(row, dict) and isinstance(row.get("id"), str) and row["id"] not in found:
                found[row["id"]] = Row(placed[name], row.get("dealt"), row.get("status"))
    return found


def row_link(root: Path, page: str, card_id: str) -> str:
    """The address of a card's row on the built site: under ``site_url``
    when mkdocs.yml gives one, else the built file on this machine."""
    settings = _settings(root)
    directory_urls = settings.get("use_directory_urls", "true").lower() != "false"
    stem = page[: -len(".md")] if page.endswith(".md") else page
    built = f"{stem}/" if directory_urls else f"{stem}.html"
    if directory_urls and stem.endswith("index"):
        built = stem[: -len("index")]
    fragment = "#" + anchor(card_id)
    base = settings.get("site_url")
    if base:
        return base.rstrip("/") + "/" + quote(built) + fragment
    site_dir = root / settings.get("site_dir", str(BUILT))
    return (site_dir / built).absolute().as_uri() + fragment


def _settings(root: Path) -> dict[str, str]:
    try:
        text = files.read_bytes(root / "mkdocs.yml").decode("utf-8", "replace")
    except files.Unreadable:
        return {}
    return {m.group(1): m.group(2) for m in _SETTING.finditer(text) if m.group(2)}
