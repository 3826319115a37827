"""One pass over every page of the built site at a screen size, shared by
the browser test modules (tests/generator/test_browser*.py).

Loading a page is most of what a browser test costs, and axe-core's audit
of it most of the rest; the modules once loaded each page four times at
1280 px and three times at 375 px. Here each page is loaded once per size,
and everything any module asks of a page at that size is read during that
one visit: in an order that keeps the readings apart (the search index is
looked for before axe's script is added; the dark palette is switched on
last, since it changes the page). Each module then asserts only its own
part. The pass runs in whichever module asks first, with that module's
browser, and is kept for the rest of the worker's session (the browser
modules share one xdist group, so one worker).
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
# The screen size at which the dark palette is audited too.
DARK_WIDTH = 1280
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


_done: dict[tuple[Path, int], Survey] = {}


def survey(site: Path, browser: Browser, width: int) -> Survey:
    """The pass over ``site`` at ``width`` px, made on first asking."""
    key = (site, width)
    if key not in _done:
        _done[key] = _visit(site, browser, width)
    return _done[key]


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


def _visit(site: Path, browser: Browser, width: int) -> Survey:
    audit = AXE.exists()
    dark = audit and width == DARK_WIDTH
    found = Survey(width, axe=[] if audit else None, axe_dark=[] if dark else None)
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme="light")
    try:
        reader = Reader(context)
        for path in reader_pages(site):
            page, name = reader.open(path), path.relative_to(site).as_posix()
            found.pages += 1
            # The search index waits until the reader reaches for search
            # (test_browser_search.py shows search then works from disk).
            if page.evaluate("typeof __index") != "undefined":
                found.no_index.append(f"{name}: the search index loaded before anyone searched")
            found.hidden_columns.extend(f"{name}: {what}" for what in page.evaluate(_COLUMN_OVERFLOW, KEY_COLUMNS))
            scroll_width: Any = page.evaluate("document.documentElement.scrollWidth")
            if scroll_width > width:
                found.wide.append(f"{name}: {scroll_width} px wide")
            found.split_paths.extend(f"{name}: {piece!r} broken over two lines" for piece in page.evaluate(_SPLIT_PATH_PIECES))
            _audit(page, name, found, dark)
        found.problems = list(reader.problems)
        if audit:
            context.route(f"{ORIGIN}/**", lambda route: route.fulfill(path=site / route.request.url.removeprefix(ORIGIN + "/")))
            page = reader.page
            page.goto(f"{ORIGIN}/404.html")
            page.wait_for_load_state("load")
            found.pages += 1
            _audit(page, "404.html", found, dark)
        return found
    finally:
        context.close()


def _audit(page: Page, name: str, found: Survey, dark: bool) -> None:
    """axe on the page as loaded, then, when ``dark``, in the dark palette."""
    if found.axe is None:
        return
    found.axe.extend(f"{name} at {found.width} px, light: {line}" for line in run_axe(page))
    if dark and found.axe_dark is not None:
        background: Any = page.evaluate(_DARK)
        assert background != "rgb(255, 255, 255)", f"{name}: the dark palette did not apply"
        found.axe_dark.extend(f"{name} at {found.width} px, dark: {line}" for line in run_axe(page, COLOUR_RULES))
