"""Fuzzing ``stationmaster validate``: the shipped content of both packs,
damaged at the level of its bytes, its YAML and its folders (every kind in
``fuzz_mutations.MUTATIONS``), then validated.

Whatever the damage: exit 0, 1 or 2, never 3; no traceback; no hang; and not
one byte of the content changed. Each kind of damage is a case of its own, so
a failure names the kind of damage that reached it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.kit.fuzz import assert_sound, call, changes, fingerprint, fuzz_settings, scratch
from tests.kit.fuzz_mutations import MUTATIONS, damage
from tests.kit.project import PROJECT_ROOT

# Cases per kind of damage: about 30 kinds, each case one in-process run.
EXAMPLES = 3


TARGETS = ["content", "content/stationmaster", "content/trickoftherails", "content/stationmaster/home-deck"]


def validate_damaged(kinds: list[str], examples: int, *, mixed: bool = False) -> None:
    """Validate ``examples`` damaged copies, each hit first by ``kinds[0]``
    (with ``mixed``, by any of ``kinds``)."""

    @fuzz_settings(examples)
    @given(st.data())
    def case(data: st.DataObject) -> None:
        with scratch(PROJECT_ROOT, ["content"]) as root:
            done = damage(data.draw, root, kinds, mixed=mixed)
            target = data.draw(st.sampled_from(TARGETS), label="target")
            fmt = data.draw(st.sampled_from(["text", "json", "github"]), label="format")
            before = fingerprint(root)
            outcome = call(["validate", target, "--format", fmt], root)
            what = f"validate {target} --format {fmt} after: " + "; ".join(done)
            assert_sound(outcome, what)
            assert not changes(before, fingerprint(root)), f"{what}: validate changed files: {changes(before, fingerprint(root))}"

    case()


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_validate_survives_each_kind_of_damage(kind: str) -> None:
    validate_damaged([kind], EXAMPLES)


def test_validate_survives_mixed_damage() -> None:
    """Several kinds at once (known-defect kinds left out)."""
    kinds = sorted(MUTATIONS)
    validate_damaged(kinds, 2 * EXAMPLES, mixed=True)


# -- the surfaces of issue 23: schema lines, stray entries, patterns, names --

_YAML = sorted(p.relative_to(PROJECT_ROOT).as_posix() for p in (PROJECT_ROOT / "content").rglob("*.yaml"))
_KINDS = sorted({p.name.removesuffix(".schema.json") for p in (PROJECT_ROOT / "content").glob("*/schema/*.schema.json")})
# Characters a name must not hide or fake, and ones it may hold.
_NAME_CHARS = "\u200b\u2060\u00ad\u180e\ufeff\u3164\u115f\u2800\u3000\u0301\u043e\u0430\u0435\u0391\u2126 aé1-'\u0000\U000e0001"
_HOSTILE_PATTERNS = ["^(a|a)+$", "^(a+)+$", "(a)\\1", "^(?=a)", "(?<=a)b", "(", "[a-", "a{1000}{1000}", "^(.*a){20}$", "\\", "(?P<n>a)(?P=n)", "^$(?!\\n)"]


def _run_sound(root: Path, target: str, what: str) -> None:
    before = fingerprint(root)
    fifos = [path for path in root.rglob("*") if path.is_fifo()]
    outcome = call(["validate", target], root, fifos=fifos)
    assert_sound(outcome, what)
    assert not changes(before, fingerprint(root)), f"{what}: validate changed files"


@fuzz_settings(2 * EXAMPLES)
@given(rel=st.sampled_from(_YAML), kind=st.sampled_from(_KINDS), depth=st.sampled_from(["", "../", "../../"]))
def test_validate_survives_a_schema_line_naming_any_kind(rel: str, kind: str, depth: str) -> None:
    with scratch(PROJECT_ROOT, ["content"]) as root:
        path = root / rel
        text = path.read_text(encoding="utf-8").split("\n", 1)
        path.write_text(f"# yaml-language-server: $schema={depth}schema/{kind}.schema.json\n" + text[1], encoding="utf-8")
        _run_sound(root, "content", f"{rel} with the schema line of {depth}{kind}")


@fuzz_settings(2 * EXAMPLES)
@given(
    name=st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12),
    kind=st.sampled_from(["file", "folder", "link-to-file", "link-to-nothing", "link-to-folder", "fifo"]),
    body=st.sampled_from([b"", b"title: [\n", b"# yaml-language-server: $schema=stationmaster/schema/game.schema.json\nid: stationmaster\n", b"\xff\xfe"]),
)
def test_validate_survives_a_stray_entry_beside_the_packs(name: str, kind: str, body: bytes) -> None:
    name = name.replace("/", "_").replace("\0", "_").lstrip(".") or "stray"
    with scratch(PROJECT_ROOT, ["content"]) as root:
        place = root / "content" / name
        if place.exists() or len(os.fsencode(name)) > 200:
            return
        if kind == "file":
            place.write_bytes(body)
        elif kind == "folder":
            place.mkdir()
        elif kind == "fifo":
            os.mkfifo(place)
        else:
            target = {"link-to-file": "stationmaster/game.yaml", "link-to-nothing": "nowhere", "link-to-folder": "stationmaster"}[kind]
            place.symlink_to(target)
        _run_sound(root, "content", f"a {kind} named {name!r} beside the packs")


@fuzz_settings(2 * EXAMPLES)
@given(pattern=st.sampled_from(_HOSTILE_PATTERNS) | st.text(alphabet="a()|+*?{}[]^$\\1=<!-", max_size=16), letters=st.integers(0, 40))
def test_validate_survives_any_pattern_in_a_schema(pattern: str, letters: int) -> None:
    with scratch(PROJECT_ROOT, ["content"]) as root:
        schema = root / "content" / "stationmaster" / "schema" / "game.schema.json"
        data = json.loads(schema.read_text(encoding="utf-8"))
        data["properties"]["title"]["pattern"] = pattern
        schema.write_text(json.dumps(data, indent=2), encoding="utf-8")
        game = root / "content" / "stationmaster" / "game.yaml"
        game.write_text(re.sub(r"(?m)^title: .*$", "title: " + "a" * letters + "!", game.read_text(encoding="utf-8")), encoding="utf-8")
        _run_sound(root, "content/stationmaster", f"title pattern {pattern!r} over {letters} letters")


@fuzz_settings(2 * EXAMPLES)
@given(data=st.data())
def test_validate_survives_any_name(data: st.DataObject) -> None:
    rel = data.draw(st.sampled_from([r for r in _YAML if "\n    name: " in (PROJECT_ROOT / r).read_text(encoding="utf-8")]), label="file")
    with scratch(PROJECT_ROOT, ["content"]) as root:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        found = re.findall(r"(?m)^    name: (.*)$", text)
        old = data.draw(st.sampled_from(found), label="name")
        new = data.draw(
            st.sampled_from(found) | st.text(alphabet=_NAME_CHARS, max_size=8) | st.builds(lambda s, c, i: s[:i] + c + s[i:], st.sampled_from(found), st.sampled_from(_NAME_CHARS), st.integers(0, 20)),
            label="new name",
        )
        path.write_text(text.replace(f"    name: {old}\n", f"    name: {json.dumps(new)}\n", 1), encoding="utf-8")
        _run_sound(root, "content", f"{rel}: name {old!r} made {new!r}")
