"""What each page of the rules site weighs when a reader opens it, beside
the same figure for an earlier revision built the same way in the same run
(issue 25: at most 300 KB for a card page, the search index left out).

A page's weight is the uncompressed bytes of every file the browser loads on
opening it from disk (``file://``), the page itself, its styles, scripts,
pictures and the search worker, but not the search index, which is one file
shared by every page. Beside it, "own" counts only what not every page loads
(mostly the page's HTML): what a reader's next page costs once the theme's
styles and scripts are in the browser's cache. Headless Chromium (Debian's, driven by Playwright, as
the browser tests do) opens each page, waits until it has loaded and gone
quiet, and adds up what it read.

The earlier revision is checked out into a scratch git worktree and built
with this checkout's virtual environment, its own code first on the import
path (as ``bench/site_build.py`` does).
Usage: python bench/page_weight.py [--root CHECKOUT] [--against REV]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Response, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

HERE = Path(__file__).resolve().parent.parent
# Main just before issue 25.
BEFORE = "ae41792"
CARD_PAGE_LIMIT = 300_000
CHROMIUM = Path(os.environ.get("STATIONMASTER_CHROMIUM", "/usr/bin/chromium"))
# The shared search data: the index, and the cards' entries added to it.
SHARED_INDEX = ("search/search_index.", "assets/search/cards.js")


def build(root: Path, out: Path, code: Path | None = None) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if code is not None:
        env["PYTHONPATH"] = str(code)
    subprocess.run([str(HERE / ".venv" / "bin" / "mkdocs"), "build", "--quiet", "--site-dir", str(out)], cwd=root, env=env, check=True, capture_output=True, timeout=600)


def is_card_page(path: Path) -> bool:
    return 'id="card-' in path.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Weight:
    total: int  # every file the page loads, the search index left out
    own: int  # of which, the files not every page loads


def weigh(browser: Browser, site: Path) -> dict[str, Weight]:
    """Bytes each page loads on opening, the shared search index left out."""
    loads: dict[str, dict[str, int]] = {}
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        for path in sorted(site.rglob("*.html")):
            page = context.new_page()
            loaded: dict[str, int] = {}

            def count(response: Response, into: dict[str, int] = loaded) -> None:
                try:
                    into[response.url] = len(response.body())
                except Exception:  # noqa: BLE001  (a response with no body weighs nothing)
                    into[response.url] = 0

            page.on("response", count)
            page.goto(path.as_uri(), timeout=120_000)
            try:
                page.wait_for_load_state("networkidle", timeout=120_000)
            except PlaywrightTimeout:  # a busy machine: count what has come
                print(f"{path.name}: not quiet after 120 s; counted what had loaded", file=sys.stderr)
            page.close()
            loads[path.relative_to(site).as_posix()] = {url: size for url, size in loaded.items() if not any(shared in url for shared in SHARED_INDEX)}
    finally:
        context.close()
    everywhere = set.intersection(*(set(urls) for name, urls in loads.items() if name != "404.html"))
    return {name: Weight(sum(urls.values()), sum(size for url, size in urls.items() if url not in everywhere)) for name, urls in loads.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to build (default: this one)")
    parser.add_argument("--against", default=BEFORE, metavar="REV", help=f"the revision to compare with (default {BEFORE}, before issue 25; '' for none)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    with tempfile.TemporaryDirectory(prefix="page-weight-") as scratch, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        now_site = Path(scratch) / "now"
        build(root, now_site)
        now = weigh(browser, now_site)
        then: dict[str, Weight] = {}
        if args.against:
            tree = Path(scratch) / "tree"
            subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "--quiet", str(tree), args.against], check=True)
            try:
                build(tree, Path(scratch) / "then", code=tree)
                then = weigh(browser, Path(scratch) / "then")
            finally:
                subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], check=False)
        browser.close()
        cards = {name for name in now if is_card_page(now_site / name)}
    print(f"{'page':<40} {'now KB':>8} {'own':>7} {args.against + ' KB' if args.against else '':>12} {'own':>7}")
    for name, weight in now.items():
        old = then.get(name)
        before = f"{old.total / 1000:>12.1f} {old.own / 1000:>7.1f}" if old else ""
        mark = " card page" + (" (over 300 KB)" if weight.total > CARD_PAGE_LIMIT else "") if name in cards else ""
        print(f"{name:<40} {weight.total / 1000:>8.1f} {weight.own / 1000:>7.1f} {before}{mark}")
    heaviest = max(cards, key=lambda name: now[name].total, default="")
    if heaviest:
        weight = now[heaviest]
        print(f"heaviest card page: {heaviest}, {weight.total / 1000:.1f} KB (at most {CARD_PAGE_LIMIT / 1000:.0f} KB asked), the search index left out:")
        print(f"  {weight.own / 1000:.1f} KB its own, {(weight.total - weight.own) / 1000:.1f} KB the styles and scripts every page loads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
