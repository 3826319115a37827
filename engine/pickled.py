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
    from engine.atomic import write_entry  # only a store needs it (and tempfile): a quick ``check`` that only reads never pays for it

    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        write_entry(entry, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), keep=keep)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass
