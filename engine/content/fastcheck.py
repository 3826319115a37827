"""A compiled yes/no check for the JSON Schema subset our schemas use.

jsonschema resolves every ``$ref`` through URLs at validation time and spends
~100 us a card; a large deck took seconds. Content is almost always valid, so
the loader first asks this compiled predicate (a few us a card) and only calls
jsonschema, for its detailed errors, on files that fail. A schema keyword this
module does not implement is refused at compile time, so a new keyword can
never be silently skipped; a test checks the two agree on valid and mutated
content.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[Any], bool]
Lookup = Callable[[str, Mapping[str, Any]], tuple[Mapping[str, Any], Mapping[str, Any]]]

_ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description", "default", "examples", "$comment"}
# Every keyword ``Compiler`` understands; a schema file using another is
# refused (by name and place) before it is compiled.
KEYWORDS = frozenset(
    _ANNOTATIONS
    | {"$ref", "type", "enum", "const", "pattern", "uniqueItems", "required", "prefixItems", "items"}
    | {"properties", "additionalProperties", "propertyNames", "allOf", "anyOf", "oneOf", "not"}
    | {"minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "minProperties", "maxProperties"}
)


class UnsupportedSchema(Exception):
    """The schema uses a keyword the fast check cannot compile."""


def _json_eq(a: Any, b: Any) -> bool:
    # JSON equality: true is not 1, and 1 equals 1.0.
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_eq(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_eq(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _is_int(v: Any) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_TYPES: dict[str, Check] = {
    "string": lambda v: isinstance(v, str),
    "integer": _is_int,
    "number": _is_num,
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def compile_schema(schema: Mapping[str, Any], document: Mapping[str, Any], lookup: Lookup) -> Check:
    """A predicate equal to "the value is valid against ``schema``".

    ``lookup(ref, document)`` returns the referenced schema and the document
    it lives in, so local refs inside another file resolve in that file.
    """
    return Compiler(lookup).compile(schema, document)


class Compiler:
    """Compiles schemas into predicates, each sub-schema once: a set of
    schemas sharing definitions (every card's ``source``, say) compiles them
    through one Compiler, not once per file."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        self.cache: dict[tuple[int, int], Check] = {}

    def compile(self, schema: Any, doc: Mapping[str, Any]) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        key = (id(schema), id(doc))
        found = self.cache.get(key)
        if found is None:
            # A schema may reach itself again through a property or an item
            # (a tree of sections, say): while it is being compiled, a repeat
            # visit gets a stand-in that calls the finished check. A loop that
            # never goes into a property or an item is refused before this
            # (engine.content.schemafaults), as it would never end on any value.
            finished: list[Check] = []
            self.cache[key] = lambda v: finished[0](v)
            try:
                found = self._compile(schema, doc)
            except BaseException:
                del self.cache[key]
                raise
            finished.append(found)
            self.cache[key] = found
        return found

    def _compile(self, s: Mapping[str, Any], doc: Mapping[str, Any]) -> Check:
        checks: list[Check] = []
        handled = set(_ANNOTATIONS)

        def use(*keys: str) -> bool:
            handled.update(keys)
            return any(k in s for k in keys)

        if not isinstance(s, Mapping):
            raise UnsupportedSchema(f"a schema must be an object or a boolean, not {type(s).__name__}")
        if use("$ref"):
            target, target_doc = self.lookup(s["$ref"], doc)
            # Through the cache: a definition many schemas refer to compiles once.
            checks.append(self.compile(target, target_doc))
        if use("type"):
            names = [s["type"]] if isinstance(s["type"], str) else list(s["type"])
            if any(n not in _TYPES for n in names):
                raise UnsupportedSchema(f"unknown type in {names}")
            checks.append(_any_of(tuple(_TYPES[n] for n in names)))
        if use("enum"):
            checks.append(_enum(list(s["enum"])))
        if use("const"):
            checks.append(_enum([s["const"]]))
        if use("pattern"):
            checks.append(_pattern(re.compile(s["pattern"])))
        for keyword, kind, measure, bound in _BOUNDS:
            if use(keyword):
                checks.append(_bound(kind, measure, bound, s[keyword]))
        if use("uniqueItems") and s["uniqueItems"]:
            checks.append(_unique)
        if use("required"):
            checks.append(_required(tuple(s["required"])))
        if use("prefixItems", "items"):
            prefix = tuple(self.compile(x, doc) for x in s.get("prefixItems", []))
            rest = self.compile(s["items"], doc) if "items" in s else None
            checks.append(_items(prefix, rest))
        if use("properties", "additionalProperties"):
            props = {k: self.compile(x, doc) for k, x in s.get("properties", {}).items()}
            extra = s.get("additionalProperties", True)
            checks.append(_properties(props, None if extra is True else self.compile(extra, doc)))
        if use("propertyNames"):
            checks.append(_property_names(self.compile(s["propertyNames"], doc)))
        if use("allOf"):
            checks.append(_all_of(tuple(self.compile(x, doc) for x in s["allOf"])))
        if use("anyOf"):
            checks.append(_any_of(tuple(self.compile(x, doc) for x in s["anyOf"])))
        if use("oneOf"):
            checks.append(_one_of(tuple(self.compile(x, doc) for x in s["oneOf"])))
        if use("not"):
            checks.append(_not(self.compile(s["not"], doc)))
        unknown = set(s) - handled
        if unknown:
            raise UnsupportedSchema(f"schema keyword(s) {', '.join(sorted(unknown))} are not supported by the fast check")
        return checks[0] if len(checks) == 1 else _all_of(tuple(checks))


def _always(v: Any) -> bool:
    return True


def _never(v: Any) -> bool:
    return False


def _all_of(checks: tuple[Check, ...]) -> Check:
    def run(v: Any) -> bool:
        for check in checks:
            if not check(v):
                return False
        return True

    return run


def _any_of(checks: tuple[Check, ...]) -> Check:
    if len(checks) == 1:
        return checks[0]
    return lambda v: any(check(v) for check in checks)


def _one_of(checks: tuple[Check, ...]) -> Check:
    return lambda v: sum(1 for check in checks if check(v)) == 1


def _not(check: Check) -> Check:
    return lambda v: not check(v)


def _enum(options: list[Any]) -> Check:
    if all(isinstance(x, str) for x in options):
        words = frozenset(options)
        return lambda v: isinstance(v, str) and v in words
    return lambda v: any(_json_eq(v, x) for x in options)


def _pattern(rx: re.Pattern[str]) -> Check:
    return lambda v: not isinstance(v, str) or rx.search(v) is not None


# keyword, the type it applies to, how to measure the value, which side the bound is on
_BOUNDS: tuple[tuple[str, Check, Callable[[Any], Any], str], ...] = (
    ("minLength", _TYPES["string"], len, "min"),
    ("maxLength", _TYPES["string"], len, "max"),
    ("minimum", _is_num, lambda v: v, "min"),
    ("maximum", _is_num, lambda v: v, "max"),
    ("minItems", _TYPES["array"], len, "min"),
    ("maxItems", _TYPES["array"], len, "max"),
    ("minProperties", _TYPES["object"], len, "min"),
    ("maxProperties", _TYPES["object"], len, "max"),
)


def _bound(kind: Check, measure: Callable[[Any], Any], side: str, limit: Any) -> Check:
    if side == "min":
        return lambda v: not kind(v) or measure(v) >= limit
    return lambda v: not kind(v) or measure(v) <= limit


def _required(keys: tuple[str, ...]) -> Check:
    return lambda v: not isinstance(v, dict) or all(k in v for k in keys)


def _property_names(names: Check) -> Check:
    return lambda v: not isinstance(v, dict) or all(names(k) for k in v)


def _unique(v: Any) -> bool:
    return not isinstance(v, list) or all_distinct(v)


def all_distinct(items: list[Any]) -> bool:
    """Whether no two items are equal as JSON values, in time linear in the
    items' total size.

    Comparing every pair took seconds for a list of a few thousand items.
    Each item becomes a hashable key that is equal exactly when the items
    are equal as JSON (see ``json_key``), and a set finds the repeats.
    """
    if all(type(x) is str for x in items):
        # The common case, a list of words: no key to build.
        return len(set(items)) == len(items)
    seen: set[Any] = set()
    for item in items:
        key = json_key(item)
        if key in seen:
            return False
        seen.add(key)
    return True


def json_key(value: Any) -> Any:
    """A hashable stand-in for a JSON value: two keys are equal exactly when
    ``_json_eq`` says the values are.

    A tag keeps kinds apart (true is not 1, the text '1' is not 1) while a
    number stays a plain Python number, so 1 and 1.0 are one key. A mapping
    becomes a frozenset of its pairs, so key order does not matter. NaN equals
    nothing, itself included, so each NaN gets a key of its own.
    """
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        if value != value:
            return ("nan", object())
        return ("n", value)
    if value is None:
        return ("z",)
    if isinstance(value, list):
        return ("l", tuple(json_key(x) for x in value))
    if isinstance(value, dict):
        return ("d", frozenset((k, json_key(x)) for k, x in value.items()))
    # Not a JSON value (content never holds one): compared as Python does,
    # within its own type, as ``_json_eq`` does.
    try:
        hash(value)
    except TypeError:
        return ("o", object())
    return ("o", type(value), value)


def _items(prefix: tuple[Check, ...], rest: Check | None) -> Check:
    def run(v: Any) -> bool:
        if not isinstance(v, list):
            return True
        for check, item in zip(prefix, v):
            if not check(item):
                return False
        if rest is not None:
            for item in v[len(prefix) :]:
                if not rest(item):
                    return False
        return True

    return run


def _properties(props: dict[str, Check], extra: Check | None) -> Check:
    def run(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        for key, item in v.items():
            check = props.get(key)
            if check is not None:
                if not check(item):
                    return False
            elif extra is not None and not extra(item):
                return False
        return True

    return run
