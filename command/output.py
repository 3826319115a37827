"""Where a report goes: standard output, or a file written whole.

A file is written to a temporary name beside it and renamed into place, so a
failure (a folder that cannot be written, a full disk) leaves no half-written
file, and the old one, if any, as it was."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from engine.errors import UsageError


def emit(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    target = Path(output)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent if str(target.parent) else ".")
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
        os.replace(tmp, target)
    except OSError as exc:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}; nothing was written") from None
