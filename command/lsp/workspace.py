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
        self._checked: dict[Path, tuple[tuple[object, ...], Checked]] = {}

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

    def _edited(self, folder: Path) -> dict[str, str]:
        """The open buffers of ``folder`` whose text is not the file's on disk."""
        return {path: text for path, text in self.buffers.items() if _under(Path(path), folder) and text != self._disk_text(Path(path))}

    def _inputs(self, folder: Path, edited: Mapping[str, str]) -> tuple[object, ...]:
        """All a check of ``folder`` reads: the packs there are, each file's
        time and size on disk, and the edited buffers. Equal inputs, equal
        problems: opening or closing a file unchanged checks nothing again."""
        listing = files.walk(folder)
        stamps = []
        for path in listing.files:
            try:
                found = os.stat(path)
                stamps.append((str(path), found.st_mtime_ns, found.st_size))
            except OSError:
                stamps.append((str(path), -1, -1))
        return (tuple(self.folders()), tuple(stamps), tuple(u.path for u in listing.unreadable), tuple(sorted(edited.items())))

    def check(self, folder: Path) -> Checked:
        """What ``validate`` says of one pack folder, read from the buffers."""
        edited = self._edited(folder)
        inputs = self._inputs(folder, edited)
        kept = self._checked.get(folder)
        if kept is not None and kept[0] == inputs:
            if kept[1].pack is not None and kept[1].catalog is not None:
                self.catalogs[folder] = (kept[1].pack, kept[1].catalog)
            return kept[1]
        checked = self._check(folder, edited)
        self._checked[folder] = (inputs, checked)
        return checked

    def _check(self, folder: Path, edited: Mapping[str, str]) -> Checked:
        problems: list[Problem] = []
        pack: AnyPack | None = None
        catalog: Any = None
        with files.overlaid({path: text.encode("utf-8", "surrogateescape") for path, text in edited.items()}):
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
        return held if held is not None else self._disk_text(path)

    def _disk_text(self, path: Path) -> str | None:
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
    return _under(absolute(shown), folder)


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
