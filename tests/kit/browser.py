"""The browser tests' plumbing: Debian's Chromium driven by Playwright, the
rule that turns a missing tool into a skip (a failure under CI), and the
reader's tab that records every error a page makes. The fixtures that build
the site and start the browser are in tests/generator/conftest.py, so the
browser test modules share one site build."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

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
