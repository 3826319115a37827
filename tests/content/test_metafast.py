"""The quick metaschema check (``engine.content.metafast``) only ever says
"passes" for a schema jsonschema's draft 2020-12 metaschema passes: the
schema faults are worded by jsonschema, and the quick check may only spare
it the files it would find nothing in. Hypothesis damages the shipped
schemas (values replaced, keywords added with values of every kind) and
compares."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from engine.content import metafast
from tests.kit.project import PROJECT_ROOT

SCHEMAS = sorted((PROJECT_ROOT / "content").glob("*/schema/*.schema.json"))
DOCS = [json.loads(path.read_text(encoding="utf-8")) for path in SCHEMAS]
META = Draft202012Validator(Draft202012Validator.META_SCHEMA)
KEYWORDS = [
    "type",
    "enum",
    "const",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "multipleOf",
    "items",
    "prefixItems",
    "properties",
    "additionalProperties",
    "required",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "$ref",
    "$id",
    "$anchor",
    "$defs",
    "definitions",
    "dependencies",
    "format",
    "deprecated",
    "$vocabulary",
    "$comment",
    "uniqueItems",
    "contentSchema",
    "dependentRequired",
    "$dynamicRef",
    "title",
    "examples",
    "$schema",
    "unknownWord",
]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.5, -1.5, 2.0]), st.sampled_from(["", "string", "object", "x#y", "#/$defs/a", "a b", "(", "1x"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYWORDS), inner, max_size=3), max_leaves=6)


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _places(item, path + (index,))
    return found


@st.composite
def damaged(draw: st.DrawFn) -> Any:
    doc = copy.deepcopy(draw(st.sampled_from(DOCS)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_places(doc)))
        if not path:
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        if draw(st.booleans()) or not isinstance(parent, dict):
            parent[path[-1]] = draw(values)
        else:
            parent[draw(st.sampled_from(KEYWORDS))] = draw(values)
    return doc


@pytest.mark.parametrize("index", range(len(SCHEMAS)), ids=[p.parent.parent.name + "/" + p.name for p in SCHEMAS])
def test_the_shipped_schemas_pass_quickly(index: int) -> None:
    assert metafast.passes(DOCS[index])


@settings(max_examples=500, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_a_quick_pass_is_a_pass_by_jsonschema(doc: Any) -> None:
    if metafast.passes(doc):
        assert META.is_valid(doc), json.dumps(doc)[:2000]
