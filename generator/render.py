"""Render every generated block of every page, in memory.

Rendering never writes: ``cards`` writes the result, ``check`` compares it,
and the MkDocs plugin feeds it to the live preview.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from engine.content.model import Catalog, TrackShape
from engine.content.problems import Problem
from generator.blocks import Block, MarkerError, Page, parse_page
from generator.cells import anchor, cell, yes_no
from generator.svg import track_svg
from generator.tables import EXPENSIVE, LINKS_ONLY, TABLES

TEMPLATES = Path(__file__).resolve().parent / "templates"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the output is Markdown; ``cell`` escapes each value
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(cell=cell, anchor=anchor, yes_no=yes_no)
    return env


@dataclass(frozen=True)
class Rendered:
    """Old and new text of every page, plus where each table and card lives."""

    old: dict[str, str]
    new: dict[str, str]
    pages: dict[str, Page]
    table_page: dict[str, str]
    card_page: dict[str, str]
    contexts: dict[str, dict[str, Any]]


def read_pages(site_dir: Path) -> dict[str, str]:
    """Every Markdown page under ``site_dir``, keyed by its posix path relative to it."""
    pages: dict[str, str] = {}
    for path in sorted(site_dir.rglob("*.md")):
        pages[path.relative_to(site_dir).as_posix()] = path.read_bytes().decode("utf-8")
    return pages


_STAMP = re.compile(r"^<!-- inputs ([0-9a-f]{64}) body ([0-9a-f]{64}) -->$", re.MULTILINE)


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


def inputs_fingerprint(catalog: Catalog, table: str, card_page: Mapping[str, str]) -> str:
    """Everything an expensive table depends on: the content, the engine's and
    the generator's source (templates included) and which page each card's
    row is on (for its links). Equal fingerprints render equal text."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(catalog.fingerprint.encode())
    for folder in ("engine", "generator"):
        for source in sorted((root / folder).rglob("*")):
            if source.suffix in (".py", ".j2"):
                digest.update(source.relative_to(root).as_posix().encode() + b"\0" + source.read_bytes())
    digest.update(repr(sorted(card_page.items())).encode())
    return digest.hexdigest()


def _expensive_body(catalog: Catalog, env: jinja2.Environment, block: Block, contexts: dict[str, dict[str, Any]], link: Any, card_page: Mapping[str, str]) -> str:
    """A table that takes seconds to compute (the simulation) is computed only
    when its inputs or its own text changed since it was written: the block
    ends with a stamp of both, so a hand edit or any content or engine change
    still forces the full computation and shows as drift."""
    wanted = inputs_fingerprint(catalog, block.name, card_page)
    stamp = _STAMP.search(block.body)
    if stamp and stamp.group(1) == wanted:
        text = block.body[: stamp.start()]
        if _sha(text) == stamp.group(2):
            return block.body
    if block.name not in contexts:
        contexts[block.name] = TABLES[block.name](catalog)
    rendered = env.get_template(f"{block.name}.md.j2").render(**contexts[block.name], link=link).strip("\n")
    text = "\n" + rendered + "\n\n"
    return f"{text}<!-- inputs {wanted} body {_sha(text)} -->\n"


def render_site(catalog: Catalog, pages: Mapping[str, str], display_prefix: str = "site/") -> Rendered:
    """Re-render every block; MarkerError lists every marker problem first."""
    problems: list[Problem] = []
    parsed: dict[str, Page] = {}
    for name, text in pages.items():
        try:
            parsed[name] = parse_page(display_prefix + name, text, TABLES)
        except MarkerError as exc:
            problems.extend(exc.problems)
    table_page: dict[str, str] = {}
    for name, page in parsed.items():
        for block in page.blocks:
            if block.name in table_page:
                problems.append(Problem(display_prefix + name, block.line, 1, f"table '{block.name}' is already placed on {display_prefix}{table_page[block.name]}; each table appears once"))
            table_page.setdefault(block.name, name)
    if problems:
        raise MarkerError(sorted(problems))

    contexts = {table: TABLES[table](catalog) for table in sorted(table_page) if table not in EXPENSIVE}
    card_page: dict[str, str] = {}
    for table, context in contexts.items():
        for row in context.get("rows", []):
            if isinstance(row, dict) and isinstance(row.get("id"), str) and table not in LINKS_ONLY:
                card_page.setdefault(row["id"], table_page[table])

    shapes = {shape.id: shape.routes for shape in catalog.of_type(TrackShape)}

    def track_picture(card_id: str) -> str:
        """The inline SVG of a track card (``track_svg`` in the templates)."""
        return track_svg(shapes[card_id])

    env = environment()
    new: dict[str, str] = {}
    for name, page in parsed.items():

        def link(card_id: str, text: str, _here: str = name) -> str:
            target = card_page.get(card_id)
            if target is None:
                return cell(text)
            href = "" if target == _here else posixpath.relpath(target, posixpath.dirname(_here) or ".")
            return f"[{cell(text)}]({href}#{anchor(card_id)})"

        def body(block: Block, _link: Any = link) -> str:
            if block.name in EXPENSIVE:
                return _expensive_body(catalog, env, block, contexts, _link, card_page)
            template = env.get_template(f"{block.name}.md.j2")
            rendered = template.render(**contexts[block.name], link=_link, track_svg=track_picture).strip("\n")
            return "\n" + rendered + "\n\n"

        new[name] = page.render(body)
    return Rendered(dict(pages), new, parsed, table_page, card_page, contexts)
