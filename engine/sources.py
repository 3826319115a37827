"""A digest of the kit's own source files, read once per process.

Caches keyed by "the code that made this" (the catalog cache, the simulation
table's stamp) hash the same folders; reading every module twice in one
``check`` was work done for nothing.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".py", ".j2")


@functools.lru_cache(maxsize=None)
def folder_digest(folder: str) -> bytes:
    """The digest of every ``.py`` and ``.j2`` file under ``ROOT / folder``,
    by path and bytes, in path order."""
    digest = hashlib.sha256()
    for source in sorted((ROOT / folder).rglob("*")):
        if source.suffix in SUFFIXES:
            digest.update(source.relative_to(ROOT).as_posix().encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.digest()
