"""Every card of a pack as plain data: what the JSON export publishes and
what the changelog compares.

A record holds the card's own fields and the facts the pack derives for it
(its status, and which configurations deal it), asked of the pack the
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
from dataclasses import dataclass
from typing import Any

from engine.content.source import Source
from engine.pack import AnyPack, CardLike, Configuration
from generator.tableset import table_set

# Bumped when a record changes shape, so a tool can tell what it reads.
FORMAT = 2
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
    """One card, as the changelog compares it: its fields, its status and,
    per configuration key (every configuration the pack lists), whether it is dealt."""
    return {**_facts(pack, catalog, card), "dealt": {c.key: pack.is_dealt(catalog, card, c) for c in configurations}}


def _facts(pack: AnyPack, catalog: Any, card: CardLike) -> dict[str, Any]:
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
        "fields": rest,
    }


def records(pack: AnyPack, catalog: Any) -> dict[str, Any]:
    """A pack's cards with Dealt for every configuration the pack lists, by
    its key: what the changelog compares (the export folds them, ``export``)."""
    configurations = pack.configurations(catalog)
    return {
        "title": pack.title,
        "configurations": [{"key": c.key, "label": c.label, "players": c.players, "rules": dict(c.rules)} for c in configurations],
        "cards": [card_record(pack, catalog, card, configurations) for card in catalog.cards],
    }


@dataclass(frozen=True)
class Dealing:
    """A way of setting the game up as the export lists it: a player count
    and only the house rules that change what is dealt (``configuration``),
    the pack's full configurations it stands for, and, card by card in
    catalog order, whether it deals the card."""

    configuration: Configuration
    stands_for: tuple[Configuration, ...]
    dealt: tuple[bool, ...]


def dealings(pack: AnyPack, catalog: Any) -> list[Dealing]:
    """The pack's configurations with the house rules that never change what
    is dealt left out (one entry standing for every option of them), the
    default first, then in the pack's order. A house rule is left out only
    when no card's Dealt ever turns on it alone; should leaving the rules
    out fold together configurations that deal differently (a pack whose
    configurations are not every combination), none is left out."""
    full = pack.configurations(catalog)
    dealt = {c.key: tuple(pack.is_dealt(catalog, card, c) for card in catalog.cards) for c in full}
    names = list(dict.fromkeys(k for c in full for k in c.rules))
    folded = _fold(full, [k for k in names if _turns_dealing(k, full, dealt)], dealt) or _fold(full, names, dealt)
    assert folded, "every rule kept, no two configurations fold together"
    defaults = pack.house_rules(catalog, {})

    def is_default(one: Dealing) -> bool:
        return one.configuration.players == full[0].players and all(defaults.get(k) == v for k, v in one.configuration.rules.items())

    return sorted(folded, key=lambda one: not is_default(one))


def _turns_dealing(rule: str, full: list[Configuration], dealt: Mapping[str, tuple[bool, ...]]) -> bool:
    """Whether two configurations that differ in ``rule`` alone deal differently."""
    seen: dict[tuple[Any, ...], tuple[bool, ...]] = {}
    for c in full:
        rest = (c.players, tuple(sorted((k, repr(v)) for k, v in c.rules.items() if k != rule)))
        if seen.setdefault(rest, dealt[c.key]) != dealt[c.key]:
            return True
    return False


def _fold(full: list[Configuration], kept: list[str], dealt: Mapping[str, tuple[bool, ...]]) -> list[Dealing]:
    """The configurations with only the ``kept`` rules, in first-seen order,
    each with those it stands for; empty when one would stand for two that deal differently."""
    groups: dict[str, list[Configuration]] = {}
    for c in full:
        folded = Configuration(c.players, {k: c.rules[k] for k in kept if k in c.rules}, "")
        groups.setdefault(folded.key, []).append(c)
    found: list[Dealing] = []
    for members in groups.values():
        if len({dealt[c.key] for c in members}) > 1:
            return []
        first = members[0]
        found.append(Dealing(Configuration(first.players, {k: first.rules[k] for k in kept if k in first.rules}, ""), tuple(members), dealt[first.key]))
    return found


def export(pack: AnyPack, catalog: Any) -> dict[str, Any]:
    """A pack's cards as the export publishes them (``cards.schema.json``):
    the configurations (``dealings``), each listed once and named in the
    words of the site's Dealt headings, and each card with the ids of those
    that deal it."""
    words = table_set(pack.id).configuration_label
    found = dealings(pack, catalog)
    configurations = [
        {"id": d.configuration.key, "label": words(catalog, d.configuration.players, d.configuration.rules), "players": d.configuration.players, "rules": dict(d.configuration.rules)} for d in found
    ]
    cards = [{**_facts(pack, catalog, card), "dealtIn": [d.configuration.key for d in found if d.dealt[index]]} for index, card in enumerate(catalog.cards)]
    return {"format": FORMAT, "pack": pack.id, "title": pack.title, "configurations": configurations, "cards": cards}


def to_json(data: Any) -> str:
    """The one way every file and report here is written: sorted keys, two-space
    indents, UTF-8 text kept as it is, a final newline; equal data, equal bytes."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
