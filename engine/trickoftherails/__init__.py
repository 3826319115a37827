"""Trick of the Rails, the second game pack: a published trick-taking game of
five railway companies, on the same pipeline as Station Master."""

from __future__ import annotations

from pathlib import Path

import engine.content.readonly  # noqa: F401  # a catalog's read-only mappings cross to worker processes
from engine.trickoftherails.content.model import Catalog

DEFAULT_CONTENT = Path("content") / "trickoftherails"


def load_catalog(content_dir: str | Path = DEFAULT_CONTENT) -> Catalog:
    """The checked catalog, or ContentError listing every located problem."""
    # Imported here: the YAML reader and the schemas, only for a command that reads content.
    from engine.trickoftherails.content.catalog import read_catalog

    return read_catalog(content_dir, "trickoftherails")


__all__ = ["Catalog", "DEFAULT_CONTENT", "load_catalog"]
