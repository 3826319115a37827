"""``stationmaster cards`` and ``check``: one in-memory render of every
pack's pages, then write the changed pages or compare them with what is
committed.

Two kinds of generated block are told apart here (``generator.reports``).
As-built tables are rendered afresh on every run; ``check`` fails when, and
only when, their committed text differs from that render, or a marker or
page is damaged. Simulation reports are measurements: neither command
plays them again (``cards --reports`` does); ``check`` lists the stale ones
in a section of their own and passes, unless ``--reports`` is given.

Every ``check`` loads, renders and lints afresh: no verdict is kept from
one run to the next, so nothing left on disk can make a broken page or
broken content pass.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import UsageError
from generator.project import Project

if TYPE_CHECKING:
    from engine.content.problems import Problem
    from generator.datafiles import DataFile
    from generator.site import PackSite

REFRESH = "`make reports` (or `stationmaster cards --reports`)"


def run(args: argparse.Namespace) -> int:
    if not args.write:
        return _run(args)
    with _writing_pages(Project.here().site):
        return _run(args)


@contextmanager
def _writing_pages(site: Path) -> Iterator[None]:
    """Hold the site's lock while ``cards`` renders and writes: a second
    ``cards`` started meanwhile is refused in one line, rather than both
    writing and each taking the other's pages for someone's edits. The lock
    is the system's (``flock`` on the folder): it goes with the process,
    however it ends, and leaves no file behind."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX: no lock to take
        yield
        return
    try:
        fd = os.open(site, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        yield  # no site folder to lock: reading it says what is wrong
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(f"another `stationmaster cards` is writing the pages under {os.path.relpath(site)}/ (it holds their lock); run again once it has finished") from None
        except OSError:
            pass  # a file system without locks: go on as before there were any
        yield
    finally:
        os.close(fd)


def _print_stale(stale: list[str], strict: bool, to_stderr: bool = False) -> None:
    """The stale-report section: on stdout for ``check`` (part of its
    report), on stderr for ``cards`` (a note beside what it wrote)."""
    if not stale:
        return
    out = sys.stderr if to_stderr else sys.stdout
    count = f"{len(stale)} simulation report{'s' if len(stale) != 1 else ''}"
    if strict:
        print(f"{count} no longer stand for the cards and engine here; {REFRESH} measures them again:", file=sys.stderr)
    else:
        print(f"\nStale simulation reports (not an error: the tables agree; {REFRESH} measures them again, `check --reports` fails on them):", file=out)
    for line in stale:
        print(line, file=out)


def _run(args: argparse.Namespace) -> int:
    from engine.collector import collector_paused
    from engine.content.problems import render_all
    from engine.packs import load_packs
    from generator.blocks import MarkerError
    from generator.forked import workers_for
    from generator.lint import lint
    from generator.site import kit_pages, render_pack, stray_pages

    project = Project.here()
    loaded, problems = load_packs(project.content)
    if problems:
        print(render_all(sorted(problems), "text"))
        print("the content does not validate; nothing was written" if args.write else "the content does not validate", file=sys.stderr)
        return 1
    measure = bool(args.write and args.reports)
    try:
        problems = stray_pages(project.site, [p.folder.id for p in loaded])
        sites: list[PackSite] = []
        for one in loaded:
            workers = workers_for(len(one.catalog.cards))
            try:
                with collector_paused():
                    sites.append(render_pack(one, project.site, workers, measure=measure))
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
    edited = [r.problem() for site in sites for r in site.rendered.reports if r.state == "edited"]
    stale = [r.problem().render() for site in sites for r in site.rendered.reports if r.state in ("stale", "unmeasured")]
    data = [*_data_files(sites), _search_entries(project.site, sites)]
    if args.write:
        code = _write(sites, lint_problems + edited, data)
        _print_stale(stale, False, to_stderr=True)
    else:
        code = _check(sites, lint_problems + edited, stale, [d.problem() for d in data if not d.is_current])
    if code != 0 or args.write:
        return code
    _print_stale(stale, args.reports)
    return 1 if args.reports and stale else 0


def _data_files(sites: list[PackSite]) -> list[DataFile]:
    """Each pack's ``cards.json`` as committed beside its pages and as the content makes it."""
    from generator.datafiles import cards_file
    from generator.records import EXPORT_NAME

    found = []
    for site in sites:
        if not site.site_dir.is_dir():
            continue
        try:
            found.append(cards_file(site.pack, site.catalog, site.site_dir, site.prefix))
        except OSError as exc:
            raise UsageError(f"cannot read {site.prefix}{EXPORT_NAME}: {exc.strerror or exc}") from None
    return found


def _search_entries(site_root: Path, sites: list[PackSite]) -> DataFile:
    """The cards' search entries file, as committed and as the pages make it."""
    from generator.search_file import PackCards, search_file

    packs = [PackCards(site.folder.id, site.pack.title, {c.id: c.name for c in site.catalog.cards}, {c.id: c.family for c in site.catalog.cards}, site.rendered.new) for site in sites]
    try:
        return search_file(site_root, os.path.relpath(site_root) + "/", packs)
    except OSError as exc:
        raise UsageError(f"cannot read the search entries under {os.path.relpath(site_root)}/: {exc.strerror or exc}") from None


def _summary(sites: list[PackSite]) -> list[str]:
    return [f"{site.prefix}: {len(site.rendered.new)} pages and {len(site.rendered.table_page)} tables agree with {site.folder.display}/" for site in sites]


def _write(sites: list[PackSite], problems: list[Problem], data: list[DataFile]) -> int:
    from engine.content.problems import Problem, render_all
    from generator.datafiles import write_data
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
    for one in data:
        try:
            if write_data(one):
                written.append(one.shown)
            elif not one.is_current:
                kept.append(Problem(one.shown, 1, 1, "this file changed on disk while `cards` was running; it was left as it is now: run `cards` again"))
        except OSError as exc:
            raise UsageError(f"cannot write {one.shown}: {exc.strerror or exc} (pages already written stay whole; run again once fixed)") from None
    print(f"{len(written)} page(s) rewritten" + (": " + ", ".join(written) if written else "; all tables were up to date" if not kept else ""))
    for site in sites:
        for name in site.rendered.measured:
            print(f"{site.prefix}{site.rendered.table_page[name]}: report '{name}' measured again")
    if kept:
        print(render_all(kept, "text"))
        print(f"{len({p.path for p in kept})} page(s) not written, to keep text that regenerating would lose (see above)", file=sys.stderr)
    if problems:
        print(render_all(problems, "text"))
    return 1 if kept or problems else 0


def _check(sites: list[PackSite], problems: list[Problem], stale: list[str], data: list[Problem]) -> int:
    from engine.content.problems import render_all
    from generator.drift import describe, drift

    drifts = [d for site in sites for d in drift(site.rendered, site.prefix)]
    if drifts or problems or data:
        # Listed first, so the drift report still ends with the command that fixes it.
        _print_stale(stale, False)
    if data:
        print(render_all(data, "text"))
    if drifts:
        print(describe(drifts))
    if problems:
        print(render_all(problems, "text"))
    if drifts or problems or data:
        return 1
    for line in _summary(sites):
        print(line)
    return 0
