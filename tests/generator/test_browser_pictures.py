"""Pictures read on a phone: in headless Chromium at 375 px, every text of
every inline SVG on every page of the built site, both packs, is drawn at 11
CSS px or more: its computed font size times the scale its SVG is drawn at
(``getScreenCTM``), so a picture that shrinks to fit the column fails here
even when its own font sizes are large enough.

The site and the browser are the fixtures of ``conftest.py``; only pages
whose HTML holds SVG text are opened, each once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.kit import hang_guard

pytestmark = pytest.mark.xdist_group("browser")

try:
    from playwright.sync_api import Browser, Route
except ImportError:  # the dev dependencies are not installed: the fixtures skip
    pass

PHONE_WIDTH, PHONE_HEIGHT = 375, 812
SMALLEST = 11.0  # CSS px

# Every rendered <text> of every <svg>: its words, its size on screen, and
# which picture it is in (the SVG's label).
_MEASURE = """() => [...document.querySelectorAll('svg text')].flatMap(text => {
    const box = text.getBoundingClientRect();
    const ctm = text.getScreenCTM();
    if (!ctm || (!box.width && !box.height)) return [];
    const size = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(ctm.a, ctm.b);
    const svg = text.ownerSVGElement;
    const outer = svg.closest('[aria-label]:not(svg)');
    return [[text.textContent, size, svg.getAttribute('aria-label') || '', outer ? outer.getAttribute('aria-label') : '']];
})"""


@dataclass
class Measured:
    """Each page's SVG texts at 375 px: (words, CSS px, picture, group)."""

    texts: dict[str, list[tuple[str, float, str, str]]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def _pages_with_svg_text(site: Path) -> list[Path]:
    return sorted(path for path in site.rglob("*.html") if path.name != "404.html" and "<text" in path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def at_375(built_site: Path, browser: Browser) -> Iterator[Measured]:
    context = browser.new_context(viewport={"width": PHONE_WIDTH, "height": PHONE_HEIGHT})
    context.set_default_timeout(hang_guard.HANG_GUARD * 1000)
    measured = Measured()

    def local_only(route: Route) -> None:
        if route.request.url.startswith(("file://", "data:", "blob:", "about:")):
            route.continue_()
        else:
            measured.problems.append(f"asked for {route.request.url}")
            route.abort()

    context.route("**/*", local_only)
    try:
        page = context.new_page()
        for path in _pages_with_svg_text(built_site):
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            found: Any = page.evaluate(_MEASURE)
            measured.texts[path.relative_to(built_site).as_posix()] = [(str(w), float(s), str(p), str(g)) for w, s, p, g in found]
        yield measured
    finally:
        context.close()


def test_no_svg_text_is_smaller_than_11_css_px_on_a_phone(at_375: Measured) -> None:
    small = [f"{page}: {words!r} in {picture or group!r}: {size:.1f} px" for page, texts in at_375.texts.items() for words, size, picture, group in texts if size < SMALLEST - 0.01]
    assert not small, "\n".join(small)
    assert not at_375.problems, "\n".join(at_375.problems)


def test_the_measure_saw_the_pictures_of_both_packs(at_375: Measured) -> None:
    """The test above measured something: every Trick Lane's slots on the
    rules page, and the simulation charts of both games."""
    rules = at_375.texts["trickoftherails/rules.html"]
    lanes = {group for _, _, _, group in rules if group.startswith("The Trick Lane for ")}
    assert len(lanes) == 6, lanes
    assert any(picture.startswith("Trick 1: ") for _, _, picture, _ in rules)
    for pack in ("stationmaster", "trickoftherails"):
        assert at_375.texts.get(f"{pack}/simulation.html"), f"no chart text measured on {pack}/simulation.html"
