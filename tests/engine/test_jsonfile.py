"""The kit's one reader of JSON from disk (``engine.jsonfile``): a regular
file, a size, a depth and a digit limit, each refused in words, never a
hang and never a traceback (issue 23, point 5)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from engine import jsonfile


def test_plain_json_reads(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"a": [1, -2, 3.5, "x", null, true]}', encoding="utf-8")
    assert jsonfile.read(path) == {"a": [1, -2, 3.5, "x", None, True]}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests deeper than 64 levels"),
        ("[" + "9" * 4000 + "]", "a number of 4,000 digits"),
        ("[1" + "0" * 300 + "]", "a number of 301 digits"),
        ("[1e400]", "beyond any figure"),
        ("[NaN]", "not a JSON number"),
        ("[-Infinity]", "not a JSON number"),
        ("{", "is not valid JSON"),
        (b"\xff\xfe", "is not UTF-8 text"),
    ],
)
def test_hostile_json_is_refused_in_words(tmp_path: Path, text: str | bytes, words: str) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(jsonfile.JsonRefused) as caught:
        jsonfile.read(path)
    assert words in caught.value.reason and "\n" not in caught.value.reason


def test_strings_do_not_count_as_nesting() -> None:
    assert jsonfile.loads(b'["' + b"[" * 1000 + b'"]') == ["[" * 1000]


@pytest.mark.parametrize("make", ["fifo", "device", "folder", "too big", "missing"])
def test_anything_but_a_small_regular_file_is_refused_at_once(tmp_path: Path, make: str) -> None:
    path = tmp_path / "a.json"
    if make == "fifo":
        os.mkfifo(path)
    elif make == "device":
        path.symlink_to("/dev/null")
    elif make == "folder":
        path.mkdir()
    elif make == "too big":
        path.write_bytes(b" " * 2048)
    done: list[BaseException] = []

    def read() -> None:
        try:
            jsonfile.read(path, limit=1024)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            done.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    assert done and isinstance(done[0], jsonfile.JsonRefused), "refused, not hung"
    assert done[0].missing == (make == "missing")
