"""One pass over every page of the built site, at a desk's screen (1280
px) and a phone's (375 px), shared by the browser test modules
(tests/generator/test_browser*.py).

Loading a page is most of what a browser test costs, and axe-core's audit
of it most of the rest; the modules once loaded each page four times at
1280 px and three times at 375 px. Here each page is loaded once, and
everything any module asks of it is read during that one visit, in an
order that keeps the readings apart: the search index is looked for before
axe's script is added; the dark palette is switched on after the light one
is audited, and off again; then the window is narrowed to a phone's and
read again; last, on a phone, the page is scrolled to every card's anchor.
Each module then asserts only its own part. The pass runs in whichever
module asks first, with that module's browser, and is kept for the rest of
the worker's session (the browser modules share one xdist group, so one
worker).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.kit.browser import Reader, reader_pages
from tests.kit.project import PROJECT_ROOT

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

AXE = PROJECT_ROOT / ".venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0 and 2.1 at levels A and AA, and Deque's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
# Findings of these rules fail the tests at any impact: axe calls two
# landmarks of one name "moderate", but a screen reader's list of landmarks
# then offers two entries it cannot tell apart.
ALWAYS = ["landmark-unique"]
# The rules whose outcome depends on colours: the only ones the dark palette
# can change, so the only ones run again after switching to it.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
# The desk's screen, at which the dark palette is audited too.
DARK_WIDTH, DESK_HEIGHT = 1280, 800
# The phone's screen, where a jump to a card is checked and tables must fit.
PHONE_WIDTH, PHONE_HEIGHT = 375, 812
# The folders of the games' own pages (the kit's pages hold no card table).
GAME_FOLDERS = ("stationmaster", "trickoftherails")
# A web server sends 404.html for any missing address, so its links are
# absolute: it is opened from this made-up origin, answered from the build.
ORIGIN = "http://site.invalid"

_AXE_RUN = """async ([tags, rules, always]) => {
    const only = rules ? {type: 'rule', values: rules} : {type: 'tag', values: tags};
    // No preload: axe would fetch the page's stylesheets itself, which a
    // browser refuses from file:// with an error on the console (the one
    // rule that reads them, css-orientation-lock, then has nothing to say).
    const found = await axe.run(document, {runOnly: only, resultTypes: ['violations'], preload: false});
    return found.violations
        .filter(rule => rule.impact === 'serious' || rule.impact === 'critical' || always.includes(rule.id))
        .flatMap(rule => rule.nodes.map(node =>
            `${rule.id} (${rule.impact}) at ${node.target.join(' ')}: ${node.failureSummary.split('\\n')[1].trim()}`));
}"""

# Back to the light palette (the transitions stay stopped).
_LIGHT = "() => document.body.setAttribute('data-md-color-scheme', 'default')"

# The palette switch as the theme's toggle makes it, with the theme's colour
# transitions stopped: axe would read colours halfway between the two.
_DARK = """() => {
    const still = document.createElement('style');
    still.textContent = '*, *::before, *::after { transition: none !important; }';
    document.head.append(still);
    document.body.setAttribute('data-md-color-scheme', 'slate');
    return getComputedStyle(document.body).backgroundColor;
}"""

# Header cells named in ``headings`` that end outside the screen or outside
# the box their table scrolls in.
_COLUMN_OVERFLOW = """headings => {
    const out = [];
    for (const th of document.querySelectorAll('.md-content table th')) {
        const label = th.textContent.trim();
        if (!headings.includes(label)) continue;
        const box = th.getBoundingClientRect();
        const wrap = th.closest('.md-typeset__scrollwrap') || th.closest('table').parentElement;
        const frame = wrap.getBoundingClientRect();
        if (box.right > Math.min(innerWidth, frame.right) + 1 || box.left < Math.max(0, frame.left) - 1)
            out.push(`${label} column at ${Math.round(box.left)}-${Math.round(box.right)} px, visible ${Math.round(frame.left)}-${Math.round(Math.min(innerWidth, frame.right))} px`);
    }
    return out;
}"""
# The columns a reader at a desk must see without scrolling sideways.
KEY_COLUMNS = ["Dealt", "Status"]

# For each file path marked with <wbr> after its slashes, the pieces between
# the marks that the browser split over more than one line.
_SPLIT_PATH_PIECES = """() => {
  const split = [];
  for (const code of document.querySelectorAll("code")) {
    if (!code.querySelector("wbr")) continue;
    for (const node of code.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) split.push(node.textContent);
    }
  }
  return split;
}"""


# Moving to each card's anchor as a jump does (setting the fragment scrolls
# at once), or, given one card's anchor, staying where a real jump landed;
# then where the landed card stands against the top bar and its
# table's headings: for the name cell (the cell holding the anchor) and each
# heading cell, its box and whether the point at its centre shows the cell
# itself (and not the top bar drawn over it). One line a card out of view.
_LANDINGS = """landed => {
    const bar = () => document.querySelector('.md-header').getBoundingClientRect().bottom;
    const seen = element => {
        const box = element.getBoundingClientRect();
        const hit = document.elementFromPoint(Math.min(box.left + box.width / 2, innerWidth - 1), box.top + Math.min(box.height / 2, 8));
        return {top: box.top, bottom: box.bottom, left: box.left, right: box.right, shown: !!hit && element.contains(hit),
                text: element.textContent.trim().slice(0, 30)};
    };
    const found = [];
    const anchors = landed ? [document.getElementById(landed)].filter(Boolean)
        : [...document.querySelectorAll('.md-content td [id^="card-"], .md-content td[id^="card-"]')];
    for (const anchor of anchors) {
        if (!landed) location.hash = anchor.id;
        const top = bar(), cell = seen(anchor.closest('td'));
        const name = anchor.id.slice('card-'.length);
        if (!(cell.top >= top - 1 && cell.bottom <= innerHeight && cell.shown))
            found.push(`${name}: its name cell at ${Math.round(cell.top)}-${Math.round(cell.bottom)} px is not in view below the top bar (bottom ${Math.round(top)} px)`);
        for (const heading of [...anchor.closest('table').querySelectorAll('thead th')].map(seen)) {
            const inside = heading.top >= top - 1 && heading.bottom <= cell.top + 1 && heading.right <= innerWidth + 1 && heading.left >= -1;
            if (!(inside && heading.shown))
                found.push(`${name}: heading '${heading.text}' at ${Math.round(heading.top)}-${Math.round(heading.bottom)} px is not in view between the top bar (${Math.round(top)} px) and the row (${Math.round(cell.top)} px)`);
        }
    }
    return [anchors.length, found];
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
class Survey:
    """What one pass at ``width`` px found, one line a finding. ``axe`` and
    ``axe_dark`` are None where axe-core is not installed (or, for the dark
    palette, at a size it is not audited at)."""

    width: int
    pages: int = 0
    problems: list[str] = field(default_factory=list)
    no_index: list[str] = field(default_factory=list)
    hidden_columns: list[str] = field(default_factory=list)
    wide: list[str] = field(default_factory=list)
    split_paths: list[str] = field(default_factory=list)
    axe: list[str] | None = None
    axe_dark: list[str] | None = None
    # On a phone only: the games' tables and cards, and the findings.
    tables: int = 0
    wide_tables: list[str] = field(default_factory=list)
    landings: int = 0
    hidden_landings: list[str] = field(default_factory=list)


_done: dict[tuple[Path, int], Survey] = {}


def survey(site: Path, browser: Browser, width: int) -> Survey:
    """The pass over ``site`` at ``width`` px (one of WIDTHS), made on
    first asking (with the other width's, in the same visits)."""
    if (site, width) not in _done:
        for one in _visit(site, browser):
            _done[(site, one.width)] = one
    return _done[(site, width)]


def run_axe(page: Page, rules: list[str] | None = None) -> list[str]:
    """axe-core's serious and critical findings on ``page`` (``rules`` only,
    or every rule of TAGS), loading its script into the page first."""
    if not page.evaluate("typeof axe === 'object'"):
        if page.url.startswith("file:"):
            page.add_script_tag(url=AXE.as_uri())
        else:
            page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found: list[str] = page.evaluate(_AXE_RUN, [TAGS, rules, ALWAYS])
    return found


def _visit(site: Path, browser: Browser) -> tuple[Survey, Survey]:
    """Every page loaded once, at the desk's width: read there, in the light
    palette and then the dark; then the light palette again, the window
    narrowed to a phone's, and read there (the page's own scripts see the
    resize as a reader turning a tablet would make them). Loading was most
    of what a pass cost, so this is one load per page, not one per size."""
    audit = AXE.exists()
    desk = Survey(DARK_WIDTH, axe=[] if audit else None, axe_dark=[] if audit else None)
    phone = Survey(PHONE_WIDTH, axe=[] if audit else None)
    context = browser.new_context(viewport={"width": DARK_WIDTH, "height": DESK_HEIGHT}, color_scheme="light")
    try:
        reader = Reader(context)
        for path in reader_pages(site):
            page, name = reader.page, path.relative_to(site).as_posix()
            page.set_viewport_size({"width": DARK_WIDTH, "height": DESK_HEIGHT})
            seen = len(reader.problems)
            reader.open(path)
            # The search index waits until the reader reaches for search
            # (test_browser_search.py shows search then works from disk).
            if page.evaluate("typeof __index") != "undefined":
                desk.no_index.append(f"{name}: the search index loaded before anyone searched")
            # Only a desk's screen is asked to show the key columns without scrolling.
            desk.hidden_columns.extend(f"{name}: {what}" for what in page.evaluate(_COLUMN_OVERFLOW, KEY_COLUMNS))
            _read(page, name, desk)
            desk.problems.extend(reader.problems[seen:])
            seen = len(reader.problems)
            page.set_viewport_size({"width": PHONE_WIDTH, "height": PHONE_HEIGHT})
            _read(page, name, phone)
            if path.parent.name in GAME_FOLDERS:
                _phone_tables(page, name, phone)
            phone.problems.extend(reader.problems[seen:])
        if audit:
            context.route(f"{ORIGIN}/**", lambda route: route.fulfill(path=site / route.request.url.removeprefix(ORIGIN + "/")))
            page = reader.page
            page.set_viewport_size({"width": DARK_WIDTH, "height": DESK_HEIGHT})
            page.goto(f"{ORIGIN}/404.html")
            page.wait_for_load_state("load")
            for found, size in ((desk, DARK_WIDTH), (phone, PHONE_WIDTH)):
                page.set_viewport_size({"width": size, "height": DESK_HEIGHT if size == DARK_WIDTH else PHONE_HEIGHT})
                found.pages += 1
                _audit(page, "404.html", found)
        return desk, phone
    finally:
        context.close()


def _read(page: Page, name: str, found: Survey) -> None:
    """What both sizes ask of ``page``, at the size it is now, into ``found``."""
    found.pages += 1
    scroll_width: Any = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width > found.width:
        found.wide.append(f"{name}: {scroll_width} px wide")
    found.split_paths.extend(f"{name}: {piece!r} broken over two lines" for piece in page.evaluate(_SPLIT_PATH_PIECES))
    _audit(page, name, found)


def _phone_tables(page: Page, name: str, found: Survey) -> None:
    """The tables' widths, then a jump to every card of the page."""
    found.tables += int(page.evaluate("document.querySelectorAll('.md-content table').length"))
    found.wide_tables.extend(f"{name}: {line}" for line in page.evaluate(_WIDE_TABLES))
    cards, hidden = page.evaluate(_LANDINGS, None)
    found.landings += cards
    found.hidden_landings.extend(f"{name}#card-{line}" for line in hidden)


def landing_problems(page: Page, card_id: str) -> list[str]:
    """Where a real jump to ``card_id`` left it and its table's headings."""
    cards, hidden = page.evaluate(_LANDINGS, f"card-{card_id}")
    return list(hidden) if cards else [f"{card_id}: no anchor card-{card_id} on the page landed on"]


def _audit(page: Page, name: str, found: Survey) -> None:
    """axe on the page as it is, then, where ``found`` keeps the dark
    palette's findings, in the dark palette, and back to the light."""
    if found.axe is None:
        return
    found.axe.extend(f"{name} at {found.width} px, light: {line}" for line in run_axe(page))
    if found.axe_dark is not None:
        background: Any = page.evaluate(_DARK)
        assert background != "rgb(255, 255, 255)", f"{name}: the dark palette did not apply"
        found.axe_dark.extend(f"{name} at {found.width} px, dark: {line}" for line in run_axe(page, COLOUR_RULES))
        page.evaluate(_LIGHT)
