"""Signal Box's one generated table: its cards, with the copies in a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.signalbox.content.model import Catalog
from generator.tableset import TableSet

Context = dict[str, Any]


def lamps(catalog: Catalog) -> Context:
    rows = [{"id": card.id, "name": card.name, "designed": card.source.designed, "source": card.source.edition or "designed"} for card in catalog.cards]
    return {"rows": rows}


TABLES: dict[str, Callable[[Catalog], Context]] = {"lamps": lamps}
TABLE_SET = TableSet(templates="signalbox", tables=TABLES)
