"""The MkDocs side of the generator: a thin adapter, registered by entry point.

On every build it renders every pack's generated blocks from ``content/`` in memory
and hands MkDocs the fresh page text; under ``mkdocs serve`` it also watches
``content/``, so saving a YAML file re-renders the tables on the next reload.
It never writes a page: ``stationmaster cards`` does that, and ``check``
keeps the committed pages honest. It adds each pack's ``cards.json`` (the
JSON export) to the built site, made afresh on every build, so it has
nothing committed to drift from. The generator itself does not import MkDocs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from engine.content.problems import render_all
from engine.errors import UsageError
from generator.blocks import MarkerError
from engine.packs import LoadedPack, load_packs
from generator.records import EXPORT_NAME, export, to_json
from generator.site import render_pack, stray_pages


class CardTablesPlugin(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
    def __init__(self) -> None:
        self.rendered: dict[str, str] | None = None
        self.loaded: list[LoadedPack] = []
        self.root = Path.cwd()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
        return config

    def on_pre_build(self, config: MkDocsConfig) -> None:
        site_dir = Path(config.docs_dir)
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
            pages.update({f"{one.folder.id}/{name}": text for name, text in rendered.new.items()})
        if problems:
            raise PluginError("generated-block markers are broken:\n" + render_all(sorted(problems), "text"))
        self.rendered = pages
        self.loaded = loaded

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        for one in self.loaded:
            files.append(File.generated(config, f"{one.folder.id}/{EXPORT_NAME}", content=to_json(export(one.pack, one.catalog))))
        return files

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        if self.rendered is None:
            return markdown
        fresh = self.rendered.get(page.file.src_uri)
        return fresh if fresh is not None else markdown

    def on_serve(self, server: LiveReloadServer, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        server.watch(str(self.root / "content"))
        return server
