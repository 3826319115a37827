"""Fuzzing the sweep cache (``.sweep-cache/``): cells damaged at the level
of their JSON (a value of the wrong type or size, a key gone, figures that
do not add up, huge numbers, deep nesting) or of their bytes, and cells
replaced by what no file should be (a FIFO, a link to a device or to a file
outside the cache, a folder).

The invariant is the fuzz suite's, and the cache's own promise: a sweep
over a damaged cache still exits 0 (a cache is never a reason to fail),
never 3, with no traceback and no hang; each cell left aside is one line on
stderr; nothing outside the cache changes (a link planted there is replaced,
never written through); and a cell that the sweep said it played again is
played again: the report is the clean one whenever every damaged cell was
noted.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.kit.fuzz import Outcome, assert_sound, call, changes, fingerprint, fuzz_settings, scratch
from tests.kit.fuzz_mutations import NUMBERS, Draw, json_paths, set_at
from tests.kit.project import PROJECT_ROOT

EXAMPLES = 16
ARGS = ["sweep", "--content", "content/stationmaster", "--players", "1,2", "--games", "2", "--seed", "3", "--quiet"]
VALUES: list[Any] = [None, True, 0, -1, 1, 3, 10**6, 2**63, 10**300, 1.5, "", "x", [], {}, [[]], [1, 2], [[1, 1]], ["a", "A", 1, 1, 1], "x" * 5000]


def _damage_json(draw: Draw, text: str) -> tuple[str, str]:
    data = json.loads(text)
    how = draw(st.sampled_from(["value", "value", "drop", "number", "nesting", "key"]))
    paths = [p for p in json_paths(data) if p]
    path = draw(st.sampled_from(paths))
    where = "/".join(map(str, path))
    if how == "value":
        return json.dumps(set_at(data, path, draw(st.sampled_from(VALUES)))), f"{where} -> a new value"
    if how == "drop":
        parent: Any = data
        for step in path[:-1]:
            parent = parent[step]
        del parent[path[-1]]
        return json.dumps(data), f"{where} removed"
    if how == "number":
        number = draw(st.sampled_from(NUMBERS[:6] + ["1e999", "NaN", "-Infinity", "9" * 4000, "1" + "0" * 300]))
        return json.dumps(set_at(data, path, "@@N@@")).replace('"@@N@@"', number), f"{where} -> {number[:20]}"
    if how == "nesting":
        depth = draw(st.sampled_from([70, 1000, 100_000]))
        return json.dumps(set_at(data, path, "@@D@@")).replace('"@@D@@"', "[" * depth + "]" * depth), f"{where} nested {depth} deep"
    data["key"] = draw(st.sampled_from(["", "x", None, str(data.get("key", ""))[::-1]]))
    return json.dumps(data), "key changed"


def _damage_bytes(draw: Draw, data: bytes) -> tuple[bytes, str]:
    how = draw(st.sampled_from(["truncate", "flip", "invalid", "empty", "bom"]))
    if how == "truncate":
        at = draw(st.integers(0, len(data)))
        return data[:at], f"cut at byte {at}"
    if how == "flip":
        at = draw(st.integers(0, len(data) - 1))
        value = draw(st.integers(0, 255))
        return data[:at] + bytes([value]) + data[at + 1 :], f"byte {at} -> {value:#x}"
    if how == "invalid":
        return data[:10] + b"\xff\xc3" + data[10:], "invalid UTF-8"
    if how == "bom":
        return b"\xef\xbb\xbf" + data, "a byte-order mark"
    return b"", "empty"


def _special(draw: Draw, cell: Path, root: Path) -> tuple[list[Path], str]:
    """``cell`` replaced by what no cache file should be; the FIFOs made."""
    how = draw(st.sampled_from(["fifo", "device", "outside", "folder", "nowhere", "loop"]))
    cell.unlink()
    if how == "fifo":
        os.mkfifo(cell)
        return [cell], "a FIFO"
    if how == "device":
        cell.symlink_to("/dev/null")
        return [], "a link to a device"
    if how == "outside":
        cell.symlink_to(root / "precious.txt")
        return [], "a link to a file outside the cache"
    if how == "folder":
        cell.mkdir()
        (cell / "inside").write_text("x", encoding="utf-8")
        return [], "a folder"
    if how == "nowhere":
        cell.symlink_to(root / "nothing-here")
        return [], "a link to nothing"
    cell.symlink_to(cell)
    return [], "a loop of links"


def _sound_sweep(outcome: Outcome, case: str) -> None:
    assert_sound(outcome, case)
    assert outcome.code == 0, f"{case}: a damaged cache made the sweep fail\n{outcome}"
    notes = outcome.err.splitlines()
    assert all(line.startswith("stationmaster sweep: ") for line in notes), f"{case}: {outcome}"


@fuzz_settings(EXAMPLES)
@given(st.data())
def test_sweep_survives_a_damaged_cache(data: st.DataObject) -> None:
    with scratch(PROJECT_ROOT, ["content"]) as root:
        (root / "precious.txt").write_text("not a cell\n", encoding="utf-8")
        first = call(ARGS, root)
        assert first.code == 0, first
        cells = sorted((root / ".sweep-cache").glob("*.json"))
        chosen = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=len(cells), unique=True), label="cells")
        fifos: list[Path] = []
        told = []
        for cell in chosen:
            kind = data.draw(st.sampled_from(["json", "json", "bytes", "special"]))
            if kind == "json":
                text, what = _damage_json(data.draw, cell.read_text(encoding="utf-8"))
                cell.write_text(text, encoding="utf-8")
            elif kind == "bytes":
                raw, what = _damage_bytes(data.draw, cell.read_bytes())
                cell.write_bytes(raw)
            else:
                made, what = _special(data.draw, cell, root)
                fifos += made
            told.append(f"{cell.name[:8]}: {what}")
        outside = {key: value for key, value in fingerprint(root).items() if not key.startswith(".sweep-cache")}
        case = f"sweep over a cache with {'; '.join(told)}"
        outcome = call(ARGS, root, fifos=fifos)
        _sound_sweep(outcome, case)
        after = fingerprint(root)
        changed = changes(outside, {key: after.get(key, "absent") for key in outside})
        assert not changed, f"{case}: files outside the cache changed: {changed}\n{outcome}"
        assert not [key for key in after if key.endswith("-tmp") or key.endswith(".tmp")], f"{case}: temporary files left\n{outcome}"
        if all(cell.name in outcome.err for cell in chosen):
            assert outcome.out == first.out, f"{case}: every damaged cell was noted, yet the report differs\n{outcome}"
