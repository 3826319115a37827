"""Fixtures of the browser tests (``test_browser*.py``): the project's site,
built once a session, and one headless Chromium per module. Tests that use
them carry ``pytest.mark.xdist_group("browser")``, so one worker builds the
site once for all of them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kit import hang_guard
from tests.kit.browser import CHROMIUM, MKDOCS, unavailable
from tests.kit.cli import subprocess_env
from tests.kit.project import PROJECT_ROOT

try:
    from playwright.sync_api import Browser, sync_playwright
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # the dev dependencies are not installed
    sync_playwright = None  # type: ignore[assignment]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's site, built once for the session into a scratch folder."""
    if not MKDOCS.exists():
        unavailable("no .venv/bin/mkdocs (run `make .venv/.installed`)")
    out = tmp_path_factory.mktemp("browser") / "site"
    proc = hang_guard.run([MKDOCS, "build", "--strict", "--site-dir", out], "mkdocs build --strict to end", cwd=PROJECT_ROOT, env=subprocess_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for this module's tests, closed when they end:
    Playwright's sync API keeps an event loop running in this thread while
    it is open, and later tests in the same worker may need to run their own."""
    if sync_playwright is None:
        unavailable("Playwright is not installed; it is a dev dependency: `make .venv/.installed`")
    if not CHROMIUM.exists():
        unavailable(f"no {CHROMIUM}; install Debian's Chromium: `apt-get install chromium`")
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=str(CHROMIUM), timeout=hang_guard.HANG_GUARD * 1000)
        except PlaywrightError as exc:
            unavailable(f"{CHROMIUM} did not start: {exc.message.splitlines()[0]}")
        yield launched
        launched.close()
