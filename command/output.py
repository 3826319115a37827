"""Where a report goes: standard output, or a file written whole.

A file is written to a temporary name beside it and renamed into place, so a
failure (a folder that cannot be written, a full disk) leaves no half-written
file, and the old one, if any, as it was."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from engine.content import files
from engine.errors import UsageError


def emit(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    target = Path(output)
    # Only a regular file is ever replaced: renaming over a FIFO, a device
    # (/dev/full, as root) or a socket would swap it for a plain file.
    try:
        kind = files.kind_of(os.stat(target).st_mode)
    except (OSError, ValueError):
        kind = None  # nothing there yet (or unusable: the write below says so)
    if kind is not None:
        raise UsageError(f"cannot write {files.shown(output)}: it {kind}; nothing was written")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent if str(target.parent) else ".")
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
        os.replace(tmp, target)
    except OSError as exc:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise UsageError(f"cannot write {files.shown(output)}: {exc.strerror or exc}; nothing was written") from None
