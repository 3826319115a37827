"""Anchors are unique within a page: a link names one place, so a second
element with the same id (a card placed in two tables of one page, a
hand-written anchor that clashes with a card's) is a located error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.kit.cli import Result
from tests.kit.project import line_of, snapshot

Run = Callable[..., Result]


def test_a_hand_written_anchor_that_clashes_with_a_card_row(sm: Run, project: Path) -> None:
    page = project / "site" / "stationmaster" / "mainline.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text + '\nSee the <a id="card-plains"></a>plains note.\n', encoding="utf-8")
    before = snapshot(project)
    result = sm("check")
    assert result.code == 1, result.output
    written = page.read_text(encoding="utf-8")
    first = line_of(written, 'id="card-plains"')
    second = line_of(written, 'id="card-plains"', 2)
    column = written.splitlines()[second - 1].index('id="card-plains"') + 1
    assert ("site/stationmaster/mainline.md", second, column, f"anchor 'card-plains' is already used on this page (line {first}); each anchor names one place") in result.located(), result.out
    assert snapshot(project) == before


def test_two_headings_with_one_explicit_id(sm: Run, project: Path) -> None:
    page = project / "site" / "stationmaster" / "house-rules.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n## One {#twice}\n\n## Two {#twice}\n", encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    line = line_of(page.read_text(encoding="utf-8"), "## Two {#twice}")
    assert any(p[:2] == ("site/stationmaster/house-rules.md", line) and "anchor 'twice' is already used" in p[3] for p in result.located()), result.out


def test_the_shipped_pages_have_no_repeated_anchor(sm: Run) -> None:
    result = sm("check")
    assert result.code == 0 and "already used on this page" not in result.out, result.output
