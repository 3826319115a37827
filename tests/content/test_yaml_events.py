"""The event reader (``yamlread._EventReader``) and the full reader agree.

A file is read straight from the parser's events when its YAML is plainly
right, and by way of the node tree (which places every problem) otherwise.
Whatever the event reader returns must be exactly what the full reader
returns for the same text, with no problem: the same values of the same
types, aliased collections shared the same way. And for any text it does
not accept, the full reader decides. Hypothesis writes YAML from pieces that
hit each rule: tags, anchors and aliases (loops and bombs among them),
repeated keys, keys that are no plain word, YAML 1.1 words, numbers far too
long, NaN, deep nesting, several documents, syntax errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content import yamlread
from engine.content.yamlread import YamlReadError, read_with_nodes
from tests.kit.project import PROJECT_ROOT

CONTENT = PROJECT_ROOT / "content"

pytestmark = pytest.mark.skipif(not yamlread.HAVE_LIBYAML, reason="the event reader needs libyaml")


def _shape(value: Any, seen: dict[int, int]) -> Any:
    """``value`` with each type spelt out (True is not 1) and each
    collection met again named by when it was first met (aliases share)."""
    if isinstance(value, (dict, list)):
        if id(value) in seen:
            return ("again", seen[id(value)])
        seen[id(value)] = len(seen)
        if isinstance(value, dict):
            return ("map", [(k, _shape(v, seen)) for k, v in value.items()])
        return ("seq", [_shape(v, seen) for v in value])
    return (type(value).__name__, value)


def _agree(text: str) -> bool:
    """Assert the readers agree on ``text``; whether the event reader took it."""
    fast = yamlread._EventReader(text).read()
    if fast is None:
        return False
    try:
        full = read_with_nodes(text)
    except YamlReadError as exc:
        raise AssertionError(f"the event reader accepted what the full reader refuses: {exc.issues}\n{text}") from None
    value, whole = fast
    assert whole == (full.root is not None), text
    assert _shape(value, {}) == _shape(full.value, {}), text
    return True


@pytest.mark.parametrize("path", sorted(CONTENT.rglob("*.yaml")), ids=lambda p: str(p.relative_to(CONTENT)))
def test_shipped_content_is_read_from_events_alike(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if yamlread._may_hide(text):
        pytest.skip("a file that may hide a character is read in full")
    assert _agree(text)


PIECES = [
    "a: 1\n",
    "b: two\n",
    "c: 'three'\n",
    'd: "4"\n',
    "e: yes\n",
    "f: ~\n",
    "g: null\n",
    "h: 1.5\n",
    "i: .nan\n",
    "j: -.inf\n",
    "k: 0x1F\n",
    "l: 0o17\n",
    "m: 1e999\n",
    "n: " + "9" * 45 + "\n",
    "o: true\n",
    "p: False\n",
    "q: !!str 5\n",
    "r: !!int x\n",
    "s: !custom x\n",
    "t: !!float 2\n",
    "u: ! 7\n",
    "v: !!binary aGk=\n",
    "a: again\n",
    "w: &x [1, 2]\n",
    "x: *x\n",
    "y: &s text\n",
    "z: *s\n",
    "aa: *missing\n",
    "ab: &x [3]\n",
    "ac: &loop [*loop]\n",
    "ad: &m {k: v}\n",
    "ae: *m\n",
    "? [1, 2]\n: v\n",
    "? {k: v}\n: v\n",
    "*s : v\n",
    "1: one\n",
    "true: yes\n",
    "~: nothing\n",
    "2.5: x\n",
    "!!str 3: x\n",
    "!!seq s: x\n",
    "af:\n  - 1\n  - [a, b]\n  - {c: d}\n",
    "ag: !!seq [1]\n",
    "ah: !!map {a: 1}\n",
    "ai: !!set {a}\n",
    "aj: !!omap [a: 1]\n",
    "ak: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
    "---\n",
    "...\n",
    "al: [unclosed\n",
    "am: 'unclosed\n",
    "\tan: tab\n",
    "ao:x\n",
    "  ap: indented\n",
    "- item\n",
    "aq: |\n  block\n  text\n",
    "ar: >\n  folded\n",
    "as: 2001-12-14\n",
    "at: +1\n",
    "au: .5\n",
    "av: 1_000\n",
    "aw: 0b101\n",
    "ax: @\n",
    "ay: %\n",
    "# a comment\n",
    "az: a # note\n",
    "ba: a: b\n",
]


@settings(max_examples=600, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=8))
def test_the_readers_agree_on_any_text(pieces: list[str]) -> None:
    _agree("".join(pieces))


def test_an_alias_bomb_is_left_to_the_full_reader() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 6)]
    text = "\n".join(lines) + "\n"
    assert yamlread._EventReader(text).read() is None
    with pytest.raises(YamlReadError, match="alias bomb"):
        read_with_nodes(text)


def test_aliased_collections_are_shared_as_the_full_reader_shares_them() -> None:
    text = "base: &b {speed: fast}\ncards:\n  - *b\n  - *b\n  - {speed: fast}\n"
    assert _agree(text)
    value = yamlread.read_yaml(text).value
    assert value["cards"][0] is value["cards"][1] is value["base"]
    assert value["cards"][2] is not value["base"]


def test_a_document_read_from_events_is_located_from_a_tree_composed_later() -> None:
    text = "cards:\n  - id: a\n    speed: quick\n"
    document = yamlread.read_yaml(text)
    assert document.value == {"cards": [{"id": "a", "speed": "quick"}]}
    assert yamlread.locate(document.root, ("cards", 0, "speed")) == (3, 12)
    assert yamlread.locate(document.root, ("cards", 0, "speed"), key=True) == (3, 5)


def test_plain_yaml_is_read_from_events() -> None:
    """The event reader is not quietly leaving everything to the full reader."""
    body = yaml.safe_dump({"cards": [{"id": f"c{i}", "count": i, "ok": True, "tags": ["a", "b"], "none": None, "rate": 1.5} for i in range(50)]})
    assert _agree(body)
    assert _agree("")
    assert yamlread._EventReader("").read() == (None, False)
    assert yamlread._EventReader("~\n").read() == (None, True)
