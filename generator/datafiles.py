"""The data a pack publishes beside its pages: ``site/<pack>/cards.json``.

``stationmaster cards`` writes it with the pages and ``check`` refuses it
when it no longer matches the content, as it does a stale table. So the
docs folder holds every file the site serves, and any builder that copies
it (MkDocs, Zensical, a plain web server) publishes the same file, with no
plugin needed to make it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.atomic import write_whole
from engine.content.problems import Problem
from engine.pack import AnyPack
from generator.records import EXPORT_NAME, export, to_json

FIX_HINT = "run `make cards` (or `stationmaster cards`) to write it again, then commit it"


@dataclass(frozen=True)
class DataFile:
    """One published file: where it goes, as messages show it, what it holds
    now (None: there is none), and what the content makes of it; with the
    words that say what it is and what it should agree with."""

    path: Path
    shown: str
    old: bytes | None
    new: bytes
    missing: str = "the pack's cards as data is missing"
    made_from: str = "what the content exports (`stationmaster export`)"

    @property
    def is_current(self) -> bool:
        return self.old == self.new

    def problem(self) -> Problem:
        """Where the committed file parts from what the content exports, located at its first differing line."""
        if self.old is None:
            return Problem(self.shown, 1, 1, f"{self.missing}; {FIX_HINT}")
        old, new = self.old.decode("utf-8", errors="replace").splitlines(), self.new.decode("utf-8").splitlines()
        line = next((i for i, (a, b) in enumerate(zip(old, new), start=1) if a != b), min(len(old), len(new)) + 1)
        return Problem(self.shown, line, 1, f"no longer {self.made_from}, from this line on; {FIX_HINT}")


def read_data(path: Path, shown: str, new: bytes, **words: str) -> DataFile:
    """The file at ``path`` as it is now (OSError when it cannot be read),
    beside ``new``, what it should hold."""
    try:
        old: bytes | None = path.read_bytes()
    except FileNotFoundError:
        old = None
    return DataFile(path, shown, old, new, **words)


def cards_file(pack: AnyPack, catalog: object, site_dir: Path, prefix: str) -> DataFile:
    """The pack's ``cards.json`` under ``site_dir`` (shown as ``prefix`` + name) and its fresh text."""
    return read_data(site_dir / EXPORT_NAME, prefix + EXPORT_NAME, to_json(export(pack, catalog)).encode("utf-8"))


def write_data(found: DataFile) -> bool:
    """Write the file if it changed; True when written. Replaced only if it
    still holds what was read (an edit since is left for the next run);
    OSError when it cannot be written."""
    if found.is_current:
        return False
    found.path.parent.mkdir(parents=True, exist_ok=True)
    return write_whole(found.path, found.new, expected=found.old)
