"""The MkDocs side of the generator: a thin adapter, registered by entry point.

On every build it renders every pack's generated blocks from ``content/`` in memory
and hands MkDocs the fresh page text; under ``mkdocs serve`` it also watches
``content/``, so saving a YAML file re-renders the tables on the next reload.
Simulation reports are never played here: one measured before the last
change to the cards or the engine is shown with a notice saying so.
It never writes a page: ``stationmaster cards`` does that, and ``check``
keeps the committed pages honest. Each pack's ``cards.json`` (the JSON
export) is one of those committed files (``generator/datafiles.py``): the
build copies it like any other file of the docs folder, so the site needs
this plugin only for the search entries and the live preview.
The generator itself does not import MkDocs.

Every card's search entry is a committed file too (``generator/search_file.py``);
the plugin writes a fresh copy into the built site, so the preview searches
the tables as they are now. Under ``mkdocs serve`` content that does not
validate is shown on every page instead of stopping the build: a failed
rebuild would leave the browser waiting on a server that never answers.
"""

from __future__ import annotations

import html
import json
import logging
import re
import traceback
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config import config_options
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from engine.content.problems import render_all
from engine.errors import UsageError
from engine.packs import LoadedPack, load_packs
from generator.blocks import MarkerError
from generator.reports import with_stale_notices
from generator.search_file import SEARCH_FILE, PackCards, file_text
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
        # What the cards' search entries are made of, per pack (``generator.search_file``).
        self.search_packs: list[PackCards] = []

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Defining on_startup also makes MkDocs keep this one instance across
        # the rebuilds of ``mkdocs serve``, so ``serving`` holds for all of them.
        self.serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
        return config

    def on_pre_build(self, config: MkDocsConfig) -> None:
        self.rendered, self.problems = None, None
        self.search_packs, self.loaded = [], []
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
            cards = one.catalog.cards
            self.search_packs.append(PackCards(one.folder.id, one.pack.title, {c.id: c.name for c in cards}, {c.id: c.family for c in cards}, rendered.new))
        if problems:
            raise PluginError("generated-block markers are broken:\n" + render_all(sorted(problems), "text"))
        self.rendered = pages
        self.loaded = loaded

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
        return html_text

    def on_post_build(self, config: MkDocsConfig) -> None:
        # The committed file is what `stationmaster cards` last wrote; the
        # preview shows the entries of the tables as they are now.
        if self.search_packs and self.problems is None:
            target = Path(config.site_dir) / SEARCH_FILE
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(file_text(self.search_packs), encoding="utf-8")

    def on_post_template(self, output_content: str, template_name: str, config: MkDocsConfig) -> str:
        if template_name != "404.html":
            return output_content
        return error_page_from_disk(output_content, urlsplit(config.site_url or "/").path or "/")

    def on_serve(self, server: LiveReloadServer, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        server.watch(str(self.root / "content"))
        return server


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
