"""Signal Box, a throwaway pack of one card: players take one or two Signal
Lamps in turn from a shared pile, and whoever holds the most wins."""

from __future__ import annotations

from pathlib import Path

from engine.content.cache import cached
from engine.signalbox.content.model import Catalog

DEFAULT_CONTENT = Path("content") / "signalbox"


def load_catalog(content_dir: str | Path = DEFAULT_CONTENT) -> Catalog:
    """The checked catalog, or ContentError listing every located problem."""
    return cached(Path(content_dir), "signalbox", lambda: _read(content_dir))


def _read(content_dir: str | Path) -> Catalog:
    from engine.signalbox.content.catalog import read_catalog

    return read_catalog(content_dir, "signalbox")


__all__ = ["Catalog", "DEFAULT_CONTENT", "load_catalog"]
