"""The one way the kit reads a file or a folder someone named: content,
schemas, game.yaml, saves, the site's pages.

Reading "whatever is at this path" blindly goes wrong in ways that have
nothing to do with the file's contents: a FIFO blocks forever, a link to
``/dev/zero`` never ends, a folder the user cannot list looks empty, a name
too long for the system raises an error nobody expected. Here every path is
opened without blocking (``O_NONBLOCK``: opening a FIFO with no writer
returns at once), the open descriptor is checked (``fstat``, so what was
checked is what is read), anything but a regular file is refused, and no
more than the limit plus one byte is ever read. Every failure is one
``Unreadable`` saying, in words, what the thing is or why it cannot be read.

Paths shown to people go through ``shown``: a name holding a line break or
``:99:1: `` would otherwise fake a second problem or a location.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

MIB = 1024 * 1024
# What one file may hold: far above any real content file or save, far
# below what would exhaust memory.
LIMIT = 64 * MIB
_CHUNK = MIB
# Errors that say what is (not) at the path, rather than that the system
# refused: nothing there, a link to nothing, a loop of links.
_NOT_A_FILE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ELOOP})


class Unreadable(OSError):
    """A path that cannot be read as asked; ``reason`` says why, in words
    ("is a FIFO (named pipe), not a file"), and ``missing`` whether there is
    simply nothing there (or no folder, where a folder was wanted).

    ``refused`` is true when the system would not let it be read
    (permission, an I/O error, a name too long): the place cannot be used as
    things stand, which is a usage error. Otherwise the thing is simply not
    a file to read (a FIFO, a device, a file too large, a link to nothing or
    a loop of links): a problem with what was written, located like any
    other."""

    def __init__(self, path: str | os.PathLike[str], reason: str, *, code: int | None = None, missing: bool = False, too_big: bool = False) -> None:
        super().__init__(code, reason)
        self.path = os.fspath(path)
        self.reason = reason
        self.missing = missing
        self.too_big = too_big

    @property
    def refused(self) -> bool:
        """The system refused to read it (as opposed to: it is no file)."""
        return self.errno is not None and self.errno not in _NOT_A_FILE

    def __str__(self) -> str:
        return f"{shown(self.path)}: {self.reason}"


def kind_of(mode: int) -> str | None:
    """What a non-regular file is, as the end of a sentence; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (named pipe), not a file"
    if stat.S_ISCHR(mode):
        return "is a device (a character device), not a file"
    if stat.S_ISBLK(mode):
        return "is a device (a block device), not a file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file"
    return "is not a regular file"


def why(exc: OSError, path: str | os.PathLike[str] | None = None) -> str:
    """An OSError from a path, as the end of a sentence about that path."""
    code = exc.errno
    if code == errno.ENOENT:
        if path is not None and os.path.islink(path):
            return "is a symbolic link to nothing (its target does not exist)"
        return "does not exist"
    if code in (errno.EACCES, errno.EPERM):
        return "cannot read it: permission denied"
    if code == errno.ENAMETOOLONG:
        return "cannot be used: the name is too long for this system"
    if code == errno.ELOOP:
        return "is a loop of symbolic links (or a chain too long to follow)"
    if code == errno.ENOTDIR:
        return "does not exist (a part of its path is a file, not a folder)"
    if code == errno.EISDIR:
        return "is a folder, not a file"
    words = exc.strerror or str(exc)
    return f"cannot read it: {words[:1].lower()}{words[1:]}"


def _refused(path: str | os.PathLike[str], exc: OSError | ValueError) -> Unreadable:
    if isinstance(exc, ValueError):  # a NUL in the name
        return Unreadable(path, "cannot be used: the name holds a NUL character")
    return Unreadable(path, why(exc, path), code=exc.errno, missing=exc.errno in (errno.ENOENT, errno.ENOTDIR))


def _too_big(path: str | os.PathLike[str], limit: int) -> Unreadable:
    return Unreadable(path, f"is larger than {limit / MIB:g} MiB, the most one file may hold", too_big=True)


# Text an editor holds and has not saved, by absolute path: while set
# (``overlaid``), reading such a file gives that text instead of the disk's,
# so the language server checks a pack as the designer sees it with the very
# loader ``validate`` runs. Empty everywhere else.
_OVERLAY: dict[str, bytes] = {}


@contextmanager
def overlaid(buffers: Mapping[str, bytes]) -> Iterator[None]:
    """Read ``buffers`` (absolute path to its text) in place of those files
    while the block runs; a file only on disk reads from disk."""
    previous = dict(_OVERLAY)
    _OVERLAY.clear()
    _OVERLAY.update(buffers)
    try:
        yield
    finally:
        _OVERLAY.clear()
        _OVERLAY.update(previous)


def read_bytes(path: str | os.PathLike[str], limit: int = LIMIT) -> bytes:
    """Every byte of the regular file at ``path``, if it holds at most
    ``limit`` of them; Unreadable otherwise, never a hang."""
    if _OVERLAY:
        held = _OVERLAY.get(os.path.abspath(path))
        if held is not None:
            if len(held) > limit:
                raise _too_big(path, limit)
            return held
    try:
        # Refuse by the name first, so that nothing but a regular file is
        # ever opened (opening some devices does something).
        found = os.stat(path)
        kind = kind_of(found.st_mode)
        if kind is not None:
            raise Unreadable(path, kind)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        if isinstance(exc, Unreadable):
            raise
        raise _refused(path, exc) from None
    try:
        # The thing opened may not be the thing named a moment ago: check again.
        opened = os.fstat(fd)
        kind = kind_of(opened.st_mode)
        if kind is not None:
            raise Unreadable(path, kind)
        if opened.st_size > limit:
            raise _too_big(path, limit)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise _too_big(path, limit)
        return b"".join(chunks)
    except Unreadable:
        raise
    except OSError as exc:
        raise _refused(path, exc) from None
    finally:
        os.close(fd)


def check_folder(path: str | os.PathLike[str]) -> None:
    """Nothing if ``path`` is a folder whose names can be listed; Unreadable
    otherwise (``missing`` when there is no folder there at all)."""
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISDIR(mode):
            raise Unreadable(path, "is a file, not a folder", missing=True)
        with os.scandir(path):
            pass
    except Unreadable:
        raise
    except (OSError, ValueError) as exc:
        raise _refused(path, exc) from None


def names(path: str | os.PathLike[str]) -> list[str]:
    """The sorted names in the folder ``path``, hidden ones (a leading dot)
    left out; Unreadable when it cannot be listed."""
    try:
        with os.scandir(path) as entries:
            return sorted(e.name for e in entries if not e.name.startswith("."))
    except (OSError, ValueError) as exc:
        raise _refused(path, exc) from None


@dataclass
class Listing:
    """What ``walk`` found: the files, in order, and every folder it could not list."""

    files: list[Path] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)


def walk(root: Path) -> Listing:
    """Every non-hidden file under ``root`` (a folder's own files first, by
    name, then each sub-folder's, as ``os.walk`` orders them), and every
    folder that could not be listed: a folder left unread is reported, never
    passed over in silence. Anything that is not a folder counts as a file,
    so that reading it says what it is.

    A link to a folder is followed when the folder is inside ``root``, and
    each real folder is read once: a link back to a folder it is in, a
    second way to a folder read already, and a link to a folder outside
    ``root`` are each reported, not read. Otherwise links to the same folders
    at every level multiply the folders read (two per level reach 2**18
    reads in 18 levels), and a link to ``/`` reads the whole machine."""
    found = Listing()
    try:
        real_root = os.path.realpath(root)
    except (OSError, ValueError):
        real_root = os.path.abspath(root)
    _walk(root, found, frozenset(), set(), real_root)
    return found


def _walk(folder: Path, found: Listing, above: frozenset[tuple[int, int]], seen: set[tuple[int, int]], real_root: str) -> None:
    try:
        here = os.stat(folder)
    except (OSError, ValueError) as exc:
        found.unreadable.append(_refused(folder, exc))
        return
    key = (here.st_dev, here.st_ino)
    if key in above:
        found.unreadable.append(Unreadable(folder, "is a link back to a folder it is in; it was not read again"))
        return
    if key in seen:
        found.unreadable.append(Unreadable(folder, "is a second way to a folder that was read already; it was not read again (remove the link)"))
        return
    seen.add(key)
    try:
        with os.scandir(folder) as listed:
            entries = sorted((e.name, _is_folder(e), _is_link(e)) for e in listed if not e.name.startswith("."))
    except (OSError, ValueError) as exc:
        found.unreadable.append(_refused(folder, exc))
        return
    found.files += [folder / name for name, is_folder, _ in entries if not is_folder]
    for name, is_folder, is_link in entries:
        if not is_folder:
            continue
        if is_link:
            target = os.path.realpath(folder / name)
            if not _inside(target, real_root):
                found.unreadable.append(Unreadable(folder / name, f"is a link to a folder outside the content ({shown(target)}): link only to folders inside it, or copy the files in"))
                continue
        _walk(folder / name, found, above | {key}, seen, real_root)


def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # pragma: no cover - only across Windows drives
        return False


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:  # pragma: no cover - a link cannot be told from its entry
        return True  # judged by where it leads, which is the safe side


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows a link; no system call for a plain entry
    except OSError:
        return False  # read as a file: reading it says what is wrong


def as_given(path: str | os.PathLike[str]) -> str:
    """``path`` relative to the current folder when it lies inside it, else
    as it was given (an absolute path stays absolute): never a chain of
    ``../..`` that the person never typed."""
    given = os.fspath(path)
    try:
        relative = os.path.relpath(given)
    except ValueError:  # pragma: no cover - another drive on Windows
        return given
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return given if not os.path.isabs(given) else os.path.normpath(given)
    return relative


# How a path is shown: printable text without a colon, a backslash or a
# double quote stands as it is; anything else is put in double quotes with
# Python's escapes, and a colon written \x3a, so that no name can end a
# problem's line early or pose as its line and column.
_ESCAPES = {"\\": "\\\\", '"': '\\"', ":": "\\x3a", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def shown(path: str | os.PathLike[str]) -> str:
    """``path`` as it is safe to print on one line of a report."""
    text = os.fspath(path)
    if text.isprintable() and not any(c in text for c in '\\":'):
        return text
    return '"' + "".join(_escape(c) for c in text) + '"'


def _escape(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    if char.isprintable():
        return char
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape): show the byte
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def one_line(text: str) -> str:
    """``text`` with every character that could break a line (or drive the
    terminal) written as an escape, so it prints as exactly one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _ESCAPES.get(c) or _escape(c) for c in text)
