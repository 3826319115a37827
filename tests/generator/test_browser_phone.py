"""The card tables on a phone: in headless Chromium at 375 px, a search jump
to a card keeps its table's column headings and the card's name in view,
below Material's top bar; and no table on a game's pages is wider than the
column it stands in, so none scrolls sideways.

The jumps are real: the card's name typed into the search box and Enter
pressed, as a reader does, for cards spread over every card table of both
games (the Station Values grid included). One page at 375 px serves every
jump and every width check; the site and the browser are ``conftest.py``'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from engine.packs import load_packs
from tests.generator.test_browser import _name_inside_another, _search, every_card
from tests.kit.browser import Reader
from tests.kit.project import PROJECT_ROOT

pytestmark = pytest.mark.xdist_group("browser")

try:
    from playwright.sync_api import Browser, ViewportSize
except ImportError:  # the dev dependencies are not installed: the fixtures skip
    pass

PHONE: ViewportSize = {"width": 375, "height": 812}
JUMPS_PER_PACK = 12

# Where a landed card stands against the top bar and its table's headings:
# for the name cell (the cell holding the anchor) and each heading cell, its
# box and whether the point at its centre shows the cell itself (and not the
# top bar drawn over it).
_LANDING = """id => {
    const anchor = document.getElementById(id);
    if (!anchor) return null;
    const cell = anchor.closest('td');
    const table = cell.closest('table');
    const bar = document.querySelector('.md-header').getBoundingClientRect().bottom;
    const seen = element => {
        const box = element.getBoundingClientRect();
        const hit = document.elementFromPoint(Math.min(box.left + box.width / 2, innerWidth - 1), box.top + Math.min(box.height / 2, 8));
        return {top: box.top, bottom: box.bottom, left: box.left, right: box.right, shown: !!hit && element.contains(hit),
                text: element.textContent.trim().slice(0, 30)};
    };
    return {bar, height: innerHeight, width: innerWidth, cell: seen(cell), headings: [...table.querySelectorAll('thead th')].map(seen)};
}"""

# Every table of the page wider than the text column it stands in.
_WIDE_TABLES = """() => [...document.querySelectorAll('.md-content table')].flatMap(table => {
    const column = table.closest('.md-typeset').getBoundingClientRect();
    const box = table.getBoundingClientRect();
    const wide = Math.max(table.scrollWidth, box.width);
    const head = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim()).join(' | ');
    return wide > column.width + 1 || box.right > column.right + 1 ? [`${head.slice(0, 80)}: ${Math.round(wide)} px in a ${Math.round(column.width)} px column`] : [];
})"""


@dataclass
class Phone:
    """What one pass at 375 px found."""

    jumps: int = 0
    hidden: list[str] = field(default_factory=list)
    wide: list[str] = field(default_factory=list)
    tables: int = 0
    problems: list[str] = field(default_factory=list)


def jump_cards() -> list[tuple[str, str, str]]:
    """The cards the phone test jumps to: for each pack, ``JUMPS_PER_PACK``
    cards taken in turn from each kind of card (so every kind's table gets
    some, the Station Values grid among them), last, middle and first of each
    kind first; only cards search finds by their own name (not one whose
    words all stand in another card's name)."""
    loaded, problems = load_packs(PROJECT_ROOT / "content")
    assert not problems, problems
    inside = _name_inside_another(every_card())
    chosen: list[tuple[str, str, str]] = []
    for one in loaded:
        kinds: dict[str, list[tuple[str, str, str]]] = {}
        for card in one.catalog.cards:
            if card.id not in inside:
                kinds.setdefault(card.family, []).append((one.folder.id, card.id, card.name))
        queues = [[cards[-1], cards[len(cards) // 2], cards[0], *cards[1:-1]] for cards in kinds.values()]
        picked: list[tuple[str, str, str]] = []
        while len(picked) < JUMPS_PER_PACK and any(queues):
            for queue in queues:
                while queue and queue[0] in picked:
                    queue.pop(0)
                if queue and len(picked) < JUMPS_PER_PACK:
                    picked.append(queue.pop(0))
        chosen += picked
    return chosen


def _landing_problems(card_id: str, landing: Any) -> list[str]:
    if landing is None:
        return [f"{card_id}: no anchor card-{card_id} on the page landed on"]
    found = []
    bar, height, width = landing["bar"], landing["height"], landing["width"]
    cell = landing["cell"]
    if not (cell["top"] >= bar - 1 and cell["bottom"] <= height and cell["shown"]):
        found.append(f"{card_id}: its name cell at {cell['top']:.0f}-{cell['bottom']:.0f} px is not in view below the top bar (bottom {bar:.0f} px)")
    for heading in landing["headings"]:
        inside = heading["top"] >= bar - 1 and heading["bottom"] <= cell["top"] + 1 and heading["right"] <= width + 1 and heading["left"] >= -1
        if not (inside and heading["shown"]):
            found.append(
                f"{card_id}: heading {heading['text']!r} at {heading['top']:.0f}-{heading['bottom']:.0f} px is not in view between the top bar ({bar:.0f} px) and the row ({cell['top']:.0f} px)"
            )
    return found


@pytest.fixture(scope="module")
def phone(built_site: Path, browser: Browser) -> Iterator[Phone]:
    """One tab at 375 px: a search jump to each of ``jump_cards``, then every
    page of both games with a table, for its tables' widths."""
    context = browser.new_context(viewport=PHONE)
    try:
        reader, found = Reader(context), Phone()
        page = reader.open(built_site / "index.html")
        for _, card_id, name in jump_cards():
            # On a phone the search box opens from the top bar's button.
            page.locator('label.md-header__button[for="__search"]').click()
            _search(page, name)
            with page.expect_navigation():
                page.locator("input.md-search__input").press("Enter")
            page.wait_for_load_state("load")
            found.jumps += 1
            if urlsplit(page.url).fragment != f"card-{card_id}":
                found.hidden.append(f"{card_id}: Enter after searching {name!r} landed on {page.url.rsplit('/', 1)[-1]}")
                continue
            found.hidden += _landing_problems(card_id, page.evaluate(_LANDING, f"card-{card_id}"))
        for path in sorted(built_site.glob("*/*.html")):
            if path.parent.name in ("stationmaster", "trickoftherails") and "<table" in path.read_text(encoding="utf-8"):
                page = reader.open(path)
                found.tables += int(page.evaluate("document.querySelectorAll('.md-content table').length"))
                found.wide += [f"{path.relative_to(built_site)}: {line}" for line in page.evaluate(_WIDE_TABLES)]
        found.problems = reader.problems
        yield found
    finally:
        context.close()


def test_a_search_jump_keeps_the_headings_and_the_name_in_view(phone: Phone) -> None:
    assert phone.jumps >= 20
    assert not phone.hidden, "\n".join(phone.hidden)
    assert not phone.problems, "\n".join(phone.problems)


def test_no_table_of_a_game_is_wider_than_a_phone(phone: Phone) -> None:
    assert phone.tables >= 30
    assert not phone.wide, "\n".join(phone.wide)
