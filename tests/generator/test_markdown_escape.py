"""Content text reaches the pages as text: whatever a title, a card's name
or its text holds, it cannot turn into Markdown structure (a heading, a
list, a link, HTML) and no control or bidi character reaches a page raw
(NUL makes git treat the page as binary; U+202E shows text reversed)."""

from __future__ import annotations

import dataclasses
import re
from types import MappingProxyType
from typing import Any

import markdown  # type: ignore[import-untyped]  # (no stubs installed; only markdown.markdown is used)
import pytest

from engine.packs import LoadedPack, load_packs
from generator.cells import cell
from generator.render import render_site
from generator.search import card_entries
from generator.tableset import table_set
from tests.kit.project import PROJECT_ROOT

# Its module-scoped fixture is built once: the whole module runs on one worker.
pytestmark = pytest.mark.xdist_group("markdown-escape")

# Every character that must never reach a page raw: C0 and C1 controls
# (but the line ends and tabs the layout itself uses), bidi controls, BOM.
RAW_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")

HOSTILE_TITLE = "# Station\u202eretsaM\x00 \x1b[31m"
HOSTILE_NAME = "1. [Straight](https://example.com) \u2066<b>&amp;</b>"
HOSTILE_TEXT = "- plays `anywhere` | > quoted \u200f*bold*"


@pytest.mark.parametrize(
    "text, shown",
    [
        ("# Title", "\\# Title"),
        ("#5 only", "\\#5 only"),
        ("- item", "\\- item"),
        ("+ item", "\\+ item"),
        ("---", "\\---"),
        ("1. First", "1\\. First"),
        ("12) Twelfth", "12\\) Twelfth"),
        ("> quote", "&gt; quote"),
        ("ends with #", "ends with \\#"),
        ("a\u202eb", "a&lt;U+202E&gt;b"),
        ("nul\x00esc\x1b", "nul&lt;U+0000&gt;esc&lt;U+001B&gt;"),
        ("iso\u2066late\u2069", "iso&lt;U+2066&gt;late&lt;U+2069&gt;"),
    ],
)
def test_cell_escapes_what_would_change_the_page(text: str, shown: str) -> None:
    assert cell(text) == shown


@pytest.mark.parametrize("text", ["Station Master", "-1", "No. 3 Way Freight", "B&O", "3 or 4", "W–NE", "—"])
def test_ordinary_text_is_unchanged_where_markdown_would_not_read_it(text: str) -> None:
    assert cell(text) == text.replace("&", "&amp;")


@pytest.fixture(scope="module")
def stationmaster() -> LoadedPack:
    loaded, problems = load_packs(PROJECT_ROOT / "content")
    assert not problems
    return next(one for one in loaded if one.folder.id == "stationmaster")


def _hostile(catalog: Any) -> Any:
    straight = dataclasses.replace(catalog.by_id["straight"], name=HOSTILE_NAME, text=HOSTILE_TEXT)
    return dataclasses.replace(
        catalog,
        game=dataclasses.replace(catalog.game, title=HOSTILE_TITLE),
        cards=tuple(straight if card.id == "straight" else card for card in catalog.cards),
        by_id=MappingProxyType({**catalog.by_id, "straight": straight}),
    )


def test_hostile_content_stays_text_on_the_pages(stationmaster: LoadedPack) -> None:
    site = PROJECT_ROOT / "site" / "stationmaster"
    pages = {name: (site / name).read_text(encoding="utf-8") for name in ("index.md", "home-deck.md")}
    rendered = render_site(_hostile(stationmaster.catalog), pages, tables=table_set(stationmaster.pack.id))

    for name, text in rendered.new.items():
        assert not RAW_FORBIDDEN.search(text), (name, RAW_FORBIDDEN.findall(text))

    home = markdown.markdown(rendered.new["index.md"], extensions=["tables"])
    # The title is the first thing on the edition line: no heading is made of it.
    edition = next(line for line in rendered.new["index.md"].splitlines() if "Home Deck content version" in line)
    assert edition.startswith("\\# Station&lt;U+202E&gt;retsaM&lt;U+0000&gt; &lt;U+001B&gt;\\[31m Home Deck")
    assert "<p># Station&lt;U+202E&gt;retsaM" in home and "<h1>Station&lt;" not in home

    deck = markdown.markdown(rendered.new["home-deck.md"], extensions=["tables"])
    row = next(line for line in deck.split("<tr>") if 'id="card-straight"' in line)
    assert "https://example.com" in row and '<a href="https://example.com' not in row
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in row and "<b>" not in row and "<code>" not in row and "<em>" not in row
    assert "1. [Straight](https://example.com) &lt;U+2066&gt;" in row
    assert "- plays `anywhere` | &gt; quoted &lt;U+200F&gt;*bold*" in row

    # The search entry for the card shows the same code points, never the raw ones.
    entries = card_entries(deck, "home-deck.html", {"straight": HOSTILE_NAME})
    assert entries and not RAW_FORBIDDEN.search(entries[0].title + entries[0].text)
    assert "U+2066" in entries[0].title
