"""The compiled fast check must agree with jsonschema on every value.

The loader trusts the fast check's "valid" and only asks jsonschema to explain
failures, so any disagreement would either hide a content error or report a
file as broken with no explanation. Hypothesis mutates real cards and compares.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content.fastcheck import UnsupportedSchema, compile_schema
from engine.content.schemas import SchemaSet
from tests.kit.project import PROJECT_ROOT

CONTENT = PROJECT_ROOT / "content" / "stationmaster"
SCHEMAS = SchemaSet(CONTENT / "schema")


def _documents() -> dict[str, Any]:
    docs: dict[str, Any] = {}
    for path in sorted(CONTENT.rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        family = first.rsplit("/", 1)[-1].removesuffix(".schema.json")
        docs[family] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return docs


DOCS = _documents()
FAMILIES = sorted(DOCS)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=100),
    st.sampled_from([0, 1, 2.0, 2.5, 30, 60, 99999, -1]),
    st.sampled_from(["", "x", "yes", "fast", "slow", "W", "NE", "coach", "reefer", "inbound", "Bad Id", "plains", "x" * 700]),
    st.text(max_size=8),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, prefix + (i,))
    return found


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, Any]:
    family = draw(st.sampled_from(FAMILIES))
    doc = copy.deepcopy(DOCS[family])
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if not path:
            if action == "replace":
                doc = draw(values)
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if action == "replace":
            parent[last] = draw(values)
        elif action == "delete":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(values)
        else:
            parent.insert(last, draw(values))
    return family, doc


@pytest.mark.parametrize("family", FAMILIES)
def test_shipped_content_is_valid_for_both(family: str) -> None:
    assert SCHEMAS.fast(family)(DOCS[family])
    assert SCHEMAS.validator(family).is_valid(DOCS[family])


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_fast_check_agrees_with_jsonschema(case: tuple[str, Any]) -> None:
    family, doc = case
    assert SCHEMAS.fast(family)(doc) == SCHEMAS.validator(family).is_valid(doc)


def test_unknown_keyword_is_refused_not_skipped() -> None:
    with pytest.raises(UnsupportedSchema):
        compile_schema({"type": "object", "patternProperties": {"^x": {}}}, {}, SCHEMAS._lookup)


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"enum": [1]}, True, False),  # JSON: true is not 1
        ({"const": True}, 1, False),
        ({"type": "integer"}, 2.0, True),
        ({"type": "integer"}, False, False),
        ({"uniqueItems": True}, [1, True], True),
        ({"uniqueItems": True}, [1, 1.0], False),
        ({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}, ["a", 1, 2], True),
        ({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}, ["a", "b"], False),
        ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 3, False),
        ({"propertyNames": {"enum": ["a"]}}, {"b": 1}, False),
    ],
)
def test_json_schema_semantics(schema: dict[str, Any], value: Any, expected: bool) -> None:
    assert compile_schema(schema, schema, SCHEMAS._lookup)(value) is expected
