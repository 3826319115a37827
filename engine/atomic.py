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
which process made it, so one left by a run that was killed (SIGKILL, a
power cut: nothing can clean up after those) can be told from one in use:
every write first removes, from the folder it writes in, the temporary
files of processes that are gone (``remove_stale``). git ignores them.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

TEMP_SUFFIX = ".stationmaster-tmp"
# ".<name>.<pid>.<random>.stationmaster-tmp": the writer's process id, so a
# later run removes only the files of writers that are gone, never one a
# concurrent run is about to rename.
_TEMP_NAME = re.compile(r"^\..+\.([0-9]+)\.[a-z0-9_]+" + re.escape(TEMP_SUFFIX) + "$")
_FOREIGN_TEMP_AGE = 24 * 3600  # seconds; where process ids cannot be asked about
# Folders cleaned by this process already: once a run is enough.
_cleaned: set[str] = set()


def temp_file(folder: Path, name: str) -> tuple[int, str]:
    """A new temporary file in ``folder`` for writing ``name``, open (the
    descriptor) and named so that ``remove_stale`` knows its writer."""
    remove_stale(folder)
    return tempfile.mkstemp(prefix=f".{name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=folder)


def is_stale(path: Path) -> bool:
    """Whether ``path`` is a temporary file of this module's whose writer
    has gone (a regular file, not a link, named by a dead process)."""
    found = _TEMP_NAME.match(path.name)
    if found is None:
        return False
    try:
        if not path.is_file() or path.is_symlink():
            return False
        return _writer_gone(path, int(found.group(1)))
    except OSError:
        return False


def _writer_gone(path: Path, pid: int) -> bool:
    if pid == os.getpid():
        return False
    if os.name != "posix":
        # os.kill would end the process here, not ask about it: go by age.
        return time.time() - path.stat().st_mtime > _FOREIGN_TEMP_AGE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists (another user's), or cannot be told: keep
    return False


def remove_stale(folder: Path) -> list[Path]:
    """Delete, from ``folder`` (not below it), the temporary files that
    writers now gone left behind; the paths removed. Done once a process
    for each folder; a file that cannot be removed is tried next run."""
    key = os.path.abspath(folder)
    if key in _cleaned:
        return []
    _cleaned.add(key)
    removed: list[Path] = []
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for entry in entries if entry.name.endswith(TEMP_SUFFIX)]
    except (OSError, ValueError):
        return removed
    for name in names:
        path = Path(folder) / name
        if is_stale(path):
            try:
                path.unlink()
                removed.append(path)
            except OSError:
                pass
    return removed


def new_file_mode() -> int:
    """The permissions a new file gets: read and write as the umask allows."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_whole(target: Path, data: bytes, *, expected: bytes | None = None, through_links: bool = True) -> bool:
    """Replace ``target`` (through a symbolic link, unless ``through_links``
    is false: then the link itself is replaced) with ``data``; False, and
    nothing written, when ``expected`` is given and the target no longer
    holds it (or has gone). OSError when writing fails; the temporary file
    is then removed (by a ``finally``: Ctrl-C and SIGTERM too) and the
    target is as it was."""
    real = Path(os.path.realpath(target)) if through_links else Path(os.path.abspath(target))
    fd, temp = temp_file(real.parent, real.name)
    try:
        _write_all(fd, data, durable=True)
        try:
            if not through_links and os.path.islink(real):
                raise FileNotFoundError(real)  # the link itself is replaced: a new file's mode
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
    fd, temp = temp_file(entry.parent, "entry")
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
