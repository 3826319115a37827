"""``stationmaster cards`` and ``check``: one in-memory render of every
pack's pages, then write the changed pages or compare them with what is
committed.

``check`` first asks ``generator.quickcheck`` whether file hashes alone show
that nothing changed since a full check passed (every block's stamp holds,
and this very state was found clean before); only if not does it load,
render and lint. The heavy modules (the content loader, Jinja, the Markdown
parser) are imported only on that path, so a quick check never pays for them.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from engine.errors import UsageError
from generator.project import Project
from generator.quickcheck import SiteState, known_clean, remember_clean, site_state

if TYPE_CHECKING:
    from engine.content.problems import Problem
    from generator.site import PackSite


def run(args: argparse.Namespace) -> int:
    project = Project.here()
    before = site_state(project)
    if not args.write and before is not None and known_clean(before):
        for line in before.lines:
            print(line)
        return 0
    return _full(args, project, before)


def _full(args: argparse.Namespace, project: Project, before: SiteState | None) -> int:
    from engine.collector import collector_paused
    from engine.content.problems import render_all
    from engine.packs import load_packs
    from generator.blocks import MarkerError
    from generator.forked import workers_for
    from generator.lint import lint
    from generator.site import kit_pages, render_pack, stray_pages

    loaded, problems = load_packs(project.content)
    if problems:
        print(render_all(sorted(problems), "text"))
        print("the content does not validate; nothing was written" if args.write else "the content does not validate", file=sys.stderr)
        return 1
    try:
        problems = stray_pages(project.site, [p.folder.id for p in loaded])
        sites: list[PackSite] = []
        for one in loaded:
            workers = workers_for(len(one.catalog.cards))
            try:
                with collector_paused():
                    sites.append(render_pack(one, project.site, workers, keep_stamps=not args.write))
            except MarkerError as exc:
                problems.extend(exc.problems)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the pages under {os.path.relpath(project.site)}/: {exc}") from None
    if problems:
        print(render_all(sorted(problems), "text"))
        print("marker errors; nothing was written" if args.write else "marker errors", file=sys.stderr)
        return 1
    # Every page of the site, as it will be built: a link may cross from one
    # pack's pages to another's or to the kit's home page.
    site_pages = {f"{site.folder.id}/{name}": text for site in sites for name, text in site.rendered.new.items()}
    try:
        site_pages.update(kit_pages(project.site))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the pages under {os.path.relpath(project.site)}/: {exc}") from None
    lint_problems: list[Problem] = []
    for site in sites:
        with collector_paused():
            lint_problems += lint(site.catalog, site.rendered, site.rendered.tables.tables, site.prefix, workers_for(len(site.catalog.cards)), site_pages=site_pages, folder=site.folder.id)
    code = _write(sites, lint_problems) if args.write else _check(sites, lint_problems)
    if code == 0 and before is not None:
        _remember(project, before, sites, args.write)
    return code


def _remember(project: Project, before: SiteState, sites: list[PackSite], wrote: bool) -> None:
    """Note the state just found clean, for the next ``check`` to recognise
    by its hashes: only when what is on disk now is what was checked (no
    content, code or page changed while this ran; after ``cards``, the
    pages on disk are the ones just rendered and linted)."""
    after = site_state(project)
    if after is None or after.inputs != before.inputs or after.others != before.others:
        return
    if wrote:
        if any(after.pages.get(site.folder.id) != site.rendered.new for site in sites):
            return
    elif after.key != before.key:
        return
    remember_clean(after, frozenset((site.folder.id, table) for site in sites for table in site.rendered.tables.expensive))


def _write(sites: list[PackSite], lint_problems: list[Problem]) -> int:
    from engine.content.problems import render_all
    from generator.drift import PagesKept, write_pages

    written: list[str] = []
    kept: list[Problem] = []  # pages left alone rather than lose someone's text
    for site in sites:
        try:
            names = write_pages(site.site_dir, site.rendered, site.prefix)
        except PagesKept as exc:
            names, kept = exc.written, kept + exc.problems
        except OSError as exc:
            raise UsageError(f"cannot write under {site.prefix}: {exc.strerror or exc} (pages already written stay whole; run again once fixed)") from None
        written += [site.prefix + name for name in names]
    print(f"{len(written)} page(s) rewritten" + (": " + ", ".join(written) if written else "; all tables were up to date" if not kept else ""))
    if kept:
        print(render_all(kept, "text"))
        print(f"{len({p.path for p in kept})} page(s) not written, to keep text that regenerating would lose (see above)", file=sys.stderr)
    if lint_problems:
        print(render_all(lint_problems, "text"))
    return 1 if kept or lint_problems else 0


def _check(sites: list[PackSite], lint_problems: list[Problem]) -> int:
    from engine.content.problems import render_all
    from generator.drift import describe, drift

    drifts = [d for site in sites for d in drift(site.rendered, site.prefix)]
    if drifts:
        print(describe(drifts))
    if lint_problems:
        print(render_all(lint_problems, "text"))
    if drifts or lint_problems:
        return 1
    for site in sites:
        print(f"{site.prefix}: {len(site.rendered.new)} pages and {len(site.rendered.table_page)} tables agree with {site.folder.display}/")
    return 0
