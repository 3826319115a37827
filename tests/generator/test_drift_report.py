"""What ``check`` says about drift: each differing row named by what it is
about (its own card, never another card of its table), each changed cell as
``column: old → new`` at the row's line on the page, added and removed
rows by card, and no line of the report (its diff included) over 200
characters: a picture is put as a note naming its file and line.

One test runs ``check`` on a content edit; the others compare a committed
page with an edited copy of it in memory, which is what ``check`` does once
it has rendered, without the render."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from generator.blocks import OPEN_RE, parse_page
from generator.drift import FIX_HINT, describe, drift
from generator.render import Rendered
from generator.tableset import TableSet
from tests.kit.cli import PROBLEM_LINE, Result
from tests.kit.project import PROJECT_ROOT, edit, line_of

LIMIT = 200


def _report(page: str, change: Callable[[str], str]) -> tuple[str, str]:
    """(the report, the committed page) for the shipped ``site/<page>``
    against ``change`` of it, as ``check`` would print it."""
    old = (PROJECT_ROOT / "site" / page).read_text(encoding="utf-8")
    names = {m.group(1) for m in (OPEN_RE.match(line) for line in old.splitlines()) if m}
    tables = TableSet(page.partition("/")[0], {name: (lambda catalog: {}) for name in names})
    rendered = Rendered({page: old}, {page: change(old)}, {page: parse_page("site/" + page, old, tables.tables)}, {}, {}, tables)
    return describe(drift(rendered)), old


def _replace(pattern: str, replacement: str) -> Callable[[str], str]:
    def change(text: str) -> str:
        new, count = re.subn(pattern, replacement, text, count=1)
        assert count == 1, f"{pattern!r} not on the page (its shape changed?)"
        return new

    return change


def _located(report: str) -> list[tuple[str, int, str]]:
    return [(m["path"], int(m["line"]), m["message"]) for m in map(PROBLEM_LINE.match, report.splitlines()) if m]


def _no_long_lines(report: str) -> None:
    long = [line for line in report.splitlines() if len(line) > LIMIT]
    assert not long, [f"{len(line)}: {line[:120]}…" for line in long]


def test_a_changed_station_value_names_its_own_card_and_the_values(sm: Callable[..., Result], project: Path) -> None:
    """B&O 10's value changes; its row holds the whole company's cards and
    starts with B&O 1's: the report names B&O 10, at the row's line."""
    page = project / "site/trickoftherails/components.md"
    row = line_of(page.read_text(encoding="utf-8"), '<a id="card-b-and-o-10"></a>40')
    edit(project / "content/trickoftherails/railway.yaml", "number: 10, stationValue: 40,", "number: 10, stationValue: 30,")

    result = sm("check")
    assert result.code == 1, result.output
    mine = [(line, message) for path, line, message in _located(result.out) if path == "site/trickoftherails/components.md"]
    assert mine == [(row, "table 'station-values': 'B&O': b-and-o-10 (column 10): 40 → 30")], result.out
    assert not re.search(r"\bb-and-o-1\b(?!0)", "\n".join(message for _, message in mine))
    # the diff still shows the row, cut to the part that changed
    minus = [line for line in result.out.splitlines() if line.startswith("-| B&amp;O")]
    plus = [line for line in result.out.splitlines() if line.startswith("+| B&amp;O")]
    assert len(minus) == len(plus) == 1, result.out
    assert minus[0].endswith('<a id="card-b-and-o-10"></a>40 |') and plus[0].endswith('<a id="card-b-and-o-10"></a>30 |')
    _no_long_lines(result.out)
    assert result.out.splitlines()[-1] == f"The site disagrees with the content: {FIX_HINT}."


def test_a_changed_picture_is_a_note_with_its_file_and_line_not_the_picture() -> None:
    # A table cell that is a picture, and a picture on a line of its own.
    report, old = _report("stationmaster/home-deck.md", _replace(r'(<a id="card-curve-left"></a>.*?<svg[^>]*?) width="', r'\1 width="9'))
    row = line_of(old, '<a id="card-curve-left"></a>')
    where = f"site/stationmaster/home-deck.md:{row}"
    assert ("site/stationmaster/home-deck.md", row, f"table 'track': curve-left: Picture: picture changed ({where})") in _located(report), report
    assert '-| <a id="card-curve-left"></a>Curve (left)' in report and f"[picture changed: {where}] | left | W–NE | — |" in report, report
    assert "<svg" not in report
    _no_long_lines(report)

    # A Trick Lane is a slot picture a line: the slot that changed is named.
    report, old = _report("trickoftherails/rules.md", _replace(r'(<svg xmlns[^>]*?aria-label="Trick 8: [^"]*">)', r"\1<g/>"))
    line = line_of(old, 'aria-label="Trick 8: ')
    assert f"-[picture changed: site/trickoftherails/rules.md:{line}]" in report.splitlines(), report
    assert "<svg" not in report
    _no_long_lines(report)


def test_added_and_removed_rows_are_named_by_card_at_their_lines() -> None:
    def change(text: str) -> str:
        text = _replace(r'\| <a id="card-red-flag"></a>.*\n', "")(text)
        return _replace(r'(\| <a id="card-poling"></a>.*\n)', r'\1| <a id="card-hand-brake"></a>Hand Brake | yes | — | Stops a train. |\n')(text)

    report, old = _report("stationmaster/home-deck.md", change)
    found = [(line, message) for _, line, message in _located(report)]
    assert found == [
        (line_of(old, '<a id="card-red-flag"></a>'), "table 'maneuvers': removed: red-flag (Red Flag)"),
        (line_of(old, '<a id="card-poling"></a>'), "table 'maneuvers': added: hand-brake (Hand Brake), a new row to go below this line"),
    ], report
    _no_long_lines(report)


def test_a_row_without_an_anchor_is_named_by_its_own_card_in_its_own_table() -> None:
    """The simulation page's block holds one table per house-rule option,
    each listing the same cards by link: the Airbrakes row of the first is
    its own row, not merged with the second's."""
    airbrakes = r"(\[Airbrakes\]\(home-deck\.md#card-airbrakes\) \| [^|\n]+ \| )(\d+\.\d) per game"
    page = (PROJECT_ROOT / "site" / "stationmaster" / "simulation.md").read_text(encoding="utf-8")
    first = re.search(airbrakes, page)
    assert first is not None, "the Airbrakes row's shape changed"
    report, old = _report("stationmaster/simulation.md", _replace(airbrakes, r"\g<1>99.9 per game"))
    row = line_of(old, first.group(0))
    assert row < line_of(old, "[Airbrakes](home-deck.md#card-airbrakes)", 2)
    found = [(line, message) for _, line, message in _located(report)]
    assert found == [(row, f"table 'simulation': airbrakes (under 'startingOffice=depot: Depot (the default)'): Drawn per game: {first.group(2)} per game → 99.9 per game")], report
    _no_long_lines(report)


def test_rows_that_share_their_first_cell_stay_apart() -> None:
    """Every row of the map table starts with the same card: the row that
    goes is named by its own second cell, and the others are unchanged."""
    report, old = _report("stationmaster/mainline.md", _replace(r"\| \[Realignment\]\(home-deck\.md#card-realignment\) \| \[Trestle\].*\n", ""))
    found = [(line, message) for _, line, message in _located(report)]
    assert found == [(line_of(old, "[Realignment](home-deck.md#card-realignment) | [Trestle](#card-trestle) |"), "table 'realignment': removed: realignment (Realignment; Terrain before: Trestle)")], (
        report
    )
