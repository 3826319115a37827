"""The browser tests' plumbing: Debian's Chromium driven by Playwright, the
rule that turns a missing tool into a skip (a failure under CI), and the
reader's tab that records every error a page makes. The fixtures that build
the site and start the browser are in tests/generator/conftest.py, so the
browser test modules share one site build."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit

import pytest

from tests.kit import hang_guard
from tests.kit.project import PROJECT_ROOT

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, Route

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright
except ImportError:  # the dev dependencies are not installed: the tests skip
    sync_playwright = None  # type: ignore[assignment]
    PlaywrightError = Exception  # type: ignore[assignment,misc]

__all__ = ["CHROMIUM", "MKDOCS", "PlaywrightError", "Reader", "reader_pages", "sync_playwright", "unavailable"]

# Debian's Chromium; STATIONMASTER_CHROMIUM names another Chromium-based browser
# (GitHub's Ubuntu runners have Chrome instead).
CHROMIUM = Path(os.environ.get("STATIONMASTER_CHROMIUM", "/usr/bin/chromium"))
MKDOCS = PROJECT_ROOT / ".venv" / "bin" / "mkdocs"


def unavailable(why: str) -> NoReturn:
    """Skip, saying how to run these tests; under CI a skip is a failure."""
    message = f"browser tests not run: {why}"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set, so this fails instead of skipping)", pytrace=False)
    pytest.skip(message)


def reader_pages(site: Path) -> list[Path]:
    """Every page a reader reaches by browsing. 404.html is left out: a web
    server sends it for a missing address, and its links are absolute."""
    return sorted(path for path in site.rglob("*.html") if path.name != "404.html")


class Reader:
    """One browser tab that records what the site must never do: write an
    error to the console, throw, fail to load a file of its own, or ask
    anything of a server (every request is ``file://``)."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.problems: list[str] = []
        # Every wait (a load, a search result) ends at the hang guard, not at
        # Playwright's 30 s default: on a loaded machine slow is not broken.
        context.set_default_timeout(hang_guard.HANG_GUARD * 1000)
        context.route("**/*", self._route)
        self.page = context.new_page()
        self.page.on("console", lambda message: self._console(message.type, message.text))
        self.page.on("pageerror", lambda error: self.problems.append(f"{self.page.url}: uncaught: {error}"))
        self.page.on("requestfailed", self._failed)

    def _route(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(("file://", "data:", "blob:", "about:")):
            route.continue_()
        else:
            self.problems.append(f"{self.page.url}: asked for {url}")
            route.abort()

    def _failed(self, request: Any) -> None:
        # Moving on to the next page cancels what the last one still loads
        # (its favicon, say): that is not a missing file.
        if request.failure != "net::ERR_ABORTED":
            self.problems.append(f"{self.page.url}: failed to load {request.url}: {request.failure}")

    def _console(self, kind: str, text: str) -> None:
        if kind == "error":
            self.problems.append(f"{self.page.url}: console error: {text}")

    def open(self, path: Path) -> Page:
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")
        return self.page


# -- searching as a reader does -------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """One link of the result list, as the reader sees it."""

    href: str
    score: float
    title: str
    preview: str
    labels: tuple[str, ...]

    @property
    def target(self) -> str:
        """The page and anchor it leads to, without the highlight query."""
        parts = urlsplit(self.href)
        return parts.path.rsplit("/", 2)[-2] + "/" + parts.path.rsplit("/", 1)[-1] + ("#" + parts.fragment if parts.fragment else "")


# Types each query into the search box (Material searches on keyup) and reads
# the list once it holds new items: every link with its score, title, the
# preview text and the labels.
_SEARCH = """async texts => {
    const box = document.querySelector('input.md-search__input');
    box.focus();
    const first = () => document.querySelector('.md-search-result__item');
    const settle = async wantItems => {
        for (let waited = 0; waited < 20000; waited += 10) {
            if (wantItems ? first() : !first()) return;
            await new Promise(done => setTimeout(done, 10));
        }
        throw new Error('search results did not come');
    };
    const type = text => {
        box.value = text;
        box.dispatchEvent(new KeyboardEvent('keyup', {key: 'End', bubbles: true}));
    };
    const out = [];
    for (const text of texts) {
        type('');
        await settle(false);
        type(text);
        await settle(true);
        out.push([...document.querySelectorAll('.md-search-result__item')].map(item =>
            [...item.querySelectorAll('a.md-search-result__link')].map(a => {
                const article = a.firstElementChild;
                const rest = article.cloneNode(true);
                for (const part of rest.querySelectorAll('h1, h2, nav, .md-search-result__icon')) part.remove();
                return {
                    href: a.getAttribute('href'),
                    score: parseFloat(article.getAttribute('data-md-score')),
                    title: (article.querySelector('h1, h2') || {textContent: ''}).textContent.trim(),
                    preview: rest.textContent.replace(/\\s+/g, ' ').trim(),
                    labels: [...article.querySelectorAll('.md-tag')].map(tag => tag.textContent.trim()),
                };
            })));
    }
    return out;
}"""


def search(page: Page, texts: list[str]) -> list[list[list[Hit]]]:
    """The result list for each of ``texts``: groups (one per page) of hits."""
    found: Any = page.evaluate(_SEARCH, texts)
    return [[[Hit(hit["href"], hit["score"], hit["title"], hit["preview"], tuple(hit["labels"])) for hit in group] for group in groups] for groups in found]
