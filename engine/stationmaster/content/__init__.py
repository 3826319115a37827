"""Station Master's content layer: the card objects and the catalog built from
the pack's YAML, checked within and across files."""

from engine.stationmaster.content.catalog import read_catalog
from engine.stationmaster.content.model import Catalog

__all__ = ["Catalog", "read_catalog"]
