"""``stationmaster simulate``: play many seeded games with bots and report.

The game is ``--game`` (Station Master unless said), reached only through its
``GamePack``: its bots, its house rules, its ``simulator``.

Exit codes: 0 done, 1 the content does not validate, 2 unusable arguments
or a worker process died (one line naming the cause; no report is printed).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from command.cli import whole_number
from command.commands import SIMULATE_HELP
from command.games import DEFAULT_GAME, add_game_option, open_game
from command.output import ProgressLine, refused
from engine.errors import InvalidActionError, UsageError
from engine.pack import RuleValue, SimulationRequest
from engine.sim.pool import MAX_GAMES, MAX_SEED, MAX_WORKERS, WorkerDied

# More than any game here seats; the game itself says which counts it plays.
MAX_PLAYERS = 99


def add_parser(subparsers: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """Add the ``simulate`` subcommand to ``stationmaster``'s subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "simulate",
        help=SIMULATE_HELP,
        description=(
            "Play seeded games with bots and report on them. One --bot plays every seat; "
            "--bot given once for each seat seats them in order (--bot random --bot greedy: seat 0 random, seat 1 greedy). "
            "Game i uses seed SEED * 1000003 + i; the same seed gives the same report whatever --workers is."
        ),
    )
    parser.add_argument("--games", type=whole_number(1, MAX_GAMES), required=True, metavar="N", help=f"how many games to play (1 to {MAX_GAMES:,})")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0, metavar="S", help="the simulation's seed (default 0)")
    parser.add_argument("--workers", type=whole_number(1, MAX_WORKERS), default=1, metavar="K", help=f"processes to play in (1 to {MAX_WORKERS}, default 1)")
    parser.add_argument(
        "--players", type=whole_number(1, MAX_PLAYERS), default=None, metavar="N", help="players in each game (default: the game's fewest, 1 for stationmaster; or as many as --bot names)"
    )
    parser.add_argument(
        "--bot",
        choices=_every_bot(),
        action="append",
        default=None,
        help="how moves are chosen: once for every seat, or once per seat in seat order (default: the game's first bot, random for stationmaster)",
    )
    parser.add_argument("--house-rule", action="append", default=[], metavar="KEY=VALUE", dest="house_rule", help="a house rule for every game (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON (sorted keys) instead of text")
    add_game_option(parser)
    return parser


def _every_bot() -> list[str]:
    """Every bot any pack has, in pack order: the choices --bot accepts
    before the game is known (run() then checks the game has that bot)."""
    from engine.packs import known_pack_ids, pack_rules

    names = [DEFAULT_GAME, *(p for p in known_pack_ids() if p != DEFAULT_GAME)]
    return list(dict.fromkeys(bot for name in names for bot in pack_rules(name).bots))


class _ProgressBar(ProgressLine):
    """Games done, as a bar redrawn at each whole percent."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        percent = 100 * done // total
        if percent == self.shown and done != total:
            return
        self.shown = percent
        filled = 30 * done // total
        self.show(f"simulating [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games")


def _fail(message: str) -> int:
    return refused("simulate", message)


def run(args: argparse.Namespace) -> int:
    """Carry out ``stationmaster simulate``: 0 done, 1 the content does not
    validate, 2 unusable arguments or a dead worker (one line on stderr)."""
    from engine.packs import pack_rules

    game = getattr(args, "game", None) or DEFAULT_GAME
    pack = pack_rules(game)
    bots: list[str] = args.bot or [pack.bots[0]]
    for bot in bots:
        if bot not in pack.bots:
            return _fail(f"game '{game}' has no bot '{bot}'; its bots: {', '.join(pack.bots)}")
    # One --bot plays every seat; several name the seats, seat 0 first.
    bot, seats = (bots[0], None) if len(bots) == 1 else (bots[0], tuple(bots))
    opened = open_game(args, "simulate")
    if isinstance(opened, int):
        return opened
    pack, content, catalog = opened
    chosen: dict[str, RuleValue] = {}
    try:
        for text in args.house_rule:
            rule_id, value = pack.parse_house_rule(catalog, text)
            if rule_id in chosen:
                return _fail(f"house rule '{rule_id}' is given twice")
            chosen[rule_id] = value
        pack.house_rules(catalog, chosen)
    except InvalidActionError as exc:
        return _fail(str(exc))
    bar = _ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    try:
        request = SimulationRequest(args.games, args.seed, args.workers, bot, chosen, players=getattr(args, "players", None), seats=seats, content_dir=content)
        report = pack.simulator.simulate(catalog, request, bar)
    except WorkerDied as exc:
        # The report is printed only once every game is in, so none was.
        return _fail(f"{exc}; nothing was written; run again, or with --workers 1")
    except (InvalidActionError, UsageError) as exc:
        return _fail(str(exc))
    finally:
        if bar is not None:
            bar.finish()
    # A reader that leaves early is the caller's PipeGuard's business.
    print(report.to_json() if args.json else report.to_text())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m command.simulate ARGS``: the command alone (``simulate`` is implied)."""
    from command.cli import run_alone

    return run_alone("simulate", add_parser, run, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
