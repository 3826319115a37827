"""Search as a reader at the table uses it, in
headless Chromium on the built site, from disk (``file://``) and served.

Each result says what it found (game, page and kind of card as labels, a
preview whose cells are named); a card named as typed comes first, from the
reader's own game; a query that matches cards of both games lists both. No
page loads the search index or its worker until the reader reaches for
search, and search then works, from disk and from a server, with every
card's entry (``site/assets/search/cards.js``, which ``stationmaster cards``
writes: the MkDocs plugin is not needed for them). ``404.html``
opened from disk loads with no error, and served at any depth it still
finds its styles.

Each page is opened once in a module-scoped context; the searches run on it.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.kit.browser import Hit, Reader, search

pytestmark = pytest.mark.xdist_group("browser")

try:
    from playwright.sync_api import Browser, ConsoleMessage, Request, Route
except ImportError:  # the dev dependencies are not installed: the fixtures skip
    pass

SERVED = "http://rules.test"


def best(groups: list[list[Hit]]) -> Hit:
    """What Enter follows: the best-scored link of the first result."""
    return max(groups[0], key=lambda hit: hit.score)


def card_hits(groups: list[list[Hit]]) -> list[Hit]:
    return [hit for group in groups for hit in group if "#card-" in hit.href]


@dataclass
class Visit:
    """What opening a page and then searching on it showed."""

    before_search: list[str]
    results: dict[str, list[list[Hit]]]
    after_search: list[str]


def _open_and_search(reader: Reader, url: str, texts: list[str], requested: list[str]) -> Visit:
    requested.clear()
    page = reader.page
    page.goto(url)
    # Material asks for the index and starts its worker while the page loads, if it is to at all.
    page.wait_for_load_state("load")
    before = list(requested)
    results = dict(zip(texts, search(page, texts), strict=True))
    return Visit(before, results, list(requested))


@dataclass
class FromDisk:
    """The pages opened from disk: each game's visit, what went wrong while
    searching, and 404.html's problems and header layout."""

    visits: dict[str, Visit]
    # On a phone: what loaded before and after a tap on the search icon.
    phone_before_tap: list[str]
    phone_after_tap: list[str]
    problems: list[str]
    problems_404: list[str]
    header_404: str


@pytest.fixture(scope="module")
def from_disk(built_site: Path, browser: Browser) -> FromDisk:
    """A Station Master card page and a Trick of the Rails page opened from
    disk, searched; then 404.html opened from disk."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    reader = Reader(context)
    requested: list[str] = []
    reader.page.on("request", lambda request: requested.append(request.url))
    try:
        visits = {
            "stationmaster": _open_and_search(reader, (built_site / "stationmaster/home-deck.html").as_uri(), ["Station", "Red Flag", "Depot", "Maneuver"], requested),
            "trickoftherails": _open_and_search(reader, (built_site / "trickoftherails/rules.html").as_uri(), ["Station"], requested),
        }
        requested.clear()
        reader.page.set_viewport_size({"width": 375, "height": 740})
        # Material asks for both while the page loads, if it is to at all.
        page = reader.open(built_site / "stationmaster/mainline.html")
        phone_before = list(requested)
        if _index_or_worker(phone_before):  # loaded already: nothing to wait for (and the test fails)
            page.locator("label.md-header__button[for='__search']").click()
        else:
            with page.expect_request(lambda request: "workers/search" in request.url), page.expect_request(lambda request: "search/search_index" in request.url):
                page.locator("label.md-header__button[for='__search']").click()
        phone_after = list(requested)
        problems = list(reader.problems)
        reader.problems.clear()
        page = reader.open(built_site / "404.html")
        page.wait_for_load_state("load")
        # Its own styles are there: Material's header is laid out, not bare text.
        header: str = page.evaluate("getComputedStyle(document.querySelector('.md-header')).position")
        return FromDisk(visits, phone_before, phone_after, problems, list(reader.problems), header)
    finally:
        context.close()


def _index_or_worker(urls: list[str]) -> list[str]:
    return [url for url in urls if "search/search_index" in url or "workers/search" in url]


def test_no_page_loads_the_search_index_until_the_reader_searches(from_disk: FromDisk) -> None:
    for game, visit in from_disk.visits.items():
        assert not _index_or_worker(visit.before_search), f"{game}: loaded before any search: {_index_or_worker(visit.before_search)}"
        assert any("search/search_index.js" in url for url in visit.after_search), f"{game}: searching did not load the index from disk"
        assert all(groups for groups in visit.results.values()), f"{game}: a search from disk found nothing"
    assert not _index_or_worker(from_disk.phone_before_tap), _index_or_worker(from_disk.phone_before_tap)
    assert len(_index_or_worker(from_disk.phone_after_tap)) == 2, f"a tap on the search icon did not load the index and worker: {from_disk.phone_after_tap}"
    assert not from_disk.problems, "\n".join(from_disk.problems)


def test_each_result_names_its_game_page_and_kind_and_labels_its_cells(from_disk: FromDisk) -> None:
    visits = from_disk.visits
    red_flag = next(hit for hit in card_hits(visits["stationmaster"].results["Red Flag"]) if hit.target.endswith("#card-red-flag"))
    assert red_flag.labels == ("Station Master", "Home Deck", "Maneuver")
    assert red_flag.preview.startswith("Dealt: ") and " · Status: working" in red_flag.preview and " · Effect: " in red_flag.preview
    for hit in card_hits(visits["stationmaster"].results["Station"]) + card_hits(visits["trickoftherails"].results["Station"]):
        game = "Station Master" if hit.target.startswith("stationmaster/") else "Trick of the Rails"
        assert hit.labels[:1] == (game,) and len(hit.labels) == 3, f"{hit.target}: labelled {hit.labels}"
        assert ": " in hit.preview, f"{hit.target}: preview with no named cell: {hit.preview!r}"
    # The labels are shown, not searched: a kind's name finds no card by its label alone.
    assert not [hit.target for hit in card_hits(visits["stationmaster"].results["Maneuver"]) if hit.target.endswith("#card-red-flag")]


def test_a_card_named_as_typed_comes_first_from_the_readers_own_game(from_disk: FromDisk) -> None:
    visits = from_disk.visits
    on_station_master = visits["stationmaster"].results["Station"]
    assert best(on_station_master).target == "stationmaster/home-deck.html#card-station"
    on_trick_of_the_rails = visits["trickoftherails"].results["Station"]
    assert best(on_trick_of_the_rails).target.startswith("trickoftherails/components.html#card-"), best(on_trick_of_the_rails).target
    assert best(on_trick_of_the_rails).title.endswith("Station")
    # Both games' cards are listed either way.
    for groups in (on_station_master, on_trick_of_the_rails):
        games = {hit.target.split("/", 1)[0] for hit in card_hits(groups)}
        assert games == {"stationmaster", "trickoftherails"}, games
    # A name only one game has leads to it, whatever page the reader is on.
    assert best(visits["stationmaster"].results["Depot"]).target == "stationmaster/home-deck.html#card-depot"


def test_404_opened_from_disk_loads_with_no_error(from_disk: FromDisk) -> None:
    assert not from_disk.problems_404, "\n".join(from_disk.problems_404)
    assert from_disk.header_404 == "sticky"


@pytest.fixture(scope="module")
def served(built_site: Path, browser: Browser) -> Iterator[tuple[Visit, list[str], list[str]]]:
    """The site as a web server sends it (answered from the build folder, a
    missing page answered with 404.html): a card page searched, then a
    missing page two folders deep."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    failed: list[str] = []

    def answer(route: Route) -> None:
        path = urlsplit(route.request.url).path.lstrip("/") or "index.html"
        file = built_site / path
        if file.is_file():
            route.fulfill(status=200, body=file.read_bytes(), content_type=mimetypes.guess_type(path)[0] or "application/octet-stream")
        else:
            route.fulfill(status=404, body=(built_site / "404.html").read_bytes(), content_type="text/html")

    context.route(f"{SERVED}/**", answer)
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    missing = f"{SERVED}/stationmaster/no/such-page.html"

    def console(message: ConsoleMessage) -> None:
        # The missing page's own 404 is the point; anything else is a fault.
        if message.type == "error" and message.location.get("url") != missing:
            failed.append(f"{message.location.get('url')}: {message.text}")

    page.on("console", console)

    def response_failed(request: Request) -> None:
        response = request.response()
        if request.resource_type != "document" and response is not None and response.status >= 400:
            failed.append(f"{request.url}: {response.status}")

    page.on("requestfinished", response_failed)
    try:
        page.goto(f"{SERVED}/stationmaster/home-deck.html")
        page.wait_for_load_state("load")
        before = list(requested)
        results = dict(zip(["Station"], search(page, ["Station"]), strict=True))
        visit = Visit(before, results, list(requested))
        failed_on_card_page = list(failed)
        failed.clear()
        page.goto(missing)
        page.wait_for_load_state("load")
        styled = page.evaluate("getComputedStyle(document.querySelector('.md-header')).position")
        yield visit, failed_on_card_page, failed + ([] if styled == "sticky" else [f"404 page unstyled ({styled})"])
    finally:
        context.close()


def test_served_search_waits_for_the_reader_and_works_and_404_still_finds_its_files(served: tuple[Visit, list[str], list[str]]) -> None:
    """Served, the index is read once search is wanted; and the 404 page,
    made to work from disk, still finds its files at any depth."""
    visit, failed, failed_404 = served
    assert not _index_or_worker(visit.before_search), _index_or_worker(visit.before_search)
    assert any("search/search_index.json" in url for url in visit.after_search)
    assert best(visit.results["Station"]).target == "stationmaster/home-deck.html#card-station"
    assert not failed + failed_404, "\n".join(failed + failed_404)


def test_a_query_typed_while_the_cards_entries_load_is_answered(built_site: Path, browser: Browser) -> None:
    """The index goes to the search worker only once the cards' entries have
    come; a query typed before then must wait for it, not reach the worker
    first and find nothing. cards.js is held back until the query is typed."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        reader, held = Reader(context), list[Route]()
        context.route("**/assets/search/cards.js", lambda route: held.append(route))
        page = reader.open(built_site / "trickoftherails" / "index.html")
        box = page.locator("input.md-search__input")
        box.click()
        page.wait_for_function("() => typeof __index !== 'undefined'")
        box.fill("ERIE")
        box.press("End")  # Material searches on keyup
        assert len(held) == 1, "the cards' entries were not asked for when the reader reached for search"
        held[0].continue_()
        page.locator(".md-search-result__item").first.wait_for()
        assert "ERIE" in page.locator(".md-search-result__item").first.inner_text()
        assert not reader.problems, "\n".join(reader.problems)
    finally:
        context.close()
