"""Trick of the Rails, the second game pack: a published trick-taking game of
five railway companies, on the same pipeline as Station Master."""

from __future__ import annotations

from pathlib import Path

from engine.content.cache import cached
from engine.trickoftherails.content.model import Catalog

DEFAULT_CONTENT = Path("content") / "trickoftherails"


def load_catalog(content_dir: str | Path = DEFAULT_CONTENT) -> Catalog:
    """The checked catalog, or ContentError listing every located problem
    (a clean load is kept and read back, as for every pack)."""
    return cached(Path(content_dir), "trickoftherails", lambda: _read(content_dir))


def _read(content_dir: str | Path) -> Catalog:
    # Imported here: a cached catalog needs no YAML reader or schemas.
    from engine.trickoftherails.content.catalog import read_catalog

    return read_catalog(content_dir, "trickoftherails")


__all__ = ["Catalog", "DEFAULT_CONTENT", "load_catalog"]
