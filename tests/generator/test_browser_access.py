"""Accessibility of the built site: axe-core, the npm
package loaded from disk into each page, finds no serious and no critical
violation (nor two landmarks of one name) on any page at 1280 px in the light and the dark palette and at
375 px; and the keyboard alone reaches the search box, every table and every
box that scrolls.

axe-core is installed by the Makefile's venv step into .venv/axe where npm is
on PATH; without it these tests skip, saying so (fail under CI), like the
other browser tests without Chromium.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.kit.browser import Reader, unavailable
from tests.kit.project import PROJECT_ROOT
from tests.kit.site_survey import AXE, Survey, survey

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# One site build for every browser module: they all run on one worker.
pytestmark = pytest.mark.xdist_group("browser")


@pytest.fixture(scope="module")
def at_1280(built_site: Path, browser: Browser) -> Survey:
    """axe's findings on every page at 1280 px, light and dark (the 404 page too)."""
    return _audited(survey(built_site, browser, 1280))


@pytest.fixture(scope="module")
def at_375(built_site: Path, browser: Browser) -> Survey:
    return _audited(survey(built_site, browser, 375))


def _audited(found: Survey) -> Survey:
    if found.axe is None:
        unavailable(f"no {AXE.relative_to(PROJECT_ROOT)}: `make .venv/.installed` installs axe-core where npm is on PATH")
    return found


def test_no_serious_violation_at_1280_px_light(at_1280: Survey) -> None:
    assert at_1280.pages >= 10
    assert at_1280.axe is not None and not at_1280.axe, "\n".join(at_1280.axe or [])


def test_no_serious_violation_at_1280_px_dark(at_1280: Survey) -> None:
    assert at_1280.pages >= 10
    assert at_1280.axe_dark is not None and not at_1280.axe_dark, "\n".join(at_1280.axe_dark or [])


def test_no_serious_violation_at_375_px(at_375: Survey) -> None:
    assert at_375.pages >= 10
    assert at_375.axe is not None and not at_375.axe, "\n".join(at_375.axe or [])


# -- the keyboard ----------------------------------------------------------------

# Pages that hold each kind of box: many card tables, wide tables, charts.
KEYBOARD_PAGES = ["stationmaster/home-deck.html", "trickoftherails/components.html", "stationmaster/simulation.html"]

# Records every element that takes the focus, from the first Tab on.
_WATCH_FOCUS = "() => { window.__focused = []; document.addEventListener('focusin', event => window.__focused.push(event.target), true); }"

# True once the focus has gone round the page and come back to where it began.
_WENT_ROUND = "() => { const seen = window.__focused; return seen.length > 1 && seen.slice(1).includes(seen[0]); }"

# What the focus never reached: the search box, a table, or a box that
# scrolls. A table or box is reached when the focus lands on it or in it.
_MISSED = """() => {
    const seen = window.__focused;
    const reached = box => seen.some(one => box === one || box.contains(one));
    const scrolls = box => /auto|scroll/.test(getComputedStyle(box).overflowX + getComputedStyle(box).overflowY)
        && (box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight);
    const missed = [];
    if (!seen.some(one => one.matches('input.md-search__input'))) missed.push('the search box');
    document.querySelectorAll('.md-content table').forEach((table, index) => {
        if (!reached(table) && !seen.some(one => one.contains(table)))
            missed.push(`table ${index + 1} (${table.querySelector('th')?.textContent.trim()})`);
    });
    document.querySelectorAll('.md-content div, .md-content figure').forEach(box => {
        if (scrolls(box) && !reached(box) && !box.closest('.highlight'))
            missed.push(`scrolling ${box.tagName.toLowerCase()}.${box.className}`);
    });
    return missed;
}"""


def _tab_round(page: Page) -> None:
    """Press Tab until the focus has been round the whole page."""
    page.evaluate(_WATCH_FOCUS)
    for _ in range(100):
        for _ in range(25):
            page.keyboard.press("Tab")
        if page.evaluate(_WENT_ROUND):
            return
    raise AssertionError(f"{page.url}: the focus did not come round in 2,500 presses of Tab")


@pytest.mark.parametrize("width", [375, 1280])
def test_the_keyboard_reaches_search_every_table_and_scroll_box(built_site: Path, browser: Browser, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    try:
        reader, missed = Reader(context), list[str]()
        for name in KEYBOARD_PAGES:
            page = reader.open(built_site / name)
            _tab_round(page)
            missed.extend(f"{name} at {width} px: Tab never reaches {what}" for what in page.evaluate(_MISSED))
        assert not missed, "\n".join(missed)
    finally:
        context.close()


# -- the theme's partials ----------------------------------------------------------


@pytest.mark.parametrize("partial", ["search.html", "nav-item.html"])
def test_overridden_partials_follow_the_installed_theme(partial: str) -> None:
    """overrides/partials holds copies of two of Material's partials, each
    changed in one line (and a head comment); if the installed theme's own
    has changed since, the copy is stale and must be taken again."""
    material = pytest.importorskip("material")
    theirs = _without_head((Path(material.__file__).parent / "templates" / "partials" / partial).read_text(encoding="utf-8"))
    ours = _without_head((PROJECT_ROOT / "overrides" / "partials" / partial).read_text(encoding="utf-8"))
    changed = [line for line in difflib.unified_diff(theirs, ours, lineterm="", n=0) if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert len(changed) == 2, f"overrides/partials/{partial} differs from the installed Material's in more than its one line:\n" + "\n".join(changed)


def _without_head(template: str) -> list[str]:
    """A template's lines after its opening comment."""
    return template.split("-#}\n", 1)[1].splitlines()
