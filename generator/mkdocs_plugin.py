"""The MkDocs side of the generator: a thin adapter, registered by entry point.

On every build it renders every pack's generated blocks from ``content/`` in memory
and hands MkDocs the fresh page text; under ``mkdocs serve`` it also watches
``content/``, so saving a YAML file re-renders the tables on the next reload.
Simulation reports are never played here: one measured before the last
change to the cards or the engine is shown with a notice saying so.
It never writes a page: ``stationmaster cards`` does that, and ``check``
keeps the committed pages honest. It adds each pack's ``cards.json`` (the
JSON export) to the built site, made afresh on every build, so it has
nothing committed to drift from.
The generator itself does not import MkDocs.

It also gives every card its own entry in the search index (see
``generator/search.py``), and under ``mkdocs serve`` content that does not
validate is shown on every page instead of stopping the build: a failed
rebuild would leave the browser waiting on a server that never answers.
"""

from __future__ import annotations

import html
import json
import logging
import re
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config import config_options
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from engine.content.problems import render_all
from engine.errors import UsageError
from engine.packs import LoadedPack, known_pack_ids, load_packs
from generator.blocks import MarkerError
from generator.records import EXPORT_NAME, export, to_json
from generator.reports import with_stale_notices
from generator.search import CardEntry, card_entries, card_labels, with_card_entries
from generator.site import render_pack, stray_pages

log = logging.getLogger("mkdocs.plugins.stationmaster")


class CardTablesPlugin(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
    # Pages written for whoever maintains the content (mkdocs.yml names them):
    # search ranks them below the rules pages by this factor.
    config_scheme = (("maintainer_pages", config_options.Type(list, default=[])),)
    MAINTAINER_BOOST = 0.1

    def __init__(self) -> None:
        self.rendered: dict[str, str] | None = None
        self.loaded: list[LoadedPack] = []
        self.root = Path.cwd()
        self.serving = False
        # What the preview shows on every page while the content is broken.
        self.problems: str | None = None
        self.card_names: dict[str, str] = {}
        # Per pack: its title, and each card's family (what a result is labelled with).
        self.pack_titles: dict[str, str] = {}
        self.card_kinds: dict[str, dict[str, str]] = {}
        self.card_entries: dict[str, list[CardEntry]] = {}

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Defining on_startup also makes MkDocs keep this one instance across
        # the rebuilds of ``mkdocs serve``, so ``serving`` holds for all of them.
        self.serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
        return config

    def on_pre_build(self, config: MkDocsConfig) -> None:
        self.rendered, self.problems = None, None
        self.card_names, self.card_entries, self.loaded = {}, {}, []
        try:
            self._render(Path(config.docs_dir))
        except PluginError as exc:
            if not self.serving:
                raise
            self.problems = str(exc)
        except Exception:  # noqa: BLE001  (the preview must answer whatever went wrong)
            if not self.serving:
                raise
            self.problems = "the tables could not be rendered:\n" + traceback.format_exc(limit=-3)
        if self.problems is not None:
            # Info, not a warning: in strict mode a warning would fail the
            # rebuild, and the server would hang again.
            log.info("%s\n(shown on every page until the content is fixed)", self.problems)

    def _render(self, site_dir: Path) -> None:
        loaded, problems = load_packs(self.root / "content")
        if problems:
            raise PluginError("the content does not validate:\n" + render_all(sorted(problems), "text"))
        pages: dict[str, str] = {}
        problems = stray_pages(site_dir, [one.folder.id for one in loaded])
        for one in loaded:
            try:
                rendered = render_pack(one, site_dir).rendered
            except MarkerError as exc:
                problems.extend(exc.problems)
                continue
            except UsageError as exc:  # an edition's content that does not load, say
                raise PluginError(f"cannot render the {one.folder.id} pages: {exc}") from None
            pages.update({f"{one.folder.id}/{name}": with_stale_notices(rendered, name) for name in rendered.new})
        if problems:
            raise PluginError("generated-block markers are broken:\n" + render_all(sorted(problems), "text"))
        self.rendered = pages
        self.loaded = loaded
        self.card_names = {card.id: card.name for one in loaded for card in one.catalog.cards}
        self.pack_titles = {one.folder.id: one.pack.title for one in loaded}
        self.card_kinds = {one.folder.id: {card.id: card.family for card in one.catalog.cards} for one in loaded}

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        for one in self.loaded:
            files.append(File.generated(config, f"{one.folder.id}/{EXPORT_NAME}", content=to_json(export(one.pack, one.catalog))))
        if self.problems is not None:
            # The preview of broken content still links every pack's export;
            # a missing target would fail the strict rebuild and hang the
            # browser, so each pack gets a file that says why it is empty.
            broken = to_json({"error": "the content does not validate; see the problems shown on every page"})
            for pack_id in known_pack_ids():
                if (self.root / "content" / pack_id).is_dir():
                    files.append(File.generated(config, f"{pack_id}/{EXPORT_NAME}", content=broken))
        return files

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        if page.file.src_uri in self.config.get("maintainer_pages", []):
            # Material's search reads a page's boost from its front matter.
            search = page.meta.setdefault("search", {})
            if isinstance(search, dict):
                search.setdefault("boost", self.MAINTAINER_BOOST)
        if self.rendered is None:
            return markdown
        fresh = self.rendered.get(page.file.src_uri)
        return fresh if fresh is not None else markdown

    def on_page_content(self, html_text: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        if self.problems is not None:
            return problems_banner(self.problems) + html_text
        if self.card_names:
            pack_id = page.file.src_uri.split("/", 1)[0]
            labels = card_labels(self.pack_titles.get(pack_id, ""), page.title or "", self.card_kinds.get(pack_id, {}))
            found = card_entries(html_text, page.url, self.card_names, page_boost(page.meta), labels)
            if found:
                self.card_entries[page.url] = found
        return html_text

    # After the search plugin writes its index (priority 0) and before the
    # offline plugin copies it into search_index.js (priority -100).
    @event_priority(-50)
    def on_post_build(self, config: MkDocsConfig) -> None:
        index = Path(config.site_dir) / "search" / "search_index.json"
        if self.card_entries and index.is_file():
            try:
                merged = with_card_entries(index.read_text(encoding="utf-8"), self.card_entries)
            except (ValueError, KeyError, TypeError) as exc:
                raise PluginError(f"{index}: not a search index this plugin can add cards to ({exc})") from None
            index.write_text(merged, encoding="utf-8")

    def on_post_template(self, output_content: str, template_name: str, config: MkDocsConfig) -> str:
        if template_name != "404.html":
            return output_content
        return error_page_from_disk(output_content, urlsplit(config.site_url or "/").path or "/")

    def on_serve(self, server: LiveReloadServer, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        server.watch(str(self.root / "content"))
        return server


def page_boost(meta: Mapping[str, Any]) -> float:
    """The page's ``search: boost:`` front matter, as Material reads it (1 if unset)."""
    search = meta.get("search")
    boost = search.get("boost", 1) if isinstance(search, dict) else 1
    return float(boost) if isinstance(boost, (int, float)) and not isinstance(boost, bool) else 1.0


def error_page_from_disk(page_html: str, root: str) -> str:
    """The 404 page with links that work from disk as well as from a server.

    MkDocs writes its links from the server's root ("/assets/..."), since a
    server sends it for a missing address at any depth; opened from disk
    those name files at the root of the drive, and every one fails. Here
    they are relative to the page, which sits at the site's root, and a
    served page is given a ``<base>`` of that root first, so both find them.
    The styles and scripts are written by a script after that ``<base>``:
    written plainly, the browser would fetch them ahead of it, from the
    wrong folder, and log each miss."""
    quoted = re.escape(root)
    relative = re.sub(rf'\b(href|src)="{quoted}(?!/)', r'\1="', page_html)
    relative = _FETCHED.sub(lambda found: f"<script>document.write({_script_literal(found.group(0))})</script>", relative)
    base = f'<script>location.protocol==="file:"||document.head.appendChild(Object.assign(document.createElement("base"),{{href:{json.dumps(root)}}}))</script>'
    return relative.replace("<head>", "<head>" + base, 1)


# What a page fetches as it is parsed: its styles, its icon, its scripts.
_FETCHED = re.compile(r'<link rel="(?:stylesheet|icon)" href="[^"]*">|<script src="[^"]*"></script>')


def _script_literal(markup: str) -> str:
    """``markup`` as a JavaScript string inside a ``<script>`` element."""
    return json.dumps(markup).replace("</", "<\\/")


def problems_banner(problems: str) -> str:
    """The located problems as an error box at the top of a page."""
    return (
        '<div class="admonition failure" id="stationmaster-problems">'
        '<p class="admonition-title">This preview is out of date: the content has problems</p>'
        f"<pre><code>{html.escape(problems, quote=False)}</code></pre>"
        "<p>Fix them and save: the next reload shows the site again.</p></div>\n"
    )
