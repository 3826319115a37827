"""The ``stationmaster`` command.

Exit codes: 0 all well; 1 the content (or the docs) need fixing; 2 the
command itself was unusable (bad arguments, missing directory, unreadable
file); 3 a bug in the kit itself. No subcommand ever prints a traceback for bad input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.commands import PLAY_HELP, SIMULATE_HELP
from engine.content.problems import render_all
from engine.errors import ContentError, UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The argument parser. ``play`` and ``simulate`` get their full
    arguments (and their modules are imported) only when ``argv`` names them;
    otherwise each is listed with its summary alone."""
    parser = _Parser(prog="stationmaster", description="Station Master rules kit: content, engine and rules site.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    validate = sub.add_parser("validate", help="check every content file and report each problem with its place")
    validate.add_argument("content_dir", nargs="?", default="content", help="the content directory (default: content)")
    validate.add_argument("--format", choices=("text", "github", "json"), default="text", help="how to print problems")
    cards = sub.add_parser("cards", help="rewrite the generated tables in site/ from content/ (in place, atomically)")
    cards.set_defaults(write=True)
    check = sub.add_parser("check", help="exit 1 if any generated table in site/ differs from what content/ renders to")
    check.set_defaults(write=False)
    chosen = next((arg for arg in argv if not arg.startswith("-")), None)
    if chosen == "play":
        from engine import play

        play.add_parser(sub)
    else:
        sub.add_parser("play", help=PLAY_HELP)
    if chosen == "simulate":
        from engine import simulate

        simulate.add_parser(sub)
    else:
        sub.add_parser("simulate", help=SIMULATE_HELP)
    return parser


def cmd_site(args: argparse.Namespace) -> int:
    """``cards`` and ``check``: one in-memory render, then write or compare."""
    import os

    from engine.collector import collector_paused
    from engine.content.loader import load_catalog
    from engine.status import registry_problems
    from generator.blocks import MarkerError
    from generator.drift import describe, drift, write_pages
    from generator.forked import workers_for
    from generator.lint import lint
    from generator.project import Project
    from generator.render import read_pages, render_site
    from generator.tables import TABLES

    project = Project.here()
    try:
        catalog = load_catalog(project.content)
    except ContentError as exc:
        print(render_all(exc.problems, "text"))
        print("the content does not validate; nothing was written" if args.write else "the content does not validate", file=sys.stderr)
        return 1
    problems = registry_problems(catalog)
    if problems:
        print(render_all(problems, "text"))
        return 1
    prefix = os.path.relpath(project.site) + "/"
    workers = workers_for(len(catalog.cards))
    try:
        with collector_paused():
            rendered = render_site(catalog, read_pages(project.site), prefix, workers)
    except MarkerError as exc:
        print(render_all(exc.problems, "text"))
        print("marker errors; nothing was written" if args.write else "marker errors", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the pages under {prefix}: {exc}") from None
    with collector_paused():
        lint_problems = lint(catalog, rendered, TABLES, prefix, workers)
    if args.write:
        try:
            written = write_pages(project.site, rendered)
        except OSError as exc:
            raise UsageError(f"cannot write under {prefix}: {exc.strerror or exc} (pages already written stay whole; run again once fixed)") from None
        print(f"{len(written)} page(s) rewritten" + (": " + ", ".join(prefix + w for w in written) if written else "; all tables were up to date"))
        if lint_problems:
            print(render_all(lint_problems, "text"))
            return 1
        return 0
    drifts = drift(rendered, prefix)
    if drifts:
        print(describe(drifts))
    if lint_problems:
        print(render_all(lint_problems, "text"))
    if drifts or lint_problems:
        return 1
    print(f"{prefix}: {len(rendered.new)} pages and {len(rendered.table_page)} tables agree with {os.path.relpath(project.content)}/")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from engine.content.loader import load_catalog

    try:
        catalog = load_catalog(Path(args.content_dir))
    except ContentError as exc:
        out = render_all(exc.problems, args.format)
        if out:
            print(out)
        if args.format == "text":
            print(f"{len(exc.problems)} problem(s) in {args.content_dir}", file=sys.stderr)
        return 1
    from engine.status import registry_problems

    problems = registry_problems(catalog)
    if problems:
        print(render_all(problems, args.format))
        return 1
    if args.format == "json":
        print("[]")
    elif args.format == "text":
        families = len({c.family for c in catalog.cards})
        print(f"{args.content_dir}: ok, {len(catalog.cards)} card records in {families} families, {len(catalog.effects)} effects, {len(catalog.house_rules)} house rules")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser(argv).parse_args(argv)
    try:
        if args.command == "validate":
            return cmd_validate(args)
        if args.command in ("cards", "check"):
            return cmd_site(args)
        if args.command == "play":
            from engine import play

            return play.run(args)
        if args.command == "simulate":
            from engine import simulate

            return simulate.run(args)
    except UsageError as exc:
        print(f"stationmaster: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - the last guard against a traceback
        # Reaching this is a bug in the kit, never the user's fault: say so
        # in one line and exit 3, which the tests treat as a failure.
        print(f"stationmaster: internal error: {type(exc).__name__}: {exc} (please report this)", file=sys.stderr)
        return 3
    return 2  # pragma: no cover - argparse requires a known command


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
