"""Station Master, the first game pack: its catalog, rules, effects and tables.

``load_catalog`` is the pack's content loader with the engine's knowledge of
which house rules it can play supplied, so the content layer never imports
the rules.
"""

from __future__ import annotations

from pathlib import Path

import engine.content.readonly  # noqa: F401  # a catalog's read-only mappings cross to worker processes
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.houserules import HOUSE_RULE_VALUES

DEFAULT_CONTENT = Path("content") / "stationmaster"


def load_catalog(content_dir: str | Path = DEFAULT_CONTENT) -> Catalog:
    """The checked catalog, or ContentError listing every located problem."""
    # Imported here: the YAML reader and the schemas, only for a command that reads content.
    from engine.stationmaster.content.catalog import read_catalog

    return read_catalog(content_dir, HOUSE_RULE_VALUES, "stationmaster")


__all__ = ["Catalog", "DEFAULT_CONTENT", "load_catalog"]
