"""Speed-ups kept on this machine, never in the checkout: plain JSON under
the user's cache folder (``$XDG_CACHE_HOME/stationmaster``, else
``~/.cache/stationmaster``), private to its owner (folders 0700, files 0600).

What is kept here only ever saves time: every entry is named by a digest
of everything its answer depends on, holds plain data (JSON cannot run
code when read), and a missing, damaged or unwritable entry means
computing afresh. ``STATIONMASTER_CACHE=0`` turns every entry off;
deleting the folder is always safe.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

# An entry larger than this is not read (a planted or damaged one).
_MAX_ENTRY = 8 * 1024 * 1024


def enabled(*also: str) -> bool:
    """Whether caching is on: ``STATIONMASTER_CACHE`` and any more specific
    variable named in ``also`` are not ``0``."""
    return all(os.environ.get(name, "1") != "0" for name in ("STATIONMASTER_CACHE", *also))


def root() -> Path:
    """The kit's cache folder (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    home = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return home / "stationmaster"


def read(kind: str, key: str) -> object | None:
    """The JSON value stored for ``key`` under ``kind``, or None: none
    stored, caching off, or an entry that is not a small regular file
    holding JSON."""
    if not enabled():
        return None
    path = root() / kind / f"{key}.json"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            if not os.path.isfile(path) or os.fstat(handle.fileno()).st_size > _MAX_ENTRY:
                return None
            data = handle.read(_MAX_ENTRY + 1)
        from engine import jsonfile  # bounded nesting and numbers, as all JSON from disk

        return jsonfile.loads(data)
    except (OSError, ValueError, RecursionError):
        return None


def write(kind: str, key: str, value: object, keep: int = 64) -> None:
    """Store ``value`` (plain JSON data) for ``key``, whole or not at all,
    keeping the ``keep`` newest entries of ``kind``; never raises."""
    if not enabled():
        return
    from engine.atomic import write_entry  # with tempfile, only for a write: a check that finds its verdict never pays for it

    folder = root() / kind
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_entry(folder / f"{key}.json", json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8"), keep=keep)
    except (OSError, TypeError, ValueError):
        pass
