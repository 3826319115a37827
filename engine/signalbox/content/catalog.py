"""Signal Box's catalog, built from its schema-checked documents by the
shared reader (``engine.content.loader``), with the one rule that spans
files: a card's source is an edition game.yaml declares."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from engine.content.loader import read_documents
from engine.content.problems import Origin
from engine.content.source import Source
from engine.errors import ContentError
from engine.signalbox.content.model import Card, Catalog

SINGLE_FILES = ("game",)
CARD_FAMILIES = ("lamps",)


def read_catalog(content_dir: str | Path, pack_id: str) -> Catalog:
    docs = read_documents(content_dir, SINGLE_FILES)
    named = docs.single("game", "id")
    if named is not None and named[1] != pack_id:
        docs.problems.append(docs.locator.problem(Origin(named[0].display, ()), f"game.yaml names pack {named[1]!r}, but this is the {pack_id} pack's loader", field="id"))
        raise ContentError(sorted(docs.problems))
    editions = frozenset(docs.value("game", "sourceEditions") or ())
    cards: list[Card] = []
    for family in CARD_FAMILIES:
        for loaded in docs.by_family.get(family, []):
            for index, raw in loaded.cards():
                origin = Origin(loaded.display, ("cards", index))
                if raw["source"] not in editions:
                    docs.problems.append(docs.locator.problem(origin, f"'{raw['source']}' is not a source game.yaml declares", field="source"))
                cards.append(Card(raw["id"], raw["name"], family, Source.from_yaml(raw["source"]), origin, raw["count"]))
    if docs.problems:
        raise ContentError(sorted(docs.problems))
    return Catalog(
        title=docs.value("game", "title") or "",
        players=docs.value("game", "players") or 2,
        editions=editions,
        cards=tuple(cards),
        by_id=MappingProxyType({card.id: card for card in cards}),
        fingerprint=docs.fingerprint,
    )
