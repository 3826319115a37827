"""A cache of loaded catalogs, as Python caches bytecode: a clean load of the
same content, by the same code, from the same folder, is read back instead
of parsed, schema-checked and cross-checked again.

The key is a digest of every content file's path and bytes (``files_digest``),
every engine source file, the kit's ``pyproject.toml``, the Python version and the current folder (problem locations
are shown relative to it). Only a catalog that loaded clean is kept, so
every problem is always found afresh. An entry that cannot be read is
ignored and a folder that cannot be written only costs time; entries are
written whole (a temporary file renamed into place) and the oldest are
dropped past a small number (``engine.pickled``). ``STATIONMASTER_CATALOG_CACHE=0``
(or ``STATIONMASTER_CACHE=0``, every cache) turns it off.
"""

from __future__ import annotations

import copyreg
import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar, cast

from engine import pickled
from engine.content import files
from engine.sources import ROOT, folder_digest

T = TypeVar("T")

FOLDER = Path(__file__).resolve().parent / "__pycache__" / "catalogs"
KEEP = 16


def _proxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(items)


def _mappingproxy(proxy: MappingProxyType[Any, Any]) -> tuple[Callable[[dict[Any, Any]], MappingProxyType[Any, Any]], tuple[dict[Any, Any]]]:
    return _proxy, (dict(proxy),)


# Catalogs hold read-only mappings; pickle learns to rebuild them.
copyreg.pickle(MappingProxyType, _mappingproxy)


def enabled() -> bool:
    return pickled.enabled("STATIONMASTER_CATALOG_CACHE")


def kit_digest() -> bytes:
    """The digest of the kit's ``pyproject.toml``: its version and the
    libraries it pins (a new YAML reader or template engine may read or
    render the same files otherwise)."""
    try:
        return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).digest()
    except OSError:
        return b""


def _source_digest() -> bytes:
    return folder_digest("engine") + kit_digest()


def files_digest(content_dir: Path) -> bytes | None:
    """The digest of every file under ``content_dir`` (its schemas among
    them), by path relative to it and bytes, in path order; None when one
    cannot be read. The catalog cache's key and the stamp on every generated
    block (``generator.stamps``) both start from it: one definition of "the
    same content"."""
    digest = hashlib.sha256()
    # The same walk and reader as the loader's: what it would refuse (a
    # folder it cannot list, a FIFO, a file past the limit) is never hashed
    # around or read blindly here, and a digest is made only when everything
    # read. Otherwise the content loads the slow way, which says why.
    listing = files.walk(content_dir)
    if listing.unreadable:
        return None
    try:
        for path in listing.files:
            digest.update(os.fsencode(path.relative_to(content_dir)) + b"\0" + files.read_bytes(path) + b"\0")
    except OSError:
        return None  # unreadable content: load it the slow way, which says why
    return digest.digest()


def _key(content_dir: Path, tag: str) -> str | None:
    content = files_digest(content_dir)
    if content is None:
        return None
    digest = hashlib.sha256()
    digest.update(f"{tag}\0{sys.version}\0{os.getcwd()}\0{content_dir}\0".encode("utf-8", "surrogateescape"))
    digest.update(_source_digest())
    digest.update(content)
    return digest.hexdigest()


def cached(content_dir: Path, tag: str, load: Callable[[], T]) -> T:
    """``load()``, or the catalog it returned last time for the same inputs."""
    if not enabled():
        return load()
    key = _key(content_dir, tag)
    if key is None:
        return load()
    entry = FOLDER / f"{key}.pickle"
    found = pickled.load(entry)
    if found is not None:
        return cast(T, found)
    value = load()  # raises ContentError for content with problems: never kept
    pickled.store(entry, value, KEEP)
    return value
