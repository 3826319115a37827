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

from collections.abc import Callable, Mapping
from typing import Any

from engine.content import patterns

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


# The test each JSON type stands for, written as an expression over a value
# named ``{0}``: JSON's integers include 2.0, and true is no number.
_TYPE_TESTS: dict[str, str] = {
    "string": "isinstance({0}, str)",
    "integer": "((isinstance({0}, int) and not isinstance({0}, bool)) or (isinstance({0}, float) and {0}.is_integer()))",
    "number": "(isinstance({0}, (int, float)) and not isinstance({0}, bool))",
    "boolean": "isinstance({0}, bool)",
    "object": "isinstance({0}, dict)",
    "array": "isinstance({0}, list)",
    "null": "{0} is None",
}

# keyword, the type it applies to, how the value is measured, which side the bound is on
_BOUNDS: tuple[tuple[str, str, str, str], ...] = (
    ("minLength", "string", "len({0})", ">="),
    ("maxLength", "string", "len({0})", "<="),
    ("minimum", "number", "{0}", ">="),
    ("maximum", "number", "{0}", "<="),
    ("minItems", "array", "len({0})", ">="),
    ("maxItems", "array", "len({0})", "<="),
    ("minProperties", "object", "len({0})", ">="),
    ("maxProperties", "object", "len({0})", "<="),
)

# Nesting of generated blocks past which a sub-schema becomes a function of
# its own (Python refuses source indented a hundred levels deep).
_INLINE_DEPTH = 12


def compile_schema(schema: Mapping[str, Any], document: Mapping[str, Any], lookup: Lookup) -> Check:
    """A predicate equal to "the value is valid against ``schema``".

    ``lookup(ref, document)`` returns the referenced schema and the document
    it lives in, so local refs inside another file resolve in that file.
    """
    return Compiler(lookup).compile(schema, document)


class Compiler:
    """Compiles schemas into predicates, each sub-schema once: a set of
    schemas sharing definitions (every card's ``source``, say) compiles them
    through one Compiler, not once per file.

    A schema becomes the source of a Python function that tests a value
    keyword by keyword and returns False at the first failure, each
    sub-schema's tests written into its parent's function (a card's fields
    into the loop over the cards) rather than called: a tree of one small
    function per keyword cost a call per keyword and value, over five
    million calls and most of a second for 100,000 cards. Only a sub-schema
    whose verdict is needed as a value (``anyOf``, ``oneOf``, ``not``), one
    that reaches itself again (a tree of sections, say) or one nested very
    deep is a function of its own, called.
    """

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        # The generated function's name of each sub-schema that has one,
        # by the identity of the schema and of the document it is in.
        self.names: dict[tuple[int, int], str] = {}
        # What the generated source refers to by name: its helpers, then the
        # constants (key sets, patterns, bounds) each schema needs.
        self.namespace: dict[str, Any] = {"_MISSING": _MISSING, "_json_eq": _json_eq, "_enum_has": _enum_has, "all_distinct": all_distinct}
        self._source: list[str] = []
        self._count = 0

    def compile(self, schema: Any, doc: Mapping[str, Any]) -> Check:
        known = dict(self.names)
        try:
            name = self._function(schema, doc)
            if self._source:
                exec(compile("\n".join(self._source), "<compiled schema>", "exec"), self.namespace)  # noqa: S102 - source made here from schema keywords, constants by name
        except BaseException:
            self.names = known
            raise
        finally:
            self._source = []
        check: Check = self.namespace[name]
        return check

    def _fresh(self, stem: str) -> str:
        self._count += 1
        return f"{stem}{self._count}"

    def _constant(self, value: Any) -> str:
        name = self._fresh("c")
        self.namespace[name] = value
        return name

    def _function(self, schema: Any, doc: Mapping[str, Any]) -> str:
        """The name of the generated function testing ``schema``, writing
        its source (and that of any function it calls) when it has none."""
        key = (id(schema), id(doc))
        found = self.names.get(key)
        if found is not None:
            return found
        name = self._fresh("f")
        # Named before its body is written: a schema that reaches itself
        # again calls the function being written.
        self.names[key] = name
        body = self._emit(schema, doc, "v", 1, frozenset())
        self._source.append("\n".join([f"def {name}(v):", *body, "    return True", ""]))
        return name

    def _emit(self, schema: Any, doc: Mapping[str, Any], x: str, depth: int, inlining: frozenset[tuple[int, int]]) -> list[str]:
        """Source lines, indented ``depth`` levels, that return False when
        the value named ``x`` fails ``schema`` (and fall through when it passes)."""
        pad = "    " * depth
        if schema is True:
            return []
        if schema is False:
            return [f"{pad}return False"]
        key = (id(schema), id(doc))
        if key in inlining or depth > _INLINE_DEPTH:
            return [f"{pad}if not {self._function(schema, doc)}({x}):", f"{pad}    return False"]
        if not isinstance(schema, Mapping):
            raise UnsupportedSchema(f"a schema must be an object or a boolean, not {type(schema).__name__}")
        s = schema
        inner = inlining | {key}
        lines: list[str] = []
        # Tests that need no block of their own, joined into one ``if`` in
        # the order the keywords come (``and`` stops at the first failure).
        tests: list[str] = []
        handled = set(_ANNOTATIONS)
        # The one JSON type this schema has already required of the value,
        # if any: a keyword's own "applies only to ..." guard is then left out.
        known: str | None = None

        def use(*keys: str) -> bool:
            handled.update(keys)
            return any(k in s for k in keys)

        def sub(part: Any, part_doc: Mapping[str, Any], y: str, level: int) -> list[str]:
            return self._emit(part, part_doc, y, level, inner)

        def flush() -> None:
            if tests:
                joined = " and ".join(f"({t})" for t in tests) if len(tests) > 1 else tests[0]
                lines.extend((f"{pad}if not ({joined}):", f"{pad}    return False"))
                tests.clear()

        def applies(kind: str, test: str) -> None:
            """Require ``test`` of the value when it is of JSON type ``kind``."""
            tests.append(test if _implies(known, kind) else f"not {_TYPE_TESTS[kind].format(x)} or {test}")

        def within(kind: str, body: list[str]) -> None:
            # ``body`` is written one level in, to run only for a value of
            # type ``kind``; a body that tests nothing is left out whole.
            if not body:
                return
            flush()
            if _implies(known, kind):
                lines.extend(line[4:] for line in body)
            else:
                lines.append(f"{pad}if {_TYPE_TESTS[kind].format(x)}:")
                lines.extend(body)

        if use("$ref"):
            target, target_doc = self.lookup(s["$ref"], doc)
            lines.extend(sub(target, target_doc, x, depth))
        if use("type"):
            names = [s["type"]] if isinstance(s["type"], str) else list(s["type"])
            if any(n not in _TYPE_TESTS for n in names):
                raise UnsupportedSchema(f"unknown type in {names}")
            tests.append(" or ".join(_TYPE_TESTS[n].format(x) for n in names) or "False")
            known = names[0] if len(names) == 1 else None
        if use("enum"):
            tests.append(self._enum(list(s["enum"]), x))
        if use("const"):
            tests.append(self._enum([s["const"]], x))
        if use("pattern"):
            applies("string", f"{self._constant(patterns.searcher(s['pattern']))}({x}) is not None")
        for keyword, kind, measure, side in _BOUNDS:
            if use(keyword):
                # Written "not (a >= b)", never "a < b": NaN fails both.
                applies(kind, f"{measure.format(x)} {side} {self._constant(s[keyword])}")
        if use("uniqueItems") and s["uniqueItems"]:
            applies("array", f"all_distinct({x})")
        if use("required"):
            required = tuple(s["required"])
            if all(isinstance(k, str) for k in required):
                applies("object", f"{x}.keys() >= {self._constant(frozenset(required))}")
            else:
                applies("object", f"all(k in {x} for k in {self._constant(required)})")
        if use("prefixItems", "items"):
            body: list[str] = []
            prefix = list(s.get("prefixItems", []))
            for at, part in enumerate(prefix):
                y = self._fresh("v")
                checks = sub(part, doc, y, depth + 2)
                if checks:
                    body.extend((f"{pad}    if len({x}) > {at}:", f"{pad}        {y} = {x}[{at}]", *checks))
            if "items" in s:
                y = self._fresh("v")
                checks = sub(s["items"], doc, y, depth + 2)
                if checks:
                    body.append(f"{pad}    for {y} in {x}[{len(prefix)}:]:" if prefix else f"{pad}    for {y} in {x}:")
                    body.extend(checks)
            within("array", body)
        if use("properties", "additionalProperties"):
            props = dict(s.get("properties", {}))
            extra = s.get("additionalProperties", True)
            body = []
            if extra is False:
                body.extend((f"{pad}    if not ({x}.keys() <= {self._constant(frozenset(props))}):", f"{pad}        return False"))
            elif extra is not True:
                k, y = self._fresh("k"), self._fresh("v")
                checks = sub(extra, doc, y, depth + 3)
                if checks:
                    body.extend((f"{pad}    for {k}, {y} in {x}.items():", f"{pad}        if {k} not in {self._constant(frozenset(props))}:", *checks))
            for prop, part in props.items():
                y = self._fresh("v")
                checks = sub(part, doc, y, depth + 2)
                if checks:
                    body.extend((f"{pad}    {y} = {x}.get({prop!r}, _MISSING)", f"{pad}    if {y} is not _MISSING:", *checks))
            within("object", body)
        if use("propertyNames"):
            y = self._fresh("v")
            checks = sub(s["propertyNames"], doc, y, depth + 2)
            within("object", [f"{pad}    for {y} in {x}:", *checks] if checks else [])
        if use("allOf"):
            for part in s["allOf"]:
                flush()
                lines.extend(sub(part, doc, x, depth))
        if use("anyOf"):
            tests.append(" or ".join(f"{self._function(part, doc)}({x})" for part in s["anyOf"]) or "False")
        if use("oneOf"):
            tests.append(" + ".join(f"(1 if {self._function(part, doc)}({x}) else 0)" for part in s["oneOf"]) + " == 1" if s["oneOf"] else "False")
        if use("not"):
            tests.append(f"not {self._function(s['not'], doc)}({x})")
        unknown = set(s) - handled
        if unknown:
            raise UnsupportedSchema(f"schema keyword(s) {', '.join(sorted(unknown))} are not supported by the fast check")
        flush()
        return lines

    def _enum(self, options: list[Any], x: str) -> str:
        if all(isinstance(o, str) for o in options):
            return f"isinstance({x}, str) and {x} in {self._constant(frozenset(options))}"
        return f"_enum_has({x}, {self._constant(options)})"


def _implies(known: str | None, kind: str) -> bool:
    """Whether a value of JSON type ``known`` is always of type ``kind``."""
    return known == kind or (known == "integer" and kind == "number")


# What ``dict.get`` gives for a key the value does not hold (None is a value).
_MISSING = object()


def _enum_has(v: Any, options: list[Any]) -> bool:
    return any(_json_eq(v, o) for o in options)


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
