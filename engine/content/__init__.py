"""The content layer: strict YAML reading, schema checks, cross-file rules and
the immutable card objects the rest of the code sees."""

from engine.content.loader import load_catalog
from engine.content.model import Catalog

__all__ = ["Catalog", "load_catalog"]
