"""Every card of a pack as plain data: what the JSON export publishes and
what the changelog compares.

A record holds the card's own fields and the facts the pack derives for it
(its status, and whether each configuration deals it), asked of the pack the
same way the site's tables ask, so a tool reading the export and a reader of
the site see one set of facts. Counts are in the record: the export is for
tools (card printers); the site's pages still print only whether a card is dealt.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Mapping
from typing import Any

from engine.content.source import Source
from engine.pack import AnyPack, CardLike

# Bumped when a record changes shape, so a tool can tell what it reads.
FORMAT = 1
EXPORT_NAME = "cards.json"
SCHEMA_NAME = "cards.schema.json"
# Fields a record holds at its top level; every other compared field of the
# card goes under "fields".
_TOP = ("id", "name", "family", "count", "text", "source", "effect")
_NOT_DATA = ("origin",)


def camel(name: str) -> str:
    """A Python field name as the content's YAML spells its keys (``play_option`` -> ``playOption``)."""
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), name)


_SCALARS = frozenset({str, int, float, bool})


@functools.cache
def _compared(kind: type) -> tuple[tuple[str, str], ...]:
    """A dataclass's compared fields, each with its key as the YAML spells
    it: worked out once per class (a catalog holds thousands of cards)."""
    return tuple((f.name, camel(f.name)) for f in dataclasses.fields(kind) if f.compare and f.name not in _NOT_DATA)


def plain(value: Any) -> Any:
    """``value`` as JSON data: a source as the YAML writes it, a nested
    record as a mapping of its compared fields, tuples as lists."""
    if value is None or type(value) in _SCALARS:  # most of a catalog: answered first
        return value
    if isinstance(value, Source):
        return {"edition": value.edition} if value.edition is not None else {"designed": value.reason}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {key: plain(getattr(value, name)) for name, key in _compared(type(value))}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return value


def card_record(pack: AnyPack, catalog: Any, card: CardLike, configurations: list[Any]) -> dict[str, Any]:
    """One card: its fields, its status and, per configuration key, whether it is dealt."""
    rest: dict[str, Any] = plain(card) if dataclasses.is_dataclass(card) else {}
    for name in _TOP:
        rest.pop(camel(name), None)
    return {
        "id": card.id,
        "name": card.name,
        "family": card.family,
        "count": card.count,
        "text": getattr(card, "text", None),
        "source": plain(card.source),
        "effect": getattr(card, "effect", None),
        "status": pack.status(catalog, card),
        "dealt": {c.key: pack.is_dealt(catalog, card, c) for c in configurations},
        "fields": rest,
    }


def export(pack: AnyPack, catalog: Any) -> dict[str, Any]:
    """A pack's cards as the export publishes them (``cards.schema.json``)."""
    configurations = pack.configurations(catalog)
    return {
        "format": FORMAT,
        "pack": pack.id,
        "title": pack.title,
        "configurations": [{"key": c.key, "label": c.label, "players": c.players, "rules": dict(c.rules)} for c in configurations],
        "cards": [card_record(pack, catalog, card, configurations) for card in catalog.cards],
    }


def to_json(data: Any) -> str:
    """The one way every file and report here is written: sorted keys, two-space
    indents, UTF-8 text kept as it is, a final newline; equal data, equal bytes."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
