"""One way to write a file whole or not at all, for every file the kit
writes for a person: pages, saves, sweep output and cells, exports; and a
lighter one for the entries of its caches (``write_entry``).

The bytes go to a temporary file beside the target, are flushed to the disk,
and only then renamed over it, and the rename is flushed too: a crash or a
full disk leaves the old file or the new one, never half of one. Three
things a plain rename would get wrong are kept right here, once:

- a symbolic link is written through, to the file it names, so the link
  stays a link (a page or an output kept elsewhere and linked in);
- the file keeps its permissions, and a new one gets the usual ones (what
  the umask allows), not the private ones a temporary file is made with;
- with ``expected``, the target is replaced only if it still holds those
  bytes, so text someone saved since it was read is never written over.

The temporary file's name (``.NAME.PID.RANDOM.stationmaster-tmp``) says
which process made it, so one left by a killed run can be told from one in
use and removed (``generator.drift``), and git ignores it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TEMP_SUFFIX = ".stationmaster-tmp"


def new_file_mode() -> int:
    """The permissions a new file gets: read and write as the umask allows."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_whole(target: Path, data: bytes, *, expected: bytes | None = None) -> bool:
    """Replace ``target`` (through a symbolic link) with ``data``; False,
    and nothing written, when ``expected`` is given and the target no longer
    holds it (or has gone). OSError when writing fails; the temporary file
    is then removed and the target is as it was."""
    real = Path(os.path.realpath(target))
    fd, temp = tempfile.mkstemp(prefix=f".{real.name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=real.parent)
    try:
        _write_all(fd, data, durable=True)
        try:
            mode = os.stat(real).st_mode & 0o7777
        except FileNotFoundError:
            if expected is not None:
                return False  # deleted (or renamed away) since it was read
            mode = new_file_mode()
        os.chmod(temp, mode)
        if expected is not None:
            try:
                if real.read_bytes() != expected:
                    return False
            except FileNotFoundError:
                return False
        os.replace(temp, real)
    finally:
        if os.path.lexists(temp):
            os.unlink(temp)
    _sync_folder(real.parent)
    return True


def write_entry(entry: Path, data: bytes, *, keep: int) -> None:
    """Write a cache entry whole
    or not at all, then remove all but the ``keep`` newest entries of its
    folder (those with its suffix). Unlike ``write_whole`` nothing is
    flushed to the disk (a lost entry costs only the time to work it out
    again), the entry stays private to its owner (0600, as the temporary
    file is made), and a link in its place is replaced, never written
    through. OSError when writing fails; the temporary file is then removed."""
    fd, temp = tempfile.mkstemp(prefix=".entry.", suffix=".tmp", dir=entry.parent)
    try:
        _write_all(fd, data, durable=False)
        os.replace(temp, entry)
    finally:
        if os.path.lexists(temp):
            os.unlink(temp)
    entries = sorted(entry.parent.glob("*" + entry.suffix), key=lambda p: p.stat().st_mtime)
    for old in entries[:-keep]:
        old.unlink(missing_ok=True)


def _write_all(fd: int, data: bytes, *, durable: bool) -> None:
    """Write ``data`` to ``fd`` and close it; if ``durable``, flush it to the disk first."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    """Make a rename inside ``folder`` durable where the system allows
    opening a directory to flush it."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
