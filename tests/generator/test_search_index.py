"""Card entries for the search index (``generator/search.py``): one per card
anchor, named from the catalog, holding the rest of its row with each cell
named by its column, labelled with its game, page and kind, placed after
its page's own entries; a file that is no search index is a located error,
not a traceback; and the 404 page works from disk and from a server."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from mkdocs.exceptions import PluginError

from generator.mkdocs_plugin import CardTablesPlugin, error_page_from_disk, page_boost
from generator.search import CARD_BOOST, CardEntry, card_entries, card_labels, kind_words, with_card_entries

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
        CardEntry("sm/home.html#card-red-flag", "Red Flag", "Effect: Stops a train", 10 * CARD_BOOST),
        CardEntry("sm/home.html#card-b-and-o-1", "B&O &lt;1&gt;", "Card: B&O · Value: 10 · Picture: 20", 10 * CARD_BOOST),
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


# -- what a result says (issue 25) ----------------------------------------------

DEALT = """<table><thead><tr><th>Card</th><th>Dealt (3p)</th><th>Dealt (4p)</th><th>Status</th><th>Reach</th><th>Card text</th></tr></thead>
<tbody><tr><td><a id="card-loco"></a>Locomotive [3] †</td><td>yes</td><td>yes</td><td>working live</td><td>3 cards</td><td>—</td></tr>
<tr><td><a id="card-rare"></a>Rare</td><td>no</td><td>yes</td><td>unbuilt</td><td></td><td>Only at four.</td></tr></tbody></table>"""
GRID = """<table><thead><tr><th>Company</th><th>1</th><th>2</th></tr></thead>
<tbody><tr><td>B&amp;O</td><td><a id="card-bo-1"></a>10</td><td><a id="card-bo-2"></a>30</td></tr></tbody></table>"""


def test_the_preview_names_each_cell_and_says_agreeing_columns_once() -> None:
    loco, rare = card_entries(DEALT, "p.html", {"loco": "Locomotive [3]", "rare": "Rare"})
    assert loco.text == "Dealt: yes · Status: working live · Reach: 3 cards"
    assert rare.text == "Dealt (3p): no · Dealt (4p): yes · Status: unbuilt · Card text: Only at four."


def test_a_card_in_a_grid_shows_its_own_value_not_its_neighbours() -> None:
    first, second = card_entries(GRID, "p.html", {"bo-1": "B&O 1", "bo-2": "B&O 2"})
    assert first.text == "Company: B&O · Value: 10"
    assert second.text == "Company: B&O · Value: 30"


def test_entries_carry_their_game_page_and_kind_as_labels() -> None:
    labels = card_labels("Station Master", "Home Deck", {"loco": "facilities", "rare": "mainline-modifiers"})
    loco, rare = card_entries(DEALT, "p.html", {"loco": "Locomotive [3]", "rare": "Rare"}, labels=labels)
    assert loco.labels == ("Station Master", "Home Deck", "Facility")
    assert rare.as_document()["tags"] == ["Station Master", "Home Deck", "Mainline modifier"]
    assert [kind_words(family) for family in ("cities", "track", "second-section", "locomotives", "express")] == ["City", "Track", "Second section", "Locomotive", "Express"]


def test_labels_are_shown_but_not_searched() -> None:
    index = {"config": {"fields": {"title": {"boost": 1000}, "text": {"boost": 1}, "tags": {"boost": 1000000}}}, "docs": [{"location": "a.html", "title": "A", "text": ""}]}
    labelled = json.loads(with_card_entries(json.dumps(index), {"a.html": [CardEntry("a.html#card-c", "C", "", 2.0, ("Game", "A", "Kind"))]}))
    assert set(labelled["config"]["fields"]) == {"title", "text"}
    assert labelled["docs"][1]["tags"] == ["Game", "A", "Kind"]
    plain = json.loads(with_card_entries(json.dumps(index), {"a.html": [CardEntry("a.html#card-c", "C", "", 2.0)]}))
    assert "tags" in plain["config"]["fields"] and "tags" not in plain["docs"][1]


PAGE_404 = """<!doctype html><html><head><link rel="icon" href="/assets/favicon.png">
<link rel="stylesheet" href="/assets/main.css"><script src="/assets/bundle.js"></script></head>
<body><a href="/stationmaster/index.html">Station Master</a><a href="//elsewhere.test/x">x</a></body></html>"""


def test_the_404_page_finds_its_files_from_disk_and_from_a_server() -> None:
    page = error_page_from_disk(PAGE_404, "/")
    # A served copy gets the site root as its base before anything is fetched.
    assert page.startswith('<!doctype html><html><head><script>location.protocol==="file:"||document.head.appendChild(')
    assert '{href:"/"}' in page
    # Links are relative to the page at the root; a link to another host is left alone.
    assert '<a href="stationmaster/index.html">' in page and 'href="//elsewhere.test/x"' in page
    # What is fetched is written after the base, so the browser cannot fetch it early.
    assert 'href="/assets' not in page and "<link" not in page.split("<body>")[0].replace('document.write("<link', "")
    assert 'document.write("<script src=\\"assets/bundle.js\\"><\\/script>")' in page
    # A site below a path keeps that path as its base.
    assert '{href:"/rules/"}' in error_page_from_disk(PAGE_404.replace('"/', '"/rules/'), "/rules/")
