"""Finding the game packs: which content folders there are, which game each
one is, and the rules package that plays it.

A content folder is one pack when it holds a ``game.yaml`` or a ``schema/``
folder; otherwise each of its sub-folders is one. A pack's ``game.yaml``
names its id on a top-level ``id:`` line, and ``engine/<id>/pack.py`` holds
its rules. Every way this can go wrong is a located Problem naming the pack,
but for a folder or file the system will not let us read: that is a
UsageError (exit 2), since no pack may be passed over in silence. Every
folder is listed and every game.yaml read through ``engine.content.files``.
"""

from __future__ import annotations

import importlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.content import files
from engine.content.problems import Problem
from engine.content.schemas import did_you_mean
from engine.errors import ContentError, UsageError
from engine.pack import AnyPack

GAME_FILE = "game.yaml"
_ID_LINE = re.compile(r"""^id:[ \t]*(["']?)([^"'\s#]*)\1[ \t]*(?:#.*)?$""", re.MULTILINE)
_ID = re.compile(r"^[a-z][a-z0-9]*$")


@dataclass(frozen=True)
class PackFolder:
    """One pack's content folder, and the pack it declares itself to be."""

    id: str
    content: Path

    @property
    def display(self) -> str:
        return _display(self.content)


def _display(path: Path) -> str:
    return files.as_given(path)


def is_pack_folder(path: Path) -> bool:
    """Whether ``path`` holds a game.yaml or a schema/ folder (False when
    it cannot even be looked into: reading it then says why)."""
    try:
        held = files.names(path)
    except files.Unreadable:
        return False
    return GAME_FILE in held or "schema" in held


def find_packs(content_root: Path) -> tuple[list[PackFolder], list[Problem]]:
    """The packs under ``content_root`` (or the one it is), each with its id;
    problems for a folder that names no game, one with no rules, two
    folders that claim one id, and a folder that cannot be read. A folder
    with a problem is left out. UsageError when ``content_root`` itself
    cannot be listed."""
    try:
        held = files.names(content_root)
    except files.Unreadable as exc:
        raise UsageError(f"{files.shown(_display(content_root))}: {exc.reason}") from None
    problems: list[Problem] = []
    if GAME_FILE in held or "schema" in held:
        folders = [content_root]
    else:
        folders = [content_root / name for name in held if _is_folder(content_root / name)]
        problems += [_stray(content_root / name) for name in held if content_root / name not in folders]
    found: list[PackFolder] = []
    declared: list[tuple[Path, str]] = []
    for folder in folders:
        pack_id, problem = _declared_id(folder)
        if problem is not None:
            problems.append(problem)
            continue
        assert pack_id is not None
        declared.append((folder, pack_id))
    # Where two folders claim one id, the folder named for it is the pack and
    # the other (a copy, say) is the one reported.
    declared.sort(key=lambda pair: pair[0].name != pair[1])
    for folder, pack_id in declared:
        first = next((p for p in found if p.id == pack_id), None)
        if first is not None:
            line = _id_line(folder)
            problems.append(
                Problem(_display(folder / GAME_FILE), line, 1, f"pack '{pack_id}' is already the pack in {first.display}; each pack has its own id (change this one's id, or remove the copy)")
            )
            continue
        found.append(PackFolder(pack_id, folder))
    found.sort(key=lambda p: p.content)
    if not found and not problems:
        problems.append(Problem(_display(content_root), 0, 0, f"no game pack here: a pack is a folder holding {GAME_FILE} and schema/"))
    return found, problems


def _stray(path: Path) -> Problem:
    """A thing beside the packs, which no pack reads: said, never passed
    over. Only its entry is looked at (a FIFO or a device is never opened)."""
    try:
        what = files.kind_of(os.stat(path).st_mode)
    except (OSError, ValueError) as exc:
        what = files.why(exc, path) if isinstance(exc, OSError) else "cannot be used: the name holds a NUL character"
    where = f"{what}, and is" if what else "is"
    return Problem(_display(path), 0, 0, f"{where} not inside a pack: the content folder holds only pack folders (each with {GAME_FILE} and schema/); move it into its pack's folder, or remove it")


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder; True when that cannot be told (no
    search permission, say), so that reading it as a pack reports why
    rather than passing it over."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except FileNotFoundError:
        return False  # a link to nothing, or gone since the listing: no folder
    except (OSError, ValueError):
        return True


def _id_line(folder: Path) -> int:
    try:
        text = files.read_bytes(folder / GAME_FILE).decode("utf-8", errors="replace")
    except files.Unreadable:
        return 1  # it read a moment ago; the problem stands at its first line
    match = _ID_LINE.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else 1


def _declared_id(folder: Path) -> tuple[str | None, Problem | None]:
    game = folder / GAME_FILE
    where = _display(folder)
    try:
        # A folder the system will not open cannot be checked at all: a
        # usage error (as for any unreadable file), never a pack passed over.
        files.names(folder)
        text = files.read_bytes(game).decode("utf-8", errors="replace")
    except files.Unreadable as exc:
        if exc.missing and not os.path.islink(game):
            return None, Problem(where, 0, 0, f"this pack has no {GAME_FILE}: it names the game (id: <pack>) and holds its table, so nothing in the pack can be checked without it")
        if exc.refused:
            raise UsageError(f"{files.shown(_display(Path(exc.path)))}: {exc.reason}; the packs cannot be checked until it can be read") from None
        return None, Problem(_display(game), 0, 0, exc.reason)
    match = _ID_LINE.search(text)
    if match is None:
        return None, Problem(_display(game), 1, 1, f"{GAME_FILE} does not say which game it is: add a top-level line 'id: <pack>' (known packs: {', '.join(known_pack_ids())})")
    pack_id = match.group(2)
    line = text.count("\n", 0, match.start()) + 1
    column = match.start(2) - match.start() + 1
    if not _ID.match(pack_id) or pack_id not in known_pack_ids():
        hint = did_you_mean(pack_id, known_pack_ids())
        return None, Problem(_display(game), line, column, f"pack '{pack_id}' has no rules: there is no engine/{pack_id}/pack.py{hint} (known packs: {', '.join(known_pack_ids())})")
    return pack_id, None


def known_pack_ids() -> list[str]:
    """Every pack the engine has rules for: the folders under ``engine/``
    that hold a ``pack.py``."""
    here = Path(__file__).resolve().parent
    return sorted(p.parent.name for p in here.glob("*/pack.py"))


def pack_rules(pack_id: str) -> AnyPack:
    """The rules of pack ``pack_id`` (its ``engine/<id>/pack.py``)."""
    module = importlib.import_module(f"engine.{pack_id}.pack")
    pack: AnyPack = module.PACK
    return pack


@dataclass(frozen=True)
class LoadedPack:
    """A pack whose content loaded clean, with its rules and catalog."""

    pack: AnyPack
    folder: PackFolder
    catalog: Any


def load_packs(content_root: Path) -> tuple[list[LoadedPack], list[Problem]]:
    """Every pack under ``content_root`` with its checked catalog, and every
    problem found (in discovery, in content, or by a pack's engine)."""
    folders, problems = find_packs(content_root)
    loaded: list[LoadedPack] = []
    for folder in folders:
        pack = pack_rules(folder.id)
        try:
            catalog = pack.load_catalog(folder.content)
        except ContentError as exc:
            problems.extend(exc.problems)
            continue
        found = pack.engine_problems(catalog)
        problems.extend(found)
        if not found:
            loaded.append(LoadedPack(pack, folder, catalog))
    return loaded, problems
