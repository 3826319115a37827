"""The card tables on a phone: in headless Chromium at 375 px, a jump to a
card keeps its table's column headings and the card's name in view, below
Material's top bar; and no table on a game's pages is wider than the column
it stands in, so none scrolls sideways.

Every card of both games is jumped to, on the 375 px pass of
``tests/kit/site_survey.py`` (setting a page's fragment to each card's
anchor, which is what the browser does on arriving at a search result), and
that pass measures the tables too. A few jumps are made for real as well:
the card's name typed into the search box and Enter pressed, as a reader
does, for one card of each of two kinds in each game, so a landing that
only a fresh page load gets wrong is caught.
The site and the browser are ``conftest.py``'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from engine.packs import load_packs
from tests.generator.test_browser import _name_inside_another, _search, every_card
from tests.kit.browser import Reader
from tests.kit.project import PROJECT_ROOT
from tests.kit.site_survey import PHONE_HEIGHT, PHONE_WIDTH, Survey, landing_problems, survey

pytestmark = pytest.mark.xdist_group("browser")

try:
    from playwright.sync_api import Browser
except ImportError:  # the dev dependencies are not installed: the fixtures skip
    pass

JUMPS_PER_PACK = 2


@dataclass
class Jumps:
    """What the real search jumps found."""

    made: int = 0
    hidden: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def jump_cards() -> list[tuple[str, str, str]]:
    """The cards the phone test jumps to for real: for each pack,
    ``JUMPS_PER_PACK`` cards taken in turn from each kind of card, the last
    of a kind first; only cards search finds by their own name (not one
    whose words all stand in another card's name)."""
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


@pytest.fixture(scope="module")
def phone(built_site: Path, browser: Browser) -> Survey:
    """Every page at 375 px (shared with test_browser.py)."""
    return survey(built_site, browser, PHONE_WIDTH)


@pytest.fixture(scope="module")
def jumps(built_site: Path, browser: Browser) -> Iterator[Jumps]:
    """One tab at 375 px: a real search jump to each of ``jump_cards``."""
    context = browser.new_context(viewport={"width": PHONE_WIDTH, "height": PHONE_HEIGHT})
    try:
        reader, found = Reader(context), Jumps()
        page = reader.open(built_site / "index.html")
        for _, card_id, name in jump_cards():
            # On a phone the search box opens from the top bar's button.
            page.locator('label.md-header__button[for="__search"]').click()
            _search(page, name)
            with page.expect_navigation():
                page.locator("input.md-search__input").press("Enter")
            page.wait_for_load_state("load")
            found.made += 1
            if urlsplit(page.url).fragment != f"card-{card_id}":
                found.hidden.append(f"{card_id}: Enter after searching {name!r} landed on {page.url.rsplit('/', 1)[-1]}")
                continue
            found.hidden += landing_problems(page, card_id)
        found.problems = reader.problems
        yield found
    finally:
        context.close()


def test_a_jump_to_any_card_keeps_the_headings_and_the_name_in_view(phone: Survey) -> None:
    assert phone.landings >= len(every_card())
    assert not phone.hidden_landings, "\n".join(phone.hidden_landings)


def test_a_real_search_jump_lands_the_same_way(jumps: Jumps) -> None:
    assert jumps.made >= 2 * JUMPS_PER_PACK
    assert not jumps.hidden, "\n".join(jumps.hidden)
    assert not jumps.problems, "\n".join(jumps.problems)


def test_no_table_of_a_game_is_wider_than_a_phone(phone: Survey) -> None:
    assert phone.tables >= 30
    assert not phone.wide_tables, "\n".join(phone.wide_tables)
