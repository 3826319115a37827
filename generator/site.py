"""The whole site, every pack at once: render the generated blocks of each
loaded pack's pages (``site/<id>/``), and find pages that belong to none.

Pages directly under ``site/`` (the home page) and the pages under
``site/kit/`` (the manual of the commands) are the kit's own: they hold no
generated block, since a table belongs to one pack's catalog. Any other
folder under ``site/`` holding pages must be a pack's, so no pack may take
the id ``kit``. Both mistakes are located problems, as is any content
problem in any pack.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.content import files
from engine.content.problems import Problem
from engine.pack import AnyPack
from engine.packs import LoadedPack, PackFolder
from generator.blocks import MarkerError, parse_page
from generator.editions import changes_context
from generator.render import CHANGES_TABLE, Rendered, read_pages, render_site, with_kit_tables
from generator.tableset import table_set


@dataclass(frozen=True)
class PackSite:
    """One pack's catalog and its rendered pages."""

    pack: AnyPack
    folder: PackFolder
    catalog: Any
    site_dir: Path
    prefix: str  # how its pages are shown in messages: "site/<id>/"
    rendered: Rendered


# The folder of the kit's own manual pages, beside the packs' folders.
KIT_FOLDER = "kit"


class _EveryName:
    """A table list that holds any name, to find every block on a kit page."""

    def __contains__(self, name: object) -> bool:
        return True


def _kit_page_paths(site_root: Path) -> list[Path]:
    """The kit's own pages: ``site/*.md``, then every page under ``site/kit/``."""
    return sorted(site_root.glob("*.md")) + sorted((site_root / KIT_FOLDER).rglob("*.md"))


def kit_pages(site_root: Path) -> dict[str, str]:
    """The kit's own pages, outside every pack's folder, by their path under
    ``site/`` (``index.md``, ``kit/play.md``): pages a pack's page may link to."""
    if not site_root.is_dir():
        return {}
    return {path.relative_to(site_root).as_posix(): files.read_bytes(path).decode("utf-8", errors="replace") for path in _kit_page_paths(site_root)}


def stray_pages(site_root: Path, pack_ids: list[str]) -> list[Problem]:
    """Kit pages with a generated block, and pages in a folder that is no pack's."""
    problems: list[Problem] = []
    shown = os.path.relpath(site_root) + "/"
    for path in _kit_page_paths(site_root):
        name = shown + path.relative_to(site_root).as_posix()
        text = files.read_bytes(path).decode("utf-8", errors="replace")
        try:
            blocks = parse_page(name, text, _EveryName()).blocks  # type: ignore[arg-type]
        except MarkerError as exc:
            problems.extend(exc.problems)
            continue
        for block in blocks:
            problems.append(
                Problem(
                    name,
                    block.line,
                    1,
                    f"table '{block.name}' is on a page that belongs to no pack: a kit page holds no generated table; put it on a page under {shown}<pack>/ (packs: {', '.join(pack_ids)})",
                )
            )
    for folder in sorted(p for p in site_root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if folder.name in pack_ids or folder.name == KIT_FOLDER:
            continue
        for path in sorted(folder.rglob("*.md")):
            problems.append(Problem(shown + path.relative_to(site_root).as_posix(), 1, 1, f"this page belongs to no pack: {shown}{folder.name}/ is not a pack's folder (packs: {', '.join(pack_ids)})"))
    return problems


def render_pack(loaded: LoadedPack, site_root: Path, workers: int = 1, measure: bool = False) -> PackSite:
    """Render one pack's pages (every block ending with its checksum,
    ``generator.stamps``); MarkerError lists every marker problem. With
    ``measure`` the pack's stale simulation reports are played again
    (``generator.reports``); without, they keep their committed text."""
    site_dir = site_root / loaded.folder.id
    prefix = os.path.relpath(site_dir) + "/"
    pages = read_pages(site_dir) if site_dir.is_dir() else {}
    tables = with_kit_tables(table_set(loaded.pack.id), {CHANGES_TABLE: lambda catalog: changes_context(loaded)})
    rendered = render_site(loaded.catalog, pages, prefix, workers, tables=tables, measure=measure)
    return PackSite(loaded.pack, loaded.folder, loaded.catalog, site_dir, prefix, rendered)
