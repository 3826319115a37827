"""The ``stationmaster`` command: its parser and the dispatch to one module
per subcommand.

Exit codes: 0 all well; 1 the content (or the docs) need fixing; 2 the
command itself was unusable (bad arguments, missing directory, unreadable
file); 3 a bug in the kit itself. No subcommand ever prints a traceback for bad input.
A reader that leaves early (``| head -1``) changes none of these: the command
finishes with its output dropped and exits with the status it would have had.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any

from command.commands import CHANGELOG_HELP, EXPORT_HELP, LSP_HELP, PLAY_HELP, SIMULATE_HELP, SWEEP_HELP
from command.output import pipes_guarded
from engine.errors import UsageError
from engine.sim.pool import WorkerDied

# Subcommands in modules of their own, each imported (with its full
# arguments) only when named: ``--help`` lists them by their summary alone.
LAZY = (("play", PLAY_HELP), ("simulate", SIMULATE_HELP), ("sweep", SWEEP_HELP), ("changelog", CHANGELOG_HELP), ("export", EXPORT_HELP), ("lsp", LSP_HELP))


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, or a
    one-line error saying what was wanted (shared by the commands that count
    games, seeds and workers)."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number from {low:,} to {high:,} is needed, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}, not {value:,}")
        return value

    return parse


# The signals that stopped this run, SIGTERM's number when it was one.
_stopped_by: list[int] = []


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM does what Ctrl-C would do at this moment: raise
    KeyboardInterrupt, or, while a process pool holds Ctrl-C back to act on
    it between waits (``engine.sim.pool``), tell the pool's handler."""
    _stopped_by.append(signum)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler) and handler is not signal.default_int_handler:
        handler(signal.SIGINT, frame)
        return
    raise KeyboardInterrupt


@contextmanager
def terminated_as_interrupted() -> Iterator[None]:
    """Handle SIGTERM as Ctrl-C while a command runs: every ``finally``
    runs, so a file being written is whole or not there at all, and the
    command ends in one line (``stopped``), not killed mid-write."""
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover - only the main thread may set handlers
        yield
        return
    del _stopped_by[:]
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def stopped() -> int:
    """Say in one line that the run was stopped, and the status it ends
    with: 143 for SIGTERM, 130 for Ctrl-C (128 plus the signal, as a shell
    reports a process the signal killed)."""
    by_term = bool(_stopped_by)
    words = "SIGTERM" if by_term else "Ctrl-C (SIGINT)"
    print(f"stationmaster: stopped by {words}; files are written whole or not at all, so none was left half-written", file=sys.stderr)
    return 128 + (signal.SIGTERM if by_term else signal.SIGINT)


def run_alone(name: str, add_parser: Callable[[Any], object], run: Callable[[argparse.Namespace], int], argv: Sequence[str] | None) -> int:
    """``python -m command.NAME ARGS``: one subcommand run on its own (its
    name implied), guarded as ``main`` guards every subcommand."""
    parser = _Parser(prog="stationmaster")
    add_parser(parser.add_subparsers(dest="command", required=True, parser_class=_Parser))
    with pipes_guarded(), terminated_as_interrupted():
        args = parser.parse_args([name, *(sys.argv[1:] if argv is None else argv)])
        try:
            return run(args)
        except KeyboardInterrupt:
            return stopped()


def _parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The argument parser. The ``LAZY`` subcommands get their full
    arguments (and their modules are imported) only when ``argv`` names them;
    otherwise each is listed with its summary alone."""
    parser = _Parser(prog="stationmaster", description="Railway card-game rules kit: every game pack's content, engine and rules site.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    validate = sub.add_parser("validate", help="check every pack's content files and report each problem with its place")
    validate.add_argument("content_dir", nargs="?", default="content", help="a content directory: one pack's folder, or a folder of packs (default: content, every pack)")
    validate.add_argument("--format", choices=("text", "github", "json"), default="text", help="how to print problems")
    cards = sub.add_parser("cards", help="rewrite the generated tables in site/ from content/, for every pack (in place, atomically)")
    cards.set_defaults(write=True)
    cards.add_argument(
        "--reports",
        action="store_true",
        help="also play again every simulation report measured before the last change to the cards or the engine (minutes of play, hours for the skill ladders, whose cells are cached in .sweep-cache; `make reports`)",
    )
    check = sub.add_parser("check", help="exit 1 if any generated table in site/ differs from what content/ renders to, for every pack")
    check.set_defaults(write=False)
    check.add_argument("--reports", action="store_true", help="also exit 1 when a simulation report was measured before the last change to the cards or the engine (CI on main uses this)")
    chosen = next((arg for arg in argv if not arg.startswith("-")), None)
    for name, summary in LAZY:
        if chosen == name:
            importlib.import_module(f"command.{name}").add_parser(sub)
        else:
            sub.add_parser(name, help=summary)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # A reader that leaves early (``| head``) changes nothing but what is
    # seen: the command still finishes and exits with its own status.
    with pipes_guarded(), terminated_as_interrupted():
        return _main(sys.argv[1:] if argv is None else list(argv))


def _main(argv: list[str]) -> int:
    args = _parser(argv).parse_args(argv)
    try:
        if args.command == "validate":
            from command import validate

            return validate.run(args)
        if args.command in ("cards", "check"):
            from command import site

            return site.run(args)
        if args.command in dict(LAZY):
            code: int = importlib.import_module(f"command.{args.command}").run(args)
            return code
    except WorkerDied as exc:
        # Only the work in memory was lost: pages and files are written
        # after every worker has handed its part back, and whole.
        print(f"stationmaster: {exc}; nothing was written; run again", file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"stationmaster: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return stopped()
    except Exception as exc:  # noqa: BLE001 - the last guard against a traceback
        # Reaching this is a bug in the kit, never the user's fault: say so
        # in one line and exit 3, which the tests treat as a failure.
        print(f"stationmaster: internal error: {type(exc).__name__}: {exc} (please report this)", file=sys.stderr)
        return 3
    return 2  # pragma: no cover - argparse requires a known command


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
