"""Where a command may write a file a person named (``--output FILE``,
``play --save FILE``): the one rule every such command follows.

A new file may be written wherever its folder exists and can be written.
What already stands at the name is replaced only when it is a regular file
the kit would have written anyway: a save of the same game (the caller
recognises it), or an output the kit wrote there itself and nobody has
changed since. The kit keeps a list of the outputs it wrote (their real
path and a digest of their bytes) in the user's private cache folder
(``engine.localcache``, kind ``outputs``); forgetting it (deleting that
folder, or ``STATIONMASTER_CACHE=0``) only means being asked for
``--force`` once more. So
``export --output content/stationmaster/game.yaml``, a page under
``site/``, or a report someone edited since it was written are refused,
unless ``--force``. A FIFO, a device, a socket or a folder is refused even
then: renaming a file over one of those would not write into it.

Every refusal is one sentence naming the place (``refusal``).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Final

from engine.content import files
from engine.errors import UsageError

# How many outputs the list remembers (the newest): far more than anyone
# rewrites by hand between two runs.
_KEEP: Final = 512


def refusal(path: Path, *, force: bool = False, recognised: Callable[[bytes], bool] | None = None, what: str = "an output the kit wrote there") -> str | None:
    """None when a file may be written at ``path``; else why not, as a
    sentence whose subject is the place ("it is a FIFO ..."): its folder
    must exist and take a new file, and what already stands there must be a
    regular file that ``recognised`` accepts (by default: an output the kit
    wrote there and nobody changed since; ``what`` names it). ``force`` lets
    any existing regular file be replaced."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        found = None
    except (OSError, ValueError) as exc:
        return _reason(path, exc)
    folder = path.parent
    if found is None:
        try:
            files.check_folder(folder)
        except files.Unreadable as exc:
            return f"the folder {files.shown(folder)} does not exist" if exc.missing else f"the folder {exc}"
    # The file is written beside its target and renamed over it: a folder
    # that cannot take a new file is refused now, before any work is done.
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {files.shown(folder)} cannot be written (permission denied)"
    if found is None:
        return None
    if stat.S_ISDIR(found.st_mode):
        return "it is a directory"
    kind = files.kind_of(found.st_mode)
    if kind is not None:
        return f"it {kind}"
    if force:
        return None
    try:
        held = files.read_bytes(path)
    except files.Unreadable as exc:
        return f"it {exc.reason}"
    accepted = recognised(held) if recognised is not None else written_here(path, held)
    if not accepted:
        return f"the file exists and is not {what}"
    return None


def check_output(path: Path, *, force: bool) -> None:
    """UsageError, naming ``path`` first, unless an output may be written
    there: a new file, or one the kit wrote there and nobody changed since
    (any regular file with ``force``)."""
    why = refusal(path, force=force, what="an output stationmaster wrote there (or it was changed since)")
    if why is not None:
        hint = " (give --force to replace it, or name another file)" if why.startswith("the file exists") else ""
        raise UsageError(f"cannot write {files.shown(path)}: {why}; nothing was written{hint}")


def written_here(path: Path, held: bytes) -> bool:
    """Whether ``held``, the bytes now at ``path``, are exactly what the
    kit last wrote there as an output."""
    from engine import localcache

    return localcache.read("outputs", _key(path)) == hashlib.sha256(held).hexdigest()


def remember(path: Path, data: bytes) -> None:
    """Note that the kit just wrote ``data`` at ``path`` as an output, so a
    later run may replace it. The note is an entry of the kit's private
    cache (``engine.localcache``): one that another user could have written,
    or that does not read back exactly, is never believed, so it can only
    spare a ``--force``, never let a file be replaced. Never raises (a note
    that cannot be kept only means asking for --force)."""
    from engine import localcache

    localcache.write("outputs", _key(path), hashlib.sha256(data).hexdigest(), keep=_KEEP)


def _key(path: Path) -> str:
    """The entry's name: a digest of the file's real path."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):  # pragma: no cover - a name checked already
        real = os.path.abspath(path)
    return hashlib.sha256(os.fsencode(real)).hexdigest()


def _reason(path: Path, exc: OSError | ValueError) -> str:
    if isinstance(exc, ValueError):
        return "the name holds a NUL character"
    return f"it {files.why(exc, path)}"
