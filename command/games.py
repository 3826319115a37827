"""The ``--game`` option of the commands that play: which pack's game, by id.

The default is the first pack, Station Master, so every command written
before there was a choice still means what it did. A game's content is read
from ``content/<game>`` unless ``--content`` says otherwise.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.pack import AnyPack

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
    """``--game ID`` and ``--content DIR``: every subcommand that opens one
    game's content takes both, in the same words."""
    parser.add_argument("--game", type=game_id, default=DEFAULT_GAME, metavar="ID", help=f"the game pack to play (default: {DEFAULT_GAME})")
    parser.add_argument("--content", default=None, metavar="DIR", help=f"the content directory (default: {default_content('GAME')}, for --game GAME)")


def default_content(game: str) -> Path:
    """Where a game's content is when ``--content`` is not given."""
    return Path("content") / game


def content_folder(path: str | Path) -> Path:
    """``path`` as a content folder to read, or UsageError saying plainly
    why it cannot be (nothing there, not a folder, not listable)."""
    from engine.content import files
    from engine.errors import UsageError

    folder = Path(path)
    try:
        files.check_folder(folder)
    except files.Unreadable as exc:
        raise UsageError(f"{files.shown(path)}: no such content directory" if exc.missing else str(exc)) from None
    return folder


def check_one_pack(content: Path, game: str) -> None:
    """UsageError when ``content`` is a folder of packs (as ``validate``
    takes it) where one pack's folder is wanted, naming the folder to give;
    nothing otherwise (a folder that is no pack at all is for the loader to
    describe)."""
    from engine.content import files
    from engine.errors import UsageError
    from engine.packs import is_pack_folder

    if is_pack_folder(content):
        return
    try:
        held = files.names(content)
    except files.Unreadable:
        return
    packs = [name for name in held if is_pack_folder(content / name)]
    if not packs:
        return
    shown = files.shown(files.as_given(content))
    if game in packs:
        raise UsageError(f"{shown}: a folder of packs, not one pack's folder; give the {game} pack's: --content {files.shown(files.as_given(content / game))}")
    raise UsageError(f"{shown}: a folder of packs ({', '.join(packs)}), not one pack's folder, and none is named {game}; give --content with the {game} pack's folder")


def open_game(args: argparse.Namespace, command: str) -> tuple[AnyPack, Path, Any] | int:
    """The pack ``--game`` names, its content folder (``--content``, else
    the default) and its loaded catalog; or, when the content cannot be
    used, the exit status after saying why: 1 with every located problem
    listed, 2 with one line (the folder cannot be read)."""
    from command.output import refused
    from engine.content.problems import render_all
    from engine.errors import ContentError, UsageError
    from engine.packs import pack_rules

    game = getattr(args, "game", None) or DEFAULT_GAME
    pack = pack_rules(game)
    content = Path(args.content) if args.content is not None else default_content(game)
    try:
        check_one_pack(content, game)
        catalog = pack.load_catalog(content)
    except UsageError as exc:
        return refused(command, str(exc))
    except ContentError as exc:
        print(render_all(exc.problems, "text"))
        print("the content does not validate", file=sys.stderr)
        return 1
    return pack, content, catalog
