"""A quick yes to "this schema passes the draft 2020-12 metaschema".

Every pack's schema files are checked against the metaschema on every run
(no verdict is kept from one run to the next).
jsonschema does that well but slowly: importing it and following the
metaschema's dynamic references cost about 0.2 CPU-s for a pack of 17
files, more than reading and checking all of its content, and most of what
the MkDocs plugin added to a site build.

Here the metaschema itself (the very files jsonschema reads, from the
``jsonschema_specifications`` package, found without importing it) is
compiled by the fast check (``engine.content.fastcheck``) once per process.
It only ever answers "passes" for a schema jsonschema passes too: each
``$dynamicRef: "#meta"`` is a ``$ref`` to the metaschema's root (where a
schema is checked against the metaschema itself, that is where jsonschema
resolves it), the keywords that only annotate in draft 2020-12 (``format``
among them) are left out as jsonschema leaves them out, and
``exclusiveMinimum`` is written with keywords the fast check knows. When the
answer is anything but "passes", or the metaschema cannot be found or
compiled, the caller asks jsonschema, which words every fault as before.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

from engine.content.fastcheck import Check, Compiler, UnsupportedSchema

ROOT_ID = "https://json-schema.org/draft/2020-12/schema"
_VOCABULARIES = ("core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "content")
# Keywords that only annotate under the 2020-12 metaschema's vocabularies
# as jsonschema applies them (no format checker is given to it).
_ANNOTATING = frozenset({"$vocabulary", "$dynamicAnchor", "format", "deprecated", "readOnly", "writeOnly"})
# Keywords whose value maps names to schemas; and those whose value is a
# schema, or a list of schemas.
_SCHEMA_MAPS = ("properties", "$defs", "patternProperties", "dependentSchemas")
_SCHEMA_ONE = ("items", "additionalProperties", "propertyNames", "not", "contains", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")


def passes(schema: Any) -> bool:
    """True only when ``schema`` certainly passes the 2020-12 metaschema;
    False when it may not (jsonschema then decides and words the faults)."""
    check = _compiled()
    if check is None:
        return False
    try:
        return check(schema)
    except RecursionError:  # a schema nested past the stack: let jsonschema say so
        return False


@functools.cache
def _compiled() -> Check | None:
    documents = _documents()
    if documents is None:
        return None

    def lookup(ref: str, document: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
        address, fragment = urldefrag(urljoin(str(document["$id"]), ref))
        target: Any = documents[address]
        for step in (s for s in fragment.split("/")[1:] if fragment):
            target = target[step.replace("~1", "/").replace("~0", "~")]
        return target, documents[address]

    root = documents[ROOT_ID]
    try:
        return Compiler(lookup).compile(root, root)
    except (UnsupportedSchema, KeyError, TypeError, RecursionError):
        return None


def _documents() -> dict[str, dict[str, Any]] | None:
    """The metaschema and its vocabularies, by ``$id``, made fit for the fast
    check; None when they cannot be read as expected."""
    spec = importlib.util.find_spec("jsonschema_specifications")
    folders = spec.submodule_search_locations if spec is not None else None
    if not folders:
        return None
    base = Path(next(iter(folders))) / "schemas" / "draft202012"
    paths = [base / "metaschema.json", *(base / "vocabularies" / name for name in _VOCABULARIES)]
    documents: dict[str, dict[str, Any]] = {}
    try:
        for path in paths:
            raw = json.loads(path.read_text(encoding="utf-8"))
            documents[raw["$id"]] = _fit(raw)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return documents if ROOT_ID in documents else None


def _fit(schema: Any) -> Any:
    """``schema`` (a metaschema part) as the fast check can compile it."""
    if not isinstance(schema, dict):
        return schema
    fitted: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ANNOTATING:
            continue
        if key == "$dynamicRef":
            if value != "#meta":
                raise KeyError(key)  # no other dynamic anchor is known here
            fitted["$ref"] = ROOT_ID
        elif key == "exclusiveMinimum":
            # Fails exactly a number at or below the bound.
            fitted.setdefault("allOf", []).append({"not": {"type": "number", "maximum": value}})
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            fitted[key] = {name: _fit(part) for name, part in value.items()}
        elif key in _SCHEMA_ONE:
            fitted[key] = _fit(value)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            fitted.setdefault(key, []).extend(_fit(part) for part in value)
        else:
            fitted[key] = value
    if "$ref" in schema and "$dynamicRef" in schema:
        raise KeyError("$ref")  # both would have to hold: not met in the metaschema
    return fitted
