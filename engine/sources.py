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
def folder_digest(folder: str, leave_out: frozenset[str] = frozenset()) -> bytes:
    """The digest of every ``.py`` and ``.j2`` file under ``ROOT / folder``,
    by path and bytes, in path order; sub-folders named (relative to ROOT)
    in ``leave_out`` are skipped."""
    digest = hashlib.sha256()
    skipped = tuple(ROOT / part for part in sorted(leave_out))
    for source in sorted((ROOT / folder).rglob("*")):
        if source.suffix in SUFFIXES and not any(source.is_relative_to(other) for other in skipped):
            digest.update(source.relative_to(ROOT).as_posix().encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.digest()


def pack_code_digest(pack_id: str) -> bytes:
    """The digest of the code one pack's output depends on: the shared
    engine and generator, and that pack's own rules and templates, but not
    another pack's (a change to one game leaves the other's stamps alone)."""
    others = frozenset(
        part
        for found in (ROOT / "engine").glob("*/pack.py")
        if found.parent.name != pack_id
        for part in (f"engine/{found.parent.name}", f"generator/templates/{found.parent.name}")
    )
    return folder_digest("engine", others) + folder_digest("generator", others)
