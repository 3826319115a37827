"""Card entries for the search index (``generator/search.py``): one per card
anchor, named from the catalog, holding the rest of its row, placed after
its page's own entries; and a file that is no search index is a located
error, not a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from mkdocs.exceptions import PluginError

from generator.mkdocs_plugin import CardTablesPlugin, page_boost
from generator.search import CARD_BOOST, CardEntry, card_entries, with_card_entries

TABLE = """<table><thead><tr><th>Card</th><th>Effect</th><th>Picture</th></tr></thead><tbody>
<tr><td><a id="card-red-flag"></a>Red Flag <a href="#legend">†</a></td><td>Stops a train</td>
<td><svg><title>a flag</title></svg></td></tr>
<tr><td><a id="card-nobody"></a>Not a card</td><td>x</td><td></td></tr>
<tr><td>B&amp;O</td><td><a id="card-b-and-o-1"></a>10</td><td>20</td></tr>
</tbody></table>"""
NAMES = {"red-flag": "Red Flag", "b-and-o-1": "B&O <1>"}


def test_one_entry_per_card_row_with_the_rest_of_the_row_as_text() -> None:
    entries = card_entries(TABLE, "sm/home.html", NAMES, page_boost=10)
    assert entries == [
        CardEntry("sm/home.html#card-red-flag", "Red Flag", "Stops a train", 10 * CARD_BOOST),
        CardEntry("sm/home.html#card-b-and-o-1", "B&O &lt;1&gt;", "B&O · 20", 10 * CARD_BOOST),
    ]


def test_entries_follow_their_page_and_nothing_else_moves() -> None:
    index = {
        "config": {"lang": ["en"]},
        "docs": [
            {"location": "a.html", "title": "A", "text": ""},
            {"location": "a.html#x", "title": "X", "text": ""},
            {"location": "b.html", "title": "B", "text": ""},
        ],
    }
    cards = {"a.html": [CardEntry("a.html#card-c", "C", "", 2.0)], "gone.html": [CardEntry("gone.html#card-d", "D", "", 2.0)]}
    merged = json.loads(with_card_entries(json.dumps(index), cards))
    assert [doc["location"] for doc in merged["docs"]] == ["a.html", "a.html#x", "a.html#card-c", "b.html"]
    assert merged["config"] == index["config"]


def test_page_boost_reads_material_front_matter() -> None:
    assert page_boost({"search": {"boost": 10}}) == 10.0
    assert page_boost({}) == page_boost({"search": "yes"}) == page_boost({"search": {"boost": True}}) == 1.0


def test_a_broken_search_index_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "search").mkdir()
    (tmp_path / "search/search_index.json").write_text("{not json", encoding="utf-8")
    plugin = CardTablesPlugin()
    plugin.card_entries = {"a.html": [CardEntry("a.html#card-c", "C", "", 2.0)]}
    with pytest.raises(PluginError, match="search_index.json: not a search index"):
        plugin.on_post_build(cast(Any, SimpleNamespace(site_dir=str(tmp_path))))
