"""Results kept on disk between runs, as Python keeps bytecode: read back
when their key matches, written whole (a temporary file renamed into place),
the oldest dropped past a small number. A missing, damaged or unwritable
entry only costs the time of computing afresh; nothing here ever raises.
``STATIONMASTER_CACHE=0`` turns every such cache off."""

from __future__ import annotations

import os
import pickle
from pathlib import Path


def enabled(*also: str) -> bool:
    """Whether caching is on: ``STATIONMASTER_CACHE`` and any more specific
    variable named in ``also`` are not ``0``."""
    return all(os.environ.get(name, "1") != "0" for name in ("STATIONMASTER_CACHE", *also))


def load(entry: Path) -> object | None:
    """The value stored at ``entry``, or None when there is none to read."""
    try:
        with entry.open("rb") as handle:
            found: object = pickle.load(handle)
        return found
    except Exception:  # noqa: BLE001 - a missing or damaged entry only means computing afresh
        return None


def store(entry: Path, value: object, keep: int) -> None:
    """Write ``value`` to ``entry`` whole, keeping the ``keep`` newest entries of its folder."""
    import tempfile  # only a store needs it: a quick ``check`` that only reads never pays for it

    folder = entry.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".entry.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, entry)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        entries = sorted(folder.glob("*" + entry.suffix), key=lambda p: p.stat().st_mtime)
        for old in entries[:-keep]:
            old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass
