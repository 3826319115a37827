"""Station Master, the first game pack: its catalog, rules, effects and tables.

``load_catalog`` is the pack's content loader with the engine's knowledge of
which house rules it can play supplied, so the content layer never imports
the rules.
"""

from __future__ import annotations

from pathlib import Path

from engine.stationmaster.content import Catalog, read_catalog
from engine.stationmaster.houserules import HOUSE_RULE_VALUES

DEFAULT_CONTENT = Path("content") / "stationmaster"


def load_catalog(content_dir: str | Path = DEFAULT_CONTENT) -> Catalog:
    """The checked catalog, or ContentError listing every located problem."""
    return read_catalog(content_dir, HOUSE_RULE_VALUES, "stationmaster")


__all__ = ["Catalog", "DEFAULT_CONTENT", "load_catalog"]
