"""The repeat check on lists (``uniqueItems``) is linear in the list's length
and gives exactly the verdicts of JSON equality.

It compared every pair of items, in the fast check and again in jsonschema
(which sorts only lists it can sort, and compares pairs of anything else): a
list of 10,000 items took 20 s to validate. Speed is measured by
``bench/list_speed.py``; here the count of pairwise comparisons stands in for
time, so nothing is timed. Hypothesis checks the fast verdict against the
pairwise definition.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import _utils

from engine.content import fastcheck, jsonpos
from engine.content.fastcheck import _json_eq, _unique
from engine.content.schemas import SchemaSet
from tests.kit.project import PROJECT_ROOT

CONTENT = PROJECT_ROOT / "content" / "stationmaster"
N = 2_000


def pairwise_unique(items: list[Any]) -> bool:
    """The definition: no two items equal as JSON values."""
    return all(not _json_eq(items[i], items[j]) for i in range(len(items)) for j in range(i + 1, len(items)))


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=3),
    st.sampled_from([0.0, 1.0, -0.0, 2.5, math.inf, math.nan, 2**53 + 1, float(2**53)]),
    st.sampled_from(["", "a", "1", "true", "null"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b", "1"]), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=600, deadline=None)
@given(st.lists(json_values, max_size=6))
def test_fast_unique_agrees_with_the_pairwise_definition(items: list[Any]) -> None:
    assert _unique(items) == pairwise_unique(items)


@settings(max_examples=200, deadline=None)
@given(st.lists(json_values, min_size=1, max_size=4), st.data())
def test_a_list_with_an_item_repeated_is_not_unique(items: list[Any], data: st.DataObject) -> None:
    # A repeat made by copying an item (an equal value, not the same
    # object), unless the item holds NaN, which equals nothing.
    import copy

    item = data.draw(st.sampled_from(items))
    assert _unique(items + [copy.deepcopy(item)]) == pairwise_unique(items + [copy.deepcopy(item)])


@pytest.mark.parametrize(
    ("items", "unique"),
    [
        ([1, 1.0], False),  # one number, however written
        ([True, 1], True),  # true is not 1
        ([False, 0, None, "", [], {}], True),
        ([{"a": 1, "b": [1, 2]}, {"b": [1.0, 2], "a": 1}], False),  # key order does not matter
        ([[1, [2, [3]]], [1, [2, [3.0]]]], False),  # nested lists
        ([[1, 2], [2, 1]], True),  # list order does
        ([[True], [1]], True),
        ([[1], [True], [1]], False),  # jsonschema's sort put [True] between the two [1]s
        ([math.nan, math.nan], True),  # NaN equals nothing
        (["a", "a"], False),
        ([], True),
    ],
)
def test_json_equality_cases(items: list[Any], unique: bool) -> None:
    assert pairwise_unique(items) == unique
    assert _unique(items) == unique
    assert fastcheck.all_distinct(items) == unique


def _count_calls(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls = [0]
    original = getattr(owner, name)

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)

    monkeypatch.setattr(owner, name, counted)
    return calls


@pytest.mark.parametrize("kind", ["words", "mappings", "mixed"])
def test_the_fast_check_does_not_compare_every_pair(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    made: dict[str, list[Any]] = {
        "words": [f"car-{i}" for i in range(N)],
        "mappings": [{"car": i} for i in range(N)],
        "mixed": [i if i % 2 else str(i) for i in range(N)],
    }
    items = made[kind]
    calls = _count_calls(monkeypatch, fastcheck, "_json_eq")
    assert _unique(items)
    # Pairwise, this was N * (N - 1) / 2, about two million comparisons.
    assert calls[0] <= N


@pytest.mark.parametrize("kind", ["mappings", "mixed"])
def test_jsonschema_explaining_a_failure_does_not_compare_every_pair(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """A file that fails the fast check is explained by jsonschema, whose
    uniqueItems compared every pair of items it could not sort."""
    schemas = SchemaSet(CONTENT / "schema")
    items: list[Any] = [{"car": i} for i in range(N)] if kind == "mappings" else [i if i % 2 else str(i) for i in range(N)]
    facility = {"id": "x", "name": "X", "count": 1, "commodity": "coal", "carTypes": items, "traffic": "inbound", "inboundBoxes": 1, "outboundBoxes": 0, "source": "homeDeck-0.8.6"}
    calls = _count_calls(monkeypatch, _utils, "equal")
    issues = schemas.check("facilities", {"cards": [facility]})
    assert issues  # the items are not car types
    assert all("repeats an item" not in issue.message for issue in issues)
    assert calls[0] <= N


def test_jsonschema_reports_a_repeat_the_fast_check_finds() -> None:
    schemas = SchemaSet(CONTENT / "schema")
    facility = {
        "id": "x",
        "name": "X",
        "count": 1,
        "commodity": "coal",
        "carTypes": ["hopper", "boxcar", "hopper"],
        "traffic": "inbound",
        "inboundBoxes": 1,
        "outboundBoxes": 0,
        "source": "homeDeck-0.8.6",
    }
    issues = schemas.check("facilities", {"cards": [facility]})
    assert [i.message for i in issues if i.pointer == ("cards", 0, "carTypes")] == ["the list repeats an item; list each once"]


def test_jsonschema_and_the_fast_check_agree_on_a_repeat_sorting_hid() -> None:
    """jsonschema sorted a sortable list and compared neighbours, but sorting
    treats true as 1, so [1], [true], [1] kept the two [1]s apart: the fast
    check said "repeat", jsonschema found none, and the file failed with no
    word on why. Both now use one test."""
    schemas = SchemaSet(CONTENT / "schema")
    facility = {"id": "x", "name": "X", "count": 1, "commodity": "coal", "carTypes": [[1], [True], [1]], "traffic": "inbound", "inboundBoxes": 1, "outboundBoxes": 0, "source": "homeDeck-0.8.6"}
    issues = schemas.check("facilities", {"cards": [facility]})
    assert "the list repeats an item; list each once" in [i.message for i in issues if i.pointer == ("cards", 0, "carTypes")]


class _CountingList(list[Any]):
    """A list that counts the items handed out by iterating it."""

    handed = 0

    def __iter__(self) -> Any:
        for item in super().__iter__():
            _CountingList.handed += 1
            yield item


def test_locating_a_problem_under_each_of_many_keys_reads_the_mapping_once() -> None:
    """A mapping with a problem under every one of its keys (unknown keys, say)
    was scanned from the top once per problem: quadratic in its size."""
    from yaml.nodes import MappingNode

    from engine.content.yamlread import locate, read_yaml

    document = read_yaml("restrictions:\n" + "".join(f"  key{i}: {i}\n" for i in range(N)))
    assert isinstance(document.root, MappingNode)
    mapping = document.root.value[0][1]
    mapping.value = _CountingList(mapping.value)
    _CountingList.handed = 0
    for i in range(N):
        assert locate(document.root, ("restrictions", f"key{i}"), key=True) == (i + 2, 3)
    assert _CountingList.handed <= 2 * N


class _Reads:
    """A compiled pattern that adds up how much text its searches and
    matches could have read (from where each starts to where it ends, or to
    the end of the text when nothing is found)."""

    def __init__(self, pattern: re.Pattern[str], tally: list[int]) -> None:
        self.pattern, self.tally = pattern, tally

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        found = self.pattern.search(text, pos)
        self.tally[0] += (found.end() if found else len(text)) - pos
        return found

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        found = self.pattern.match(text, pos)
        self.tally[0] += (found.end() if found else len(text)) - pos
        return found


@pytest.mark.parametrize(
    "text",
    [
        '{"description": "' + '\\"' * N + "\n}\n",
        '{"a": "' + '\\"' * N + '", "b": [' + "[]," * N + "[]]}",
        '{"a": ' + '"x", ' * N + '"' + '"[' * N,
    ],
    ids=["never-closed-escaped-quotes", "closed-then-brackets", "many-strings-then-quotes"],
)
def test_the_schema_hazard_scan_reads_each_character_about_once(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A never-closed string full of escaped quotes made the scan start again
    # from every quote and read on to the end: a 120 KB schema took a minute
    # (bench figures in the commit). Text read stands in for time.
    tally = [0]
    monkeypatch.setattr(jsonpos, "_HAZARD", _Reads(jsonpos._HAZARD, tally))
    monkeypatch.setattr(jsonpos, "_STRING_REST", _Reads(jsonpos._STRING_REST, tally), raising=False)
    jsonpos.first_hazard(text, 64)
    assert tally[0] <= 2 * len(text)


_CONSTANT = re.compile(r"-?\bInfinity\b|\bNaN\b")


def _hazard_by_hand(text: str, max_depth: int) -> int | None:
    """The offset ``first_hazard`` should give, found one character at a
    time; nothing after a string that is never closed is read."""
    depth, at, inside = 0, 0, False
    while at < len(text):
        char = text[at]
        if inside:
            if char == "\\":
                at += 1
            elif char == '"':
                inside = False
        elif char == '"':
            inside = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                return at
        elif char in "]}":
            depth -= 1
        elif _CONSTANT.match(text, at):
            return at
        at += 1
    return None


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet='"\\[]{}aN -Infinity', max_size=40))
def test_the_schema_hazard_scan_agrees_with_a_walk_by_hand(text: str) -> None:
    found = jsonpos.first_hazard(text, 3)
    assert (found.offset if found else None) == _hazard_by_hand(text, 3)
