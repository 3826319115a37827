"""The built site as a reader's browser shows it: headless Chromium, driven by
Playwright, opens ``build``'s pages straight from disk (``file://``).

Each page loads with no console error and no request leaving the site;
searching a card's name and pressing Enter lands on the card's row, for every
card of every pack; the Dealt and Status columns fit a 1280 px screen, and no
page is wider than a 375 px phone. The links between pages are checked on
the HTML itself, without a browser. The built site and the browser are
fixtures of ``tests/generator/conftest.py``, shared with the other browser
modules.

Without Playwright or Debian's Chromium (``/usr/bin/chromium``) the browser
tests skip, saying how to get them; where ``CI`` is set they fail instead,
so CI cannot pass without having run them.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import pytest

from engine.packs import load_packs
from tests.kit.browser import Reader, reader_pages, search
from tests.kit.project import PROJECT_ROOT
from tests.kit.site_survey import PHONE_WIDTH, Survey, survey

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# Its module-scoped fixture is built once: the whole module runs on one worker.
pytestmark = pytest.mark.xdist_group("browser")


# -- the built site --------------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if found.get("name") and tag == "a":
            self.ids.add(str(found["name"]))
        if tag == "a" and found.get("href"):
            self.hrefs.append(str(found["href"]))


def test_every_linked_anchor_exists(built_site: Path) -> None:
    parsed: dict[str, _Links] = {}
    for path in reader_pages(built_site):
        links = _Links()
        links.feed(path.read_text(encoding="utf-8"))
        parsed[path.relative_to(built_site).as_posix()] = links
    broken: list[str] = []
    for name, links in parsed.items():
        for href in links.hrefs:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not parts.fragment:
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(parts.path))) if parts.path else name
            if target not in parsed:
                broken.append(f"{name}: {href}: no page {target}")
            elif unquote(parts.fragment) not in parsed[target].ids:
                broken.append(f"{name}: {href}: {target} has no anchor '{parts.fragment}'")
    assert not broken, "\n".join(broken)


# -- the browser -------------------------------------------------------------------


@pytest.fixture(scope="module")
def reader(browser: Browser) -> Iterator[Reader]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield Reader(context)
    context.close()


@pytest.fixture(scope="module")
def at_1280(built_site: Path, browser: Browser) -> Survey:
    """Every page at 1280 px: loading errors, the search index, the Dealt and Status columns."""
    return survey(built_site, browser, 1280)


@pytest.fixture(scope="module")
def at_375(built_site: Path, browser: Browser) -> Survey:
    """Every page at 375 px, a phone: the page's width and how file paths wrap."""
    return survey(built_site, browser, PHONE_WIDTH)


def test_every_page_loads_with_no_error_and_no_outside_request(at_1280: Survey, at_375: Survey) -> None:
    assert at_1280.pages >= 10
    assert not at_1280.no_index, "\n".join(at_1280.no_index)
    assert not at_1280.problems + at_375.problems, "\n".join(at_1280.problems + at_375.problems)


def every_card() -> list[tuple[str, str, str]]:
    """(pack, card id, card name) of every card of every pack, from content/."""
    loaded, problems = load_packs(PROJECT_ROOT / "content")
    assert not problems, problems
    return [(one.folder.id, card.id, card.name) for one in loaded for card in one.catalog.cards]


def _search(page: Page, text: str) -> list[list[tuple[str, float]]]:
    """Type ``text`` into Material's search box; each result group's links
    with their scores. The box is emptied first, so the list shown is this
    query's and not the one before."""
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("")
    box.press("End")  # Material searches on keyup
    page.locator(".md-search-result__item").first.wait_for(state="detached")
    box.fill(text)
    box.press("End")
    page.locator(".md-search-result__item").first.wait_for()
    groups: list[list[tuple[str, float]]] = page.eval_on_selector_all(
        ".md-search-result__item",
        """items => items.map(item => [...item.querySelectorAll('a.md-search-result__link')].map(
            a => [a.getAttribute('href'), parseFloat(a.firstElementChild.getAttribute('data-md-score'))]))""",
    )
    return groups


def _search_all(page: Page, texts: list[str]) -> list[list[list[tuple[str, float]]]]:
    """``_search`` for each of ``texts`` in turn, in one call into the page
    (``tests.kit.browser.search``): a round trip to the browser per card cost
    most of a minute."""
    page.locator("input.md-search__input").click()
    return [[[(hit.href, hit.score) for hit in group] for group in groups] for groups in search(page, texts)]


def _best(groups: list[list[tuple[str, float]]]) -> str:
    """What Enter follows: the best-scored link of the first result."""
    return max(groups[0], key=lambda link: link[1])[0]


def _words(name: str) -> set[str]:
    return {word for word in re.split(r"[\s\-,:;!?=\[\]()\"/]+", name.lower()) if word}


def _name_inside_another(cards: list[tuple[str, str, str]]) -> set[str]:
    """Cards every word of whose name is in another card's name."""
    return {card_id for _, card_id, name in cards if any(other != name and _words(name) <= _words(other) for _, _, other in cards)}


def _row_on_screen(page: Page, card_id: str) -> bool:
    row = page.locator(f'tr:has([id="card-{card_id}"])')
    return bool(row.evaluate("row => { const box = row.getBoundingClientRect(); return box.bottom > 0 && box.top < innerHeight && box.height > 0 }"))


def test_searching_a_card_name_lands_on_its_row(built_site: Path, reader: Reader) -> None:
    """For every card, typed into one page's search box: the result Enter
    follows is the card's row on its page, that page is the first result,
    and the Editing page is never first. Following each of those links to
    its row is checked on each page loaded once (moving to the row's anchor
    is what the browser does on arrival). For the first card of each pack,
    Enter is pressed for real and the landing checked: what Enter follows is
    the best result already checked for every card, and a real jump costs a
    page load and a search index (test_browser_phone.py makes a few more)."""
    wrong: list[str] = []
    page = reader.open(built_site / "index.html")
    cards = every_card()
    inside_another = _name_inside_another(cards)
    landing: dict[str, list[str]] = {}
    for (pack, card_id, name), groups in zip(cards, _search_all(page, [name for _, _, name in cards]), strict=True):
        best = urlsplit(_best(groups))
        first_page = urlsplit(groups[0][0][0]).path
        if card_id in inside_another:
            # Search cannot prefer an exact name ("Station") over a longer one
            # holding all its words ("B&O Station"): it must be listed.
            listed = [urlsplit(href) for group in groups for href, _ in group if href.endswith(f"#card-{card_id}")]
            if not listed:
                wrong.append(f"{pack}/{card_id}: searching {name!r} does not list it")
            else:
                landing.setdefault(listed[0].path, []).append(card_id)
            continue
        if best.fragment != f"card-{card_id}":
            wrong.append(f"{pack}/{card_id}: searching {name!r} leads to {best.path.rsplit('/', 1)[-1]}#{best.fragment}")
            continue
        if best.path != first_page:
            wrong.append(f"{pack}/{card_id}: the card's page is not the first result")
        if first_page.endswith("/editing.html"):
            wrong.append(f"{pack}/{card_id}: the Editing page is the first result")
        landing.setdefault(best.path, []).append(card_id)
    for path, card_ids in landing.items():
        page = reader.open(Path(path))
        for card_id in card_ids:
            page.evaluate("hash => { location.hash = hash }", f"card-{card_id}")
            if not _row_on_screen(page, card_id):
                wrong.append(f"{path.rsplit('/', 1)[-1]}: the row of {card_id} is not on screen at #card-{card_id}")
    names = {card_id: name for _, card_id, name in cards}
    firsts = {pack: card_id for pack, card_id, _ in reversed(cards) if card_id not in inside_another}
    for card_id in sorted(firsts.values()):
        page = reader.open(built_site / "index.html")
        _search(page, names[card_id])
        with page.expect_navigation():
            page.locator("input.md-search__input").press("Enter")
        if urlsplit(page.url).fragment != f"card-{card_id}" or not _row_on_screen(page, card_id):
            wrong.append(f"{card_id}: Enter after searching {names[card_id]!r} landed on {page.url.rsplit('/', 1)[-1]}")
    assert not wrong, "\n".join(wrong)
    assert not reader.problems, "\n".join(reader.problems)


def test_dealt_and_status_columns_fit_a_1280_px_screen(at_1280: Survey) -> None:
    assert at_1280.pages >= 10
    assert not at_1280.hidden_columns, "\n".join(at_1280.hidden_columns)


def test_no_page_is_wider_than_a_375_px_phone(at_375: Survey) -> None:
    assert at_375.pages >= 10
    assert not at_375.wide, "\n".join(at_375.wide)


def test_file_paths_break_only_after_a_slash_on_a_phone(at_375: Survey) -> None:
    assert not at_375.split_paths, "\n".join(at_375.split_paths)
