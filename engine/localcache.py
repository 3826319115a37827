"""Speed-ups kept on this machine, never in the checkout: plain JSON under
the user's cache folder (``$XDG_CACHE_HOME/stationmaster``, else
``~/.cache/stationmaster``).

What is kept here only ever saves time, never decides a verdict: an entry
holds plain data (JSON cannot run code when read), is named by a digest of
everything its answer depends on, and says inside it which kind, key and
format it was written for. Whatever does not read back exactly so (a
damaged, renamed, oversized or planted entry, a link, a FIFO) is ignored,
and the answer is worked out afresh.

The folder, and every folder and entry below it, must be the user's own
and writable by no one else: owned by them, with no write bit for group or
others. One that is not (made by someone else in a shared
``$XDG_CACHE_HOME``, or opened to a group with ``chmod``) is not used at
all, and nothing is written there. Others may read (a folder made 0755 by
an older kit, or by hand, is still used): what is kept is digests of code
anyone can read, and what matters is who could have written it. Folders
are made 0700 and entries written 0600, whole (to a
temporary name, then renamed) or not at all, and the oldest are dropped past
a small number. Every step goes through the folder already opened and
checked, so a folder swapped for a link in between is never followed.
Where the system cannot do that (no ``dir_fd``, no owner ids) nothing is
cached. ``STATIONMASTER_CACHE=0`` turns every entry off; deleting the folder
is always safe.
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FORMAT = "stationmaster-cache-1"
# An entry larger than this is not read (a planted or damaged one).
MAX_ENTRY = 1024 * 1024
# A temporary file older than this was left by a killed run.
_ABANDONED = 600.0

_KIND = re.compile(r"[a-z][a-z0-9-]{0,31}")
_KEY = re.compile(r"[0-9a-f]{16,128}")
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
# Opening a folder without following a link, and working inside it by its
# descriptor: without both, a checked folder could be swapped for another.
_SUPPORTED = (
    hasattr(os, "getuid") and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY") and {os.open, os.mkdir, os.stat, os.unlink, os.rename} <= os.supports_dir_fd and os.listdir in os.supports_fd
)


def enabled() -> bool:
    """Whether caching is on: ``STATIONMASTER_CACHE`` is not ``0``, and the
    system can keep a private folder safely."""
    return _SUPPORTED and os.environ.get("STATIONMASTER_CACHE", "1") != "0"


def root() -> Path:
    """The kit's cache folder (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    home = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return home / "stationmaster"


def read(kind: str, key: str) -> object | None:
    """The JSON value stored for ``key`` under ``kind``, or None: none
    stored, caching off, a folder that is not private to this user, or an
    entry that is not a small regular file of this user's holding this very
    kind, key and format."""
    if not (enabled() and _KIND.fullmatch(kind) and _KEY.fullmatch(key)):
        return None
    with _private(kind, create=False) as folder:
        if folder is None:
            return None
        data = _read_entry(folder, f"{key}.json")
    if data is None:
        return None
    try:
        from engine import jsonfile  # bounded nesting and numbers, as all JSON from disk

        found = jsonfile.loads(data)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, a number too long or nested too deep
        return None
    if not (isinstance(found, dict) and found.keys() == {"format", "kind", "key", "value"}):
        return None
    if (found["format"], found["kind"], found["key"]) != (FORMAT, kind, key):
        return None
    value: object = found["value"]
    return value


def write(kind: str, key: str, value: object, keep: int = 64) -> None:
    """Store ``value`` (plain JSON data) for ``key`` under ``kind``, whole
    or not at all, keeping the ``keep`` newest entries of ``kind``; never
    raises, and writes nothing where ``read`` would not look."""
    if not (enabled() and _KIND.fullmatch(kind) and _KEY.fullmatch(key)):
        return
    try:
        data = json.dumps({"format": FORMAT, "kind": kind, "key": key, "value": value}, sort_keys=True, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError, RecursionError):
        return
    if len(data) > MAX_ENTRY:
        return
    with _private(kind, create=True) as folder:
        if folder is not None:
            _write_entry(folder, f"{key}.json", data)
            _prune(folder, keep)


# Write bits for group and others: an entry or folder with any of them may
# hold what someone else put there.
_OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH


def _is_private(fd: int) -> bool:
    """Whether the open folder ``fd`` is this user's, and no one else may
    write in it."""
    found = os.fstat(fd)
    return stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & _OTHERS_WRITE


def _open_folder(name: str, parent: int | None, create: bool) -> int | None:
    """The descriptor of folder ``name`` (inside ``parent``, else a whole
    path) if it is private to this user, made so first when ``create`` and
    missing; None for anything else (a link, a file, someone else's)."""
    made = False
    if create:
        try:
            os.mkdir(name, 0o700, dir_fd=parent)
            made = True
        except FileExistsError:
            pass
    fd = os.open(name, _FOLDER_FLAGS, dir_fd=parent)
    if made:
        os.fchmod(fd, 0o700)  # the umask may have taken bits from a folder just made; never added any
    if _is_private(fd):
        return fd
    os.close(fd)
    return None


@contextmanager
def _private(kind: str, *, create: bool) -> Iterator[int | None]:
    """The open folder of ``kind`` inside the kit's cache folder, both
    checked private; None where either is missing (and not ``create``),
    cannot be made, or is not private."""
    top: int | None = None
    folder: int | None = None
    try:
        base = root()
        if create:
            base.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        top = _open_folder(str(base), None, create)
        if top is not None:
            folder = _open_folder(kind, top, create)
    except OSError:
        folder = None
    try:
        yield folder
    finally:
        for fd in (folder, top):
            if fd is not None:
                os.close(fd)


def _read_entry(folder: int, name: str) -> bytes | None:
    """The bytes of entry ``name``: only a regular file of this user's
    that no one else may write, no larger than MAX_ENTRY."""
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=folder)
    except OSError:
        return None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & _OTHERS_WRITE or found.st_size > MAX_ENTRY:
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_ENTRY:
            chunk = os.read(fd, MAX_ENTRY + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return None if size > MAX_ENTRY else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _write_entry(folder: int, name: str, data: bytes) -> None:
    """Write entry ``name`` whole (0600) or not at all; never raises."""
    temp = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(temp, _WRITE_FLAGS, 0o600, dir_fd=folder)
    except OSError:
        return
    try:
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)  # over an older entry, as os.replace (on POSIX)
    except OSError:
        try:
            os.unlink(temp, dir_fd=folder)
        except OSError:
            pass


def _prune(folder: int, keep: int) -> None:
    """Drop all but the ``keep`` newest entries, and the temporary files a
    killed run left behind; never raises."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    now = time.time()
    entries: list[tuple[float, str]] = []
    doomed: list[str] = []
    for name in names:
        try:
            found = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError:
            continue
        if name.endswith(".json") and not name.startswith("."):
            entries.append((found.st_mtime, name))
        elif name.endswith(".tmp") and name.startswith(".") and now - found.st_mtime > _ABANDONED:
            doomed.append(name)
    entries.sort()
    doomed += [name for _, name in entries[: max(0, len(entries) - max(1, keep))]]
    for name in doomed:
        try:
            os.unlink(name, dir_fd=folder)
        except OSError:
            pass
