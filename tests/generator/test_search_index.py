"""Card entries for the search index (``generator/search.py``): one per card
anchor, named from the catalog, holding the rest of its row with each cell
named by its column, labelled with its game, page and kind; the file of
every entry that ``cards`` writes and ``check`` keeps current
(``generator/search_file.py``); and the 404 page, which works from disk and
from a server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from command.site import _search_entries
from engine.errors import UsageError
from generator.datafiles import write_data
from generator.mkdocs_plugin import error_page_from_disk
from generator.search import CARD_BOOST, CardEntry, card_entries, card_labels, kind_words
from generator.search_file import SEARCH_FILE, PackCards, file_text, search_file

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
        CardEntry("sm/home.html#card-red-flag", "Red Flag", "<p>Effect: Stops a train</p>", 10 * CARD_BOOST),
        CardEntry("sm/home.html#card-b-and-o-1", "B&O &lt;1&gt;", "<p>Card: B&O · Value: 10 · Picture: 20</p>", 10 * CARD_BOOST),
    ]


# -- what a result says ----------------------------------------------

DEALT = """<table><thead><tr><th>Card</th><th>Dealt (3p)</th><th>Dealt (4p)</th><th>Status</th><th>Reach</th><th>Card text</th></tr></thead>
<tbody><tr><td><a id="card-loco"></a>Locomotive [3] †</td><td>yes</td><td>yes</td><td>working live</td><td>3 cards</td><td>—</td></tr>
<tr><td><a id="card-rare"></a>Rare</td><td>no</td><td>yes</td><td>unbuilt</td><td></td><td>Only at four.</td></tr></tbody></table>"""
GRID = """<table><thead><tr><th>Company</th><th>1</th><th>2</th></tr></thead>
<tbody><tr><td>B&amp;O</td><td><a id="card-bo-1"></a>10</td><td><a id="card-bo-2"></a>30</td></tr></tbody></table>"""


def test_the_preview_names_each_cell_and_says_agreeing_columns_once() -> None:
    loco, rare = card_entries(DEALT, "p.html", {"loco": "Locomotive [3]", "rare": "Rare"})
    assert loco.text == "<p>Dealt: yes · Status: working live · Reach: 3 cards</p>"
    assert rare.text == "<p>Dealt (3p): no · Dealt (4p): yes · Status: unbuilt · Card text: Only at four.</p>"


def test_a_card_in_a_grid_shows_its_own_value_not_its_neighbours() -> None:
    first, second = card_entries(GRID, "p.html", {"bo-1": "B&O 1", "bo-2": "B&O 2"})
    assert first.text == "<p>Company: B&O · Value: 10</p>"
    assert second.text == "<p>Company: B&O · Value: 30</p>"


def test_entries_carry_their_game_page_and_kind_as_labels() -> None:
    labels = card_labels("Station Master", "Home Deck", {"loco": "facilities", "rare": "mainline-modifiers"})
    loco, rare = card_entries(DEALT, "p.html", {"loco": "Locomotive [3]", "rare": "Rare"}, labels=labels)
    assert loco.labels == ("Station Master", "Home Deck", "Facility")
    assert rare.as_document()["tags"] == ["Station Master", "Home Deck", "Mainline modifier"]
    assert [kind_words(family) for family in ("cities", "track", "second-section", "locomotives", "express")] == ["City", "Track", "Second section", "Locomotive", "Express"]


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


PAGE_MD = """# Home Deck

Prose first.

<!-- generated: offices -->

| Card | Dealt (a) | Dealt (b) | Status |
| --- | --- | --- | --- |
| <a id="card-depot"></a>Depot | yes | yes | working `live` |
| <a id="card-station"></a>Station [†](#legend "designed") | no | yes | unbuilt |

<!-- /generated -->
"""
PACK = PackCards("sm", "Station Master", {"depot": "Depot", "station": "Station"}, {"depot": "offices", "station": "offices"}, {"home-deck.md": PAGE_MD, "notes.txt": "not a page"})


def test_the_file_holds_every_cards_entry_from_the_pages_markdown() -> None:
    text = file_text([PACK])
    assert text.startswith("// Every card's search entry, made by `stationmaster cards`")
    entries = json.loads(text[text.index("[") : text.rindex("]") + 1])
    assert entries == [
        {"location": "sm/home-deck.html#card-depot", "title": "Depot", "text": "<p>Dealt: yes · Status: working live</p>", "boost": CARD_BOOST, "tags": ["Station Master", "Home Deck", "Office"]},
        {
            "location": "sm/home-deck.html#card-station",
            "title": "Station",
            "text": "<p>Dealt (a): no · Dealt (b): yes · Status: unbuilt</p>",
            "boost": CARD_BOOST,
            "tags": ["Station Master", "Home Deck", "Office"],
        },
    ]
    # One entry a line, the same text for the same pages.
    assert text.count("\n{") == 2 and file_text([PACK]) == text


def test_check_names_the_first_line_where_the_committed_file_parts(tmp_path: Path) -> None:
    missing = search_file(tmp_path, "site/", [PACK])
    assert not missing.is_current
    assert missing.problem().render().startswith("site/assets/search/cards.js:1:1: the cards' search entries are missing; run `make cards`")
    assert write_data(missing) and (tmp_path / SEARCH_FILE).read_bytes() == missing.new
    assert search_file(tmp_path, "site/", [PACK]).is_current
    renamed = PackCards(PACK.folder, PACK.title, {"depot": "Depot", "station": "Grand Station"}, PACK.families, PACK.pages)
    stale = search_file(tmp_path, "site/", [renamed])
    assert not stale.is_current
    assert stale.problem().render().startswith("site/assets/search/cards.js:4:1: no longer what the pages make of the cards' search entries")
    # Written only over what was read: an edit made since is kept.
    (tmp_path / SEARCH_FILE).write_text("edited", encoding="utf-8")
    assert not write_data(stale) and (tmp_path / SEARCH_FILE).read_text(encoding="utf-8") == "edited"


def test_an_unreadable_search_file_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / SEARCH_FILE).mkdir(parents=True)
    with pytest.raises(UsageError, match=r"^cannot read the search entries under .*: .*directory"):
        _search_entries(tmp_path, [])
