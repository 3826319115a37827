"""The ``--game`` option of the commands that play: which pack's game, by id.

The default is the first pack, Station Master, so every command written
before there was a choice still means what it did. A game's content is read
from ``content/<game>`` unless ``--content`` says otherwise.
"""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_GAME = "stationmaster"


def game_id(text: str) -> str:
    """An argparse type: ``text`` if a pack by that id has rules, else a
    one-line error listing the known packs."""
    from engine.packs import known_pack_ids

    known = known_pack_ids()
    if text not in known:
        raise argparse.ArgumentTypeError(f"unknown game {text!r} (known packs: {', '.join(known)})")
    return text


def add_game_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", type=game_id, default=DEFAULT_GAME, metavar="ID", help=f"the game pack to play (default: {DEFAULT_GAME})")


def default_content(game: str) -> Path:
    """Where a game's content is when ``--content`` is not given."""
    return Path("content") / game
