"""Which fields of a pack's files name a record, read from the pack's own
schemas: nothing here names a game, a family or a field.

A schema marks an id by ``$ref`` to a shared definition whose name is ``id``
or ends in ``Id`` (``effectId``, ``editionId``, ``companyId``): the name says
which kind of record is meant (``effect``, ``edition``, ``company``; plain
``id`` is a card or any other record). A field ``id`` holding one declares
the record it sits in; any other field holding one refers to a record. The
keys of a mapping are ids when its ``propertyNames`` say so: they declare
records when the values are records (editions under their ids), and refer
when the values are ids too (a map from one card to another).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.content.schemafaults import resolve_pointer

# The field that declares the record it sits in.
ID_FIELD = "id"
# How deep one file's shape is followed: content files are shallow, and a
# schema's $ref may lead in a loop.
_DEPTH = 24


@dataclass
class Shape:
    """What one place of a file holds, as far as ids go."""

    props: dict[str, Shape] = field(default_factory=dict)
    any_value: Shape | None = None  # the value under a key not in props
    items: Shape | None = None
    kind: str | None = None  # the kind of record an id here names
    pattern: str | None = None  # what such an id must look like
    key_kind: str | None = None  # the kind an id used as a key here names
    keys_declare: bool = False  # those keys declare records (not refer to them)

    def child(self, key: str) -> Shape | None:
        return self.props.get(key, self.any_value)

    def empty(self) -> bool:
        return not self.props and self.any_value is None and self.items is None and self.kind is None and self.key_kind is None


def kind_of_definition(name: str) -> str | None:
    """The kind of record a shared definition's ids name: '' for ``id``,
    ``effect`` for ``effectId``; None for a definition that is no id."""
    if name == ID_FIELD:
        return ""
    if name.endswith("Id") and len(name) > 2:
        return name[:-2]
    return None


def shapes(raw: Mapping[str, Any], families: list[str]) -> dict[str, Shape]:
    """The shape of every family's files, from the raw schemas (``SchemaSet.raw``)."""
    return {family: _shape(raw[family], family, raw, 0) for family in families if family in raw}


def _shape(schema: Any, family: str, raw: Mapping[str, Any], depth: int) -> Shape:
    found = Shape()
    if not isinstance(schema, dict) or depth > _DEPTH:
        return found
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = resolve_pointer(ref, family, raw)
        if not isinstance(target, str):
            target_family, pointer, body = target
            name = pointer[-1] if len(pointer) >= 2 and pointer[-2] == "$defs" and isinstance(pointer[-1], str) else None
            kind = kind_of_definition(name) if name is not None else None
            inner = _shape(body, target_family, raw, depth + 1)
            if kind is not None:  # the outermost definition names the kind
                inner.kind = kind
                inner.pattern = inner.pattern or _pattern(body, target_family, raw, depth + 1)
            _merge(found, inner)
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in schema.get(key, ()) if isinstance(schema.get(key), list) else ():
            _merge(found, _shape(branch, family, raw, depth + 1))
    for key in ("then", "else"):
        if isinstance(schema.get(key), dict):
            _merge(found, _shape(schema[key], family, raw, depth + 1))
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            child = _shape(sub, family, raw, depth + 1)
            if not child.empty():
                _merge(found.props.setdefault(name, Shape()), child)
    for key in ("additionalProperties", "unevaluatedProperties"):
        if isinstance(schema.get(key), dict):
            child = _shape(schema[key], family, raw, depth + 1)
            if not child.empty():
                found.any_value = _merge(found.any_value or Shape(), child)
    pattern_props = schema.get("patternProperties")
    if isinstance(pattern_props, dict):
        for sub in pattern_props.values():
            child = _shape(sub, family, raw, depth + 1)
            if not child.empty():
                found.any_value = _merge(found.any_value or Shape(), child)
    for key in ("items", "prefixItems"):
        value = schema.get(key)
        for sub in value if isinstance(value, list) else [value] if isinstance(value, dict) else []:
            child = _shape(sub, family, raw, depth + 1)
            if not child.empty():
                found.items = _merge(found.items or Shape(), child)
    names = schema.get("propertyNames")
    if isinstance(names, dict):
        keys = _shape(names, family, raw, depth + 1)
        values = schema.get("additionalProperties")
        if keys.kind is not None:
            found.key_kind = keys.kind
            found.pattern = found.pattern or keys.pattern
            # A map of records declares them under their ids; a map whose
            # values are ids too maps one record to another.
            found.keys_declare = found.any_value is None or found.any_value.kind is None
        elif isinstance(names.get("pattern"), str) and isinstance(values, dict) and values.get("type") == "object":
            # Keys held to a pattern over a map of records: ids too, of no
            # named kind.
            found.key_kind, found.keys_declare, found.pattern = "", True, names["pattern"]
    return found


def _pattern(schema: Any, family: str, raw: Mapping[str, Any], depth: int) -> str | None:
    """The ``pattern`` an id definition holds, following its own $ref."""
    if not isinstance(schema, dict) or depth > _DEPTH:
        return None
    if isinstance(schema.get("pattern"), str):
        return str(schema["pattern"])
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = resolve_pointer(ref, family, raw)
        if not isinstance(target, str):
            return _pattern(target[2], target[0], raw, depth + 1)
    return None


def _merge(into: Shape, other: Shape) -> Shape:
    for name, sub in other.props.items():
        _merge(into.props.setdefault(name, Shape()), sub)
    if other.any_value is not None:
        into.any_value = _merge(into.any_value or Shape(), other.any_value)
    if other.items is not None:
        into.items = _merge(into.items or Shape(), other.items)
    into.kind = into.kind if into.kind is not None else other.kind
    into.pattern = into.pattern or other.pattern
    if other.key_kind is not None and into.key_kind is None:
        into.key_kind, into.keys_declare = other.key_kind, other.keys_declare
    return into


def reference_fields(shape: Shape) -> Iterator[tuple[str, str, bool]]:
    """(field name, kind, whether the ids are the field's keys) for every
    field of a file's shape that refers to records: what completion offers
    ids for while a designer types under that field."""
    for name, sub in shape.props.items():
        yield from _refs_under(name, sub)
        yield from reference_fields(sub)
    for nested in (shape.any_value, shape.items):
        if nested is not None:
            yield from reference_fields(nested)


def _refs_under(name: str, sub: Shape) -> Iterator[tuple[str, str, bool]]:
    if name == ID_FIELD:
        return
    if sub.kind is not None:
        yield name, sub.kind, False
    if sub.items is not None and sub.items.kind is not None:
        yield name, sub.items.kind, False
    if sub.key_kind is not None and not sub.keys_declare:
        yield name, sub.key_kind, True


def declared_kind(family: str, kinds: set[str]) -> str:
    """The kind of record a family's ``id`` fields declare: the kind the
    family is named for (``effects`` holds ``effect`` records,
    ``companies`` ``company`` ones), else '' (cards and other records)."""
    for kind in kinds:
        if kind and family in (kind + "s", kind + "es", kind[:-1] + "ies"):
            return kind
    return ""
