"""Render every generated block of every page, in memory.

Rendering never writes: ``cards`` writes the result, ``check`` compares it,
and the MkDocs plugin feeds it to the live preview.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import posixpath
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from engine.content import files
from engine.content.problems import Problem
from engine.pack import CatalogLike
from generator.blocks import Block, MarkerError, Page, parse_page
from generator.cells import anchor, cell, status_words, visible_output, yes_no
from generator.forked import map_pieces
from generator.reports import ReportState, measured_now, provenance, report_state
from generator.stamps import Stamped as Stamped
from generator.stamps import split_stamp as split_stamp
from generator.stamps import stamped
from generator.tableset import TableSet

TEMPLATES = Path(__file__).resolve().parent / "templates"


def environment(pack_templates: str) -> jinja2.Environment:
    """Templates are found in the pack's own folder first, then the shared
    one (``_macros.md.j2``). One environment a process and templates folder:
    Jinja keeps each compiled template in memory and compiles it again when
    its file's time changes, so ``serve``'s rebuilds and the many runs of a
    test session compile the templates once. Nothing compiled is written to
    disk."""
    return _environment(str(TEMPLATES), pack_templates)


@functools.cache
def _environment(templates: str, pack_templates: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(Path(templates) / pack_templates), templates]),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the output is Markdown; ``cell`` escapes each value
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # A value printed without ``cell`` (a number, an id, a macro's
        # result) still never puts a control or bidi character on a page.
        finalize=visible_output,
    )
    env.filters.update(cell=cell, anchor=anchor, yes_no=yes_no, status_words=status_words)
    return env


_TEMPLATE_NAME = re.compile(r"""\{%-?\s*(?:include|import|from|extends)\s+["']([^"']+)["']""")


def template_files(templates: str, table: str) -> list[Path]:
    """The template of ``table`` and every template it takes text or macros
    from, as the loader finds them (the pack's folder first), in name order."""
    found: dict[str, Path] = {}
    todo = [f"{table}.md.j2"]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        for folder in (TEMPLATES / templates, TEMPLATES):
            if (folder / name).is_file():
                found[name] = folder / name
                todo.extend(_TEMPLATE_NAME.findall(found[name].read_text(encoding="utf-8")))
                break
    return [found[name] for name in sorted(found)]


def template_digest(templates: str, table: str) -> str:
    """A digest of the templates ``table`` is laid out by (``template_files``)."""
    digest = hashlib.sha256()
    for path in template_files(templates, table):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


class InputsUnavailable(Exception):
    """A table's inputs cannot be had here (the git history a page is made
    from, in a shallow clone): the block keeps its committed text."""


# The kit's own tables, which every pack's site places: "changes", the What
# changed page (generator/editions.py), made by the caller that knows where
# the pack's content is (generator.site.render_pack); rendered without that,
# their committed text stands.
CHANGES_TABLE = "changes"
KIT_TABLES = (CHANGES_TABLE,)


def _made_by_render_pack(catalog: Any) -> dict[str, Any]:
    raise InputsUnavailable("only `stationmaster cards` (which knows the pack's content folder) makes it")


def with_kit_tables(tables: TableSet, made: Mapping[str, Callable[[Any], dict[str, Any]]] | None = None) -> TableSet:
    """``tables`` and the kit's tables it lacks, each from ``made`` if given there."""
    kit = {name: (made or {}).get(name, _made_by_render_pack) for name in KIT_TABLES if name not in tables.tables}
    if not kit:
        return tables
    return dataclasses.replace(tables, tables={**tables.tables, **kit})


@dataclass(frozen=True)
class Rendered:
    """Old and new text of every page, plus where each table and card lives,
    and how each simulation report stands (``generator.reports``)."""

    old: dict[str, str]
    new: dict[str, str]
    pages: dict[str, Page]
    table_page: dict[str, str]
    card_page: dict[str, str]
    tables: TableSet
    reports: tuple[ReportState, ...] = ()
    # Reports measured by this render (``measure=True``), by table name.
    measured: tuple[str, ...] = ()


def read_pages(site_dir: Path) -> dict[str, str]:
    """Every Markdown page under ``site_dir``, keyed by its posix path relative to it."""
    pages: dict[str, str] = {}
    for path in sorted(site_dir.rglob("*.md")):
        pages[path.relative_to(site_dir).as_posix()] = files.read_bytes(path).decode("utf-8")
    return pages


def _size(context: Mapping[str, Any]) -> int:
    rows = context.get("rows")
    return len(rows) if isinstance(rows, list) else 0


def render_site(catalog: CatalogLike, pages: Mapping[str, str], display_prefix: str = "site/", workers: int = 1, *, tables: TableSet, measure: bool = False) -> Rendered:
    """Re-render every as-built table; MarkerError lists every marker problem first.

    Every block ends with a checksum of its own text (``generator.stamps``).
    A simulation report (``tables.reports``) keeps its committed text: it is
    a measurement, made only with ``measure`` (``cards --reports``), which
    plays again each report that no longer stands for the cards and engine
    here. The blocks are rendered over up to ``workers`` processes; the text
    is the same for any number."""
    tables = with_kit_tables(tables)
    problems: list[Problem] = []
    parsed: dict[str, Page] = {}
    for name, text in pages.items():
        try:
            parsed[name] = parse_page(display_prefix + name, text, tables.tables)
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

    contexts: dict[str, dict[str, Any]] = {}
    unavailable: set[str] = set()
    for table in sorted(table_page):
        if table in tables.reports:
            continue
        try:
            contexts[table] = tables.tables[table](catalog)
        except InputsUnavailable as exc:
            # What cannot be made here cannot be shown stale here either: the
            # committed text stands, and a checkout that has the inputs (a
            # full clone) makes and checks it.
            print(f"note: table '{table}' kept as committed: {exc}", file=sys.stderr)
            unavailable.add(table)
    card_page: dict[str, str] = {}
    for table, context in contexts.items():
        for row in context.get("rows", []):
            if isinstance(row, dict) and isinstance(row.get("id"), str) and table not in tables.links_only:
                card_page.setdefault(row["id"], table_page[table])

    helpers = tables.helpers(catalog)
    env = environment(tables.templates)
    links: dict[str, Any] = {}
    for name in parsed:

        def link(card_id: str, text: str, _here: str = name) -> str:
            target = card_page.get(card_id)
            if target is None:
                return cell(text)
            href = "" if target == _here else posixpath.relpath(target, posixpath.dirname(_here) or ".")
            return f"[{cell(text)}]({href}#{anchor(card_id)})"

        links[name] = link

    # How each report stands; with ``measure``, the ones to play again.
    report_blocks = [(name, block) for name, page in parsed.items() for block in page.blocks if block.name in tables.reports]
    # What each report would record if measured now: worked out once, for
    # judging it and for the stamp of a report measured again.
    now_of = {block.name: measured_now(catalog, tables.templates, template_digest(tables.templates, block.name)) for _, block in report_blocks}
    states = tuple(report_state(display_prefix + name, block, now_of[block.name]) for name, block in report_blocks)
    to_measure = {s.block.name for s in states if s.state != "current"} if measure else set()

    def body(piece: tuple[str, Block]) -> str:
        name, block = piece
        if block.name in unavailable or (block.name in tables.reports and block.name not in to_measure):
            return block.body
        if block.name in tables.reports:
            now = now_of[block.name]
            context = tables.tables[block.name](catalog)
            text = env.get_template(f"{block.name}.md.j2").render(**context, link=links[name], **helpers).strip("\n")
            return stamped("\n" + text + "\n\n" + provenance(context, now), now)
        template = env.get_template(f"{block.name}.md.j2")
        rendered = template.render(**contexts[block.name], link=links[name], **helpers).strip("\n")
        return stamped("\n" + rendered + "\n\n")

    # Every block renders on its own, so blocks spread over the workers; the
    # templates are compiled first, here, for every worker to inherit.
    pieces = [(name, block) for name, page in parsed.items() for block in page.blocks]
    for _, block in pieces:
        if block.name not in unavailable and (block.name not in tables.reports or block.name in to_measure):
            env.get_template(f"{block.name}.md.j2")  # a report kept as committed is never laid out again

    def cost(piece: tuple[str, Block]) -> int:
        name = piece[1].name
        return 10**9 if name in to_measure else _size(contexts.get(name, {}))

    bodies = map_pieces(body, pieces, workers, cost)
    by_block = {(name, block.line): text for (name, block), text in zip(pieces, bodies)}
    new: dict[str, str] = {}
    for name, page in parsed.items():

        def rendered_body(block: Block, _name: str = name) -> str:
            return by_block[(_name, block.line)]

        new[name] = page.render(rendered_body)
    if to_measure:
        # The reports just measured stand for what is here now.
        states = tuple(dataclasses.replace(s, state="current", changed=()) if s.block.name in to_measure else s for s in states)
    return Rendered(dict(pages), new, parsed, table_page, card_page, tables, states, tuple(sorted(to_measure)))
