"""The packs of the editor's workspace, checked as the editor shows them.

Every check is ``validate``'s own: the packs are found by
``engine.packs.find_packs`` and loaded by each pack's ``load_catalog`` and
``engine_problems``, reading the open buffers in place of the files on disk
(``files.overlaid``). Nothing here writes a file.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from command.lsp.index import Indexer, PackIndex
from engine.content import files
from engine.content.problems import Problem
from engine.errors import ContentError, UsageError
from engine.pack import AnyPack
from engine.packs import find_packs, is_pack_folder, pack_rules

log = logging.getLogger(__name__)
CONTENT = "content"


@dataclass(frozen=True)
class Checked:
    """One pack folder's check: every problem ``validate`` reports in it,
    and the catalog when it loaded (None when it did not)."""

    folder: Path
    problems: list[Problem]
    pack: AnyPack | None
    catalog: Any


class Workspace:
    """The content folder under the editor's workspace and what is known of it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.content = root / CONTENT if (root / CONTENT).is_dir() else root
        self.buffers: dict[str, str] = {}
        # The last catalog that loaded, by pack folder: hover and completion
        # keep working while the designer's text is half-typed.
        self.catalogs: dict[Path, tuple[AnyPack, Any]] = {}
        self._indexers: dict[Path, Indexer] = {}
        self._disk: dict[str, tuple[int, int, str]] = {}

    def folders(self) -> list[Path]:
        """Every folder that is, or claims to be, a pack (holds game.yaml or
        schema/): a workspace that holds none gets nothing from the server."""
        if is_pack_folder(self.content):
            return [self.content]
        try:
            names = files.names(self.content)
        except files.Unreadable as exc:
            log.error("%s", exc)
            return []
        return [self.content / name for name in names if is_pack_folder(self.content / name) or _unreadable(self.content / name)]

    def folder_of(self, path: Path) -> Path | None:
        """The pack folder ``path`` lies in; None for a file outside every pack."""
        for folder in self.folders():
            if path == folder or folder in path.parents:
                return folder
        return None

    def _overlay(self) -> Mapping[str, bytes]:
        return {path: text.encode("utf-8", "surrogateescape") for path, text in self.buffers.items()}

    def check(self, folder: Path) -> Checked:
        """What ``validate`` says of one pack folder, read from the buffers."""
        problems: list[Problem] = []
        pack: AnyPack | None = None
        catalog: Any = None
        with files.overlaid(self._overlay()):
            try:
                found, discovery = find_packs(self.content)
            except UsageError as exc:
                return Checked(folder, [Problem(files.as_given(folder), 0, 0, str(exc))], None, None)
            problems += [p for p in discovery if _inside(p.path, folder)]
            claimed = next((f for f in found if f.content == folder), None)
            if claimed is not None:
                pack = pack_rules(claimed.id)
                try:
                    catalog = pack.load_catalog(claimed.content)
                except ContentError as exc:
                    problems += exc.problems
                    catalog = None
                except UsageError as exc:
                    problems.append(Problem(files.as_given(folder), 0, 0, str(exc)))
                    catalog = None
                if catalog is not None:
                    problems += pack.engine_problems(catalog)
                    self.catalogs[folder] = (pack, catalog)
        return Checked(folder, sorted(problems), pack, catalog)

    def text(self, path: Path) -> str | None:
        """The text of ``path`` as the editor shows it: its buffer, else the disk's."""
        held = self.buffers.get(str(path))
        if held is not None:
            return held
        try:
            found = os.stat(path)
        except OSError:
            return None
        key = str(path)
        kept = self._disk.get(key)
        if kept is not None and kept[:2] == (found.st_mtime_ns, found.st_size):
            return kept[2]
        try:
            text = files.read_bytes(path).decode("utf-8", "replace")
        except files.Unreadable:
            return None
        self._disk[key] = (found.st_mtime_ns, found.st_size, text)
        return text

    def index(self, folder: Path) -> PackIndex:
        indexer = self._indexers.setdefault(folder, Indexer(folder))
        return indexer.index(self.text)

    def loaded(self, folder: Path) -> tuple[AnyPack, Any] | None:
        """The pack and its last catalog that loaded, checking it first if never checked."""
        if folder not in self.catalogs:
            self.check(folder)
        return self.catalogs.get(folder)


def _unreadable(path: Path) -> bool:
    """A folder that cannot be looked into: checking it says why (as validate does)."""
    if not path.is_dir():
        return False
    try:
        files.names(path)
    except files.Unreadable:
        return True
    return False


def absolute(shown: str) -> Path:
    """A path as a problem shows it (relative to the current folder, as
    ``validate`` prints it) made absolute again."""
    return Path(os.path.normpath(os.path.join(os.getcwd(), shown)))


def _inside(shown: str, folder: Path) -> bool:
    path = absolute(shown)
    return path == folder or folder in path.parents
