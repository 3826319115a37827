"""``stationmaster export``: one pack's cards, with their status and the
configurations that deal them, as the JSON the site publishes (``cards.json``,
which ``stationmaster cards`` writes beside the pages; described by
``site/cards.schema.json``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from command.commands import EXPORT_HELP
from command.games import add_game_option, content_folder, default_content
from command.output import add_output_options, check_output, emit
from engine.content import files
from engine.content.problems import Problem
from engine.errors import ContentError, UsageError
from engine.packs import find_packs, pack_rules
from generator.records import export, to_json


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("export", help=EXPORT_HELP, description=EXPORT_HELP + "; `stationmaster cards` writes the same file as site/<pack>/cards.json, which the site publishes.")
    add_game_option(parser)
    parser.add_argument("--format", choices=("json",), default="json", help="the format (default and only: json)")
    add_output_options(parser, "the JSON")


def _first(problems: Sequence[Problem]) -> str:
    first = sorted(problems)[0]
    more = f" (and {len(problems) - 1} more; `stationmaster validate` lists them)" if len(problems) > 1 else ""
    return f"{first.render()}{more}"


def run(args: argparse.Namespace) -> int:
    check_output(args.output, args.force)
    folder = content_folder(args.content if args.content else default_content(args.game))
    found, problems = find_packs(folder)
    if problems:
        raise UsageError(f"the content does not load: {_first(problems)}")
    chosen = next((one for one in found if one.id == args.game), None)
    if chosen is None:
        raise UsageError(f"{files.shown(folder)} holds no {args.game} pack")
    pack = pack_rules(chosen.id)
    try:
        catalog = pack.load_catalog(chosen.content)
    except ContentError as exc:
        raise UsageError(f"the content does not load: {_first(exc.problems)}") from None
    emit(to_json(export(pack, catalog)), args.output, args.force)
    return 0
