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

from engine.content.problems import render_all
from engine.errors import ContentError, UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="stationmaster", description="Station Master rules kit: content, engine and rules site.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    validate = sub.add_parser("validate", help="check every content file and report each problem with its place")
    validate.add_argument("content_dir", nargs="?", default="content", help="the content directory (default: content)")
    validate.add_argument("--format", choices=("text", "github", "json"), default="text", help="how to print problems")
    return parser


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
    if args.format == "json":
        print("[]")
    elif args.format == "text":
        families = len({c.family for c in catalog.cards})
        print(f"{args.content_dir}: ok, {len(catalog.cards)} card records in {families} families, {len(catalog.effects)} effects, {len(catalog.house_rules)} house rules")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "validate":
            return cmd_validate(args)
    except UsageError as exc:
        print(f"stationmaster: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - the last guard against a traceback
        # Reaching this is a bug in the kit, never the user's fault: say so
        # in one line and exit 3, which the tests treat as a failure.
        print(f"stationmaster: internal error: {type(exc).__name__}: {exc} (please report this)", file=sys.stderr)
        return 3
    return 2  # pragma: no cover - argparse requires a known command


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
