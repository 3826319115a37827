"""``stationmaster cards`` and ``check``: one in-memory render of every
pack's pages, then write the changed pages or compare them with what is
committed."""

from __future__ import annotations

import argparse
import os
import sys

from engine.collector import collector_paused
from engine.content.problems import Problem, render_all
from engine.errors import UsageError
from generator.blocks import MarkerError
from generator.drift import PagesKept, describe, drift, write_pages
from generator.forked import workers_for
from generator.lint import lint
from generator.project import Project
from engine.packs import load_packs
from generator.site import PackSite, render_pack, stray_pages


def run(args: argparse.Namespace) -> int:
    project = Project.here()
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
                    sites.append(render_pack(one, project.site, workers))
            except MarkerError as exc:
                problems.extend(exc.problems)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the pages under {os.path.relpath(project.site)}/: {exc}") from None
    if problems:
        print(render_all(sorted(problems), "text"))
        print("marker errors; nothing was written" if args.write else "marker errors", file=sys.stderr)
        return 1
    lint_problems: list[Problem] = []
    for site in sites:
        with collector_paused():
            lint_problems += lint(site.catalog, site.rendered, site.rendered.tables.tables, site.prefix, workers_for(len(site.catalog.cards)))
    return _write(sites, lint_problems) if args.write else _check(sites, lint_problems)


def _write(sites: list[PackSite], lint_problems: list[Problem]) -> int:
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
