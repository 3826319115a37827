"""``stationmaster sweep``: simulate every cell of a grid of configurations
(house rules x player counts x bots) of any game pack, and say what changed.

Each cell plays the same seeded games; finished cells are kept in a cache
folder, so a sweep run again with the same arguments plays only the cells it
is missing (``engine.sweep``). The report goes to standard output or, whole,
to ``--output``.

Exit codes: 0 done, 1 the content does not validate, 2 unusable arguments
(an unknown rule, value or bot, an empty list, a cell the game cannot set
up, a cache folder that cannot be used, a cluster that cannot be reached)
or a worker process died (on a cluster: kept dying, all left, the scheduler
went away or a worker sent what the sweep refuses); one line
naming the cause, and no report written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from command.cli import whole_number
from command.commands import SWEEP_HELP
from command.games import add_game_option, open_game
from command.output import ProgressLine, add_output_options, check_output, emit, refused
from engine.errors import InvalidActionError, UsageError
from engine.sim.pool import MAX_GAMES, MAX_SEED, MAX_WORKERS, WorkerDied
from engine.sources import rules_digest
from engine.sweep.store import DEFAULT_CACHE

# The longest --patience: past an hour a wait is a hang.
MAX_PATIENCE = 3600


def add_parser(subparsers: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """Add the ``sweep`` subcommand to ``stationmaster``'s subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "sweep",
        help=SWEEP_HELP,
        description=(
            "Simulate every combination of the listed house-rule values, player counts and bots, the same seeded games in each, "
            "and report each cell's score spread and card figures and the differences from the baseline cell that matter. "
            "Cells go in argument order: the --rule options as given, then players, then bots (the last varies fastest)."
        ),
    )
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=V1,V2", help="a house rule and the values to sweep (repeatable; rules not given stay at their defaults)")
    parser.add_argument("--players", default=None, metavar="N1,N2", help="the player counts to sweep (default: the game's fewest)")
    parser.add_argument("--bot", default=None, metavar="NAME1,NAME2", help="the bots to sweep, each playing every seat (default: the game's first bot)")
    parser.add_argument(
        "--matrix",
        action="store_true",
        help="play the --bot list as a skill ladder (weakest first) against itself: each bot in every seat, and each in one seat against each other in the rest, at each --players count (no --rule)",
    )
    parser.add_argument(
        "--steps",
        action="store_true",
        help="with --matrix: only each bot in one seat against the bot before it in the rest (the ladder's steps; no bot plays itself: a sweep of the same --bot list without --matrix plays those cells)",
    )
    parser.add_argument("--games", type=whole_number(1, MAX_GAMES), required=True, metavar="N", help=f"games in each cell (1 to {MAX_GAMES:,})")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0, metavar="S", help="the seed every cell's games use (default 0)")
    parser.add_argument("--workers", type=whole_number(1, MAX_WORKERS), default=1, metavar="K", help=f"processes to play in (1 to {MAX_WORKERS}, default 1)")
    parser.add_argument(
        "--cluster",
        default=None,
        metavar="local|tcp://HOST:PORT|tls://HOST:PORT",
        help=(
            "play on Dask distributed: 'local' starts --workers processes for the run; an address joins a running scheduler and its workers, "
            "which must be trusted (--workers is then unused; tls:// takes its certificates from Dask's configuration) (default: the plain process pool)"
        ),
    )
    parser.add_argument(
        "--patience",
        type=whole_number(1, MAX_PATIENCE),
        default=None,
        metavar="SECONDS",
        help=f"with --cluster: how long to wait for the scheduler to answer and for a worker, before giving up (1 to {MAX_PATIENCE}; default: a few seconds, site/kit/cluster.md)",
    )
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text", help="text (default), JSON with sorted keys, or a Markdown page with the charts")
    add_output_options(parser, "the report")
    parser.add_argument("--cache", default=None, metavar="DIR", help=f"where finished cells are kept (default: {DEFAULT_CACHE})")
    parser.add_argument("--no-cache", action="store_true", dest="no_cache", help="neither read nor write the cache (not with --cache)")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    add_game_option(parser)
    return parser


class _Progress(ProgressLine):
    """Cells and games done."""

    def __call__(self, cells: int, total: int, done: int, games: int) -> None:
        self.show(f"sweeping: {cells}/{total} cells done; this cell {done}/{games} games ")


def _fail(message: str) -> int:
    return refused("sweep", message)


def _counts(text: str) -> list[int]:
    from engine.sweep.grid import split_list

    counts = []
    for item in split_list("--players", text):
        try:
            counts.append(int(item, 10))
        except ValueError:
            raise UsageError(f"--players {text!r}: {item!r} is not a whole number") from None
    return counts


def _note(message: str) -> None:
    print(f"stationmaster sweep: {message}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Carry out ``stationmaster sweep``: 0 done, 1 the content does not
    validate, 2 unusable arguments or a dead worker (one line on stderr)."""
    from engine.sweep import runner as runners
    from engine.sweep.grid import build_grid, split_list
    from engine.sweep.render import to_json, to_text
    from engine.sweep.run import sweep
    from engine.sweep.store import CellStore

    if args.steps and not args.matrix:
        return _fail("--steps picks a ladder's matchups: give it with --matrix")
    if args.patience is not None and args.cluster is None:
        return _fail("--patience is how long to wait on a cluster: give it with --cluster")
    if args.no_cache and args.cache is not None:
        return _fail(f"--cache {args.cache} and --no-cache contradict each other: give --cache DIR to keep the cells there, or --no-cache to keep none")
    try:
        check_output(args.output, args.force)
        players = None if args.players is None else _counts(args.players)
        bots = None if args.bot is None else split_list("--bot", args.bot)
    except UsageError as exc:
        return _fail(str(exc))
    opened = open_game(args, "sweep")
    if isinstance(opened, int):
        return opened
    pack, content, catalog = opened
    store = CellStore(None if args.no_cache else Path(DEFAULT_CACHE if args.cache is None else args.cache), _note)
    try:
        if args.matrix:
            from engine.sweep.matrix import matrix_grid

            if args.rule:
                raise UsageError("--matrix plays every house rule at its default: drop --rule")
            if bots is None:
                raise UsageError("--matrix needs the ladder's bots, weakest first: --bot random,greedy")
            grid = matrix_grid(pack, catalog, bots, players if players is not None else (2,), steps=args.steps)
        else:
            grid = build_grid(pack, catalog, args.rule, players, bots)
        store.open()
    except UsageError as exc:
        return _fail(str(exc))
    bar = _Progress(sys.stderr) if sys.stderr.isatty() and not args.quiet else None
    try:
        with ExitStack() as stack:
            if args.cluster is None:
                runner = runners.pool_runner(pack, catalog, args.games, args.seed, args.workers, content)
            else:
                # Imported only here: a plain sweep neither needs nor starts Dask.
                from engine.sweep.dask_runner import Patience, cluster_client, dask_runner

                patience = Patience() if args.patience is None else Patience(args.patience, args.patience)
                client = stack.enter_context(cluster_client(args.cluster, args.workers, patience=patience))
                runner = dask_runner(pack, catalog, args.games, args.seed, client, patience=patience)
            # Cells are named by what plays them, as the Simulation pages'
            # reports are: the commands a page prints, run here (on a
            # cluster, say), leave the cells its `make reports` then reads.
            result = sweep(pack, catalog, grid, args.games, args.seed, store, runner, bar, engine_code=rules_digest(pack.id))
    except WorkerDied as exc:
        return _fail(f"{exc}; the cells finished so far are cached; run again, or with --workers 1")
    except (InvalidActionError, UsageError) as exc:
        return _fail(str(exc))
    finally:
        if bar is not None:
            bar.finish()
    if args.format == "markdown" and args.matrix:
        from generator.matrix_site import MatrixPlan, command_lines
        from generator.sweep_page import matrix_page

        plan = MatrixPlan(grid.bots, grid.players, args.games, args.seed, steps=args.steps)
        text = matrix_page(pack, result, command_lines(pack.id, plan)[:1])
    elif args.format == "markdown":
        from generator.sweep_page import sweep_page
        from generator.sweep_site import SitePlan, command_line

        again = SitePlan(tuple(args.rule), grid.players, grid.bots, args.games, args.seed)
        text = sweep_page(pack, result, command_line(pack.id, again, args.content))
    else:
        text = to_json(result) if args.format == "json" else to_text(result)
    try:
        emit(text, args.output, args.force)
    except UsageError as exc:
        return _fail(str(exc))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m command.sweep ARGS``: the command alone (``sweep`` is implied)."""
    from command.cli import run_alone

    return run_alone("sweep", add_parser, run, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
