"""The cache of finished cells: one JSON file a cell, named by its key.

A cell's key is ``QUESTION.ANSWER``: QUESTION digests what the cell asks
(the pack, the cell's full configuration, the games and the seed), ANSWER
also what answers it (the content's fingerprint and the fingerprint of the
engine code that plays it). So an entry made from other content or other
code is never found, rather than found and doubted; a sweep stopped
part-way, run again with the same arguments, finds the cells it finished;
and a file with the same question and another answer tells the sweep that
the cell was cached from other content or code, which it says in one line
(``outdated``) before playing the cell afresh. Each file is written whole (a temporary file renamed into
place) the moment its cell is done. A file that cannot be read back (cut
short, edited, from another version) is left aside with a one-line note and
its cell played again: a cache is never a reason to fail.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from engine import jsonfile
from engine.atomic import temp_file, write_whole
from engine.content import files
from engine.errors import UsageError
from engine.sweep.figures import CellFigures
from engine.sweep.grid import Cell

FORMAT: Final = "sweep-cell/4"
# Where finished cells are kept unless told otherwise, under the project:
# ``stationmaster sweep``'s and the skill-ladder reports' cells alike.
DEFAULT_CACHE: Final = ".sweep-cache"
# A cell's file is a few kilobytes (a row a card): far more is no cell.
CELL_LIMIT: Final = 4 * 1024 * 1024


def _digest(identity: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def cell_key(pack_id: str, cell: Cell, games: int, seed: int, content: str, engine_code: str) -> str:
    """The name of a cell's figures: ``QUESTION.ANSWER``, two hex digests."""
    question = _digest({"format": FORMAT, "pack": pack_id, "configuration": cell.to_dict(), "games": games, "seed": seed})
    return f"{question}.{_digest({'question': question, 'content': content, 'engine': engine_code})}"


class CellStore:
    """Cells by key in ``folder``; with no folder, a store that keeps nothing
    (``--no-cache``). ``note`` is told, in one line, of every file left aside."""

    def __init__(self, folder: Path | None, note: Callable[[str], None]) -> None:
        self.folder = folder
        self.note = note

    def open(self) -> None:
        """Make the folder if need be and make sure it can be written,
        before any game is played; UsageError saying why not."""
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, probe = temp_file(self.folder, "probe")
            os.close(fd)
            os.unlink(probe)
            os.listdir(self.folder)
        except OSError as exc:
            raise UsageError(f"cannot use the cache folder {self.folder}: {exc.strerror or exc}; give another with --cache DIR, or --no-cache") from None

    def outdated(self, keys: Sequence[str]) -> int:
        """How many of ``keys`` (cells not found) have an entry for the same
        question with another answer: cached from other content or code."""
        if self.folder is None or not keys:
            return 0
        try:
            names = os.listdir(self.folder)
        except OSError:
            return 0  # the sweep goes on without knowing; load says what it cannot read
        entries = {name for name in names if name.endswith(".json") and not name.startswith(".")}
        asked = {name.split(".", 1)[0] for name in entries}
        # A key whose own file is there was left aside as damaged: said already.
        return sum(1 for key in keys if key.split(".", 1)[0] in asked and f"{key}.json" not in entries)

    def path(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{key}.json"

    def load(self, key: str, games: int, players: int) -> CellFigures | None:
        """The cell stored under ``key``, or None: never stored, or left
        aside with a note. The file is read as any JSON from disk is
        (``engine.jsonfile``: a regular file, small, shallow, with bounded
        numbers), and its figures must be those of ``games`` games of
        ``players`` seats: a forged or damaged cell is played again, never
        reported as measured."""
        if self.folder is None:
            return None
        path = self.path(key)
        try:
            data = jsonfile.read(path, limit=CELL_LIMIT)
        except jsonfile.JsonRefused as exc:
            if not exc.missing:
                self.note(f"the cached cell {files.shown(path)} {exc.reason}; playing it again")
            return None
        try:
            if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
                raise ValueError("not a cell of this key")
            figures = CellFigures.from_dict(data.get("figures"))
        except ValueError as exc:
            self.note(f"the cached cell {files.shown(path)} is damaged ({exc}); playing it again")
            return None
        wrong = figures.inconsistency(games, players)
        if wrong is not None:
            self.note(f"the cached cell {files.shown(path)} does not add up ({wrong}); playing it again")
            return None
        return figures

    def save(self, key: str, figures: CellFigures) -> None:
        """Store a finished cell, whole or not at all."""
        if self.folder is None:
            return

        path = self.path(key)
        if os.path.isdir(path) and not os.path.islink(path):
            return  # load said the cell is a folder: it stays, and the cell is not kept
        text = json.dumps({"format": FORMAT, "key": key, "figures": figures.to_dict()}, sort_keys=True)
        try:
            # A link planted in the cache is replaced, never written through.
            write_whole(path, text.encode("utf-8"), through_links=False)
        except OSError as exc:
            raise UsageError(f"cannot write the cache folder {self.folder}: {exc.strerror or exc}") from None
