"""``stationmaster sweep --format markdown``: a designer's own sweep as a
page with the Simulation page's charts, made from the cached result as from
a fresh one, the same bytes either way, and rendered as Markdown the site
would take (the charts arrive as HTML, the table as a table)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from markdown_it import MarkdownIt

from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT

SM = str(PROJECT_ROOT / "content" / "stationmaster")
TOTR = str(PROJECT_ROOT / "content" / "trickoftherails")
SMALL = ["sweep", "--content", SM, "--rule", "startingOffice=depot,whistle-post", "--players", "1,2", "--games", "3", "--seed", "5"]


def test_a_station_master_page(run_cli: RunCli, tmp_path: Path) -> None:
    code, page, err = run_cli([*SMALL, "--format", "markdown", "--output", "sweep.md"], tmp_path)
    assert (code, page, err) == (0, "", ""), err
    text = (tmp_path / "sweep.md").read_text(encoding="utf-8")
    assert text.startswith("# Station Master: a sweep of 4 configurations\n")
    # The command shown plays the same sweep: its arguments are the grid's.
    command = re.search(r"`(stationmaster sweep [^`]*)` reproduces it", text)
    assert command is not None
    assert shlex.split(command.group(1)) == [
        "stationmaster", "sweep", "--game", "stationmaster", "--content", SM, "--rule", "startingOffice=depot,whistle-post",
        "--players", "1,2", "--bot", "random", "--games", "3", "--seed", "5",
    ]  # fmt: skip
    assert text.count('<div class="sweep-chart"><svg ') == 2  # score spread and dead draws
    assert "points (every seat's final score, pooled)" in text
    assert "| 4. startingOffice=whistle-post, 2 players, random bot | 3 |" in text
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert html.count("<svg ") == 2 and "<table>" in html
    assert "<h2>Scores by configuration</h2>" in html


def test_the_page_is_the_same_from_the_cache_and_for_two_workers(run_cli: RunCli, tmp_path: Path) -> None:
    fresh = run_cli([*SMALL, "--format", "markdown"], tmp_path)
    cached = run_cli([*SMALL, "--format", "markdown"], tmp_path)
    two = run_cli([*SMALL, "--format", "markdown", "--no-cache", "--workers", "2"], tmp_path)
    assert fresh.code == cached.code == two.code == 0
    assert fresh.out == cached.out == two.out


def test_the_page_draws_what_the_json_says(run_cli: RunCli, tmp_path: Path) -> None:
    page = run_cli([*SMALL, "--format", "markdown"], tmp_path).out
    data = json.loads(run_cli([*SMALL, "--format", "json"], tmp_path).out)
    for cell in data["cells"]:
        median = cell["score"]["median"]
        shown = f"{median:.1f}".removesuffix(".0")
        assert re.search(rf"\| {cell['index'] + 1}\. {re.escape(cell['label'])} \| 3 \| [^|]+ \| [^|]+ \| {re.escape(shown)} \|", page)
    drawn = {card for cell in data["cells"] for card, figures in cell["cards"].items() if figures["drawn"]}
    assert f"Every card drawn ({len(drawn)})" in page or f"every card drawn ({len(drawn)})" in page


def test_a_trick_of_the_rails_page_counts_dollars(run_cli: RunCli, tmp_path: Path) -> None:
    code, page, err = run_cli(["sweep", "--game", "trickoftherails", "--content", TOTR, "--players", "3,4", "--games", "2", "--no-cache", "--format", "markdown"], tmp_path)
    assert code == 0, err
    assert page.startswith("# Trick of the Rails: a sweep of 2 configurations\n")
    assert "dollars (every seat's final score, pooled)" in page
    # No cards are dealt from a deck to be drawn dead, so no dead-draw chart;
    # the game's own measure instead: each company's mean share value.
    assert page.count('<div class="sweep-chart"><svg ') == 2
    assert "Dead draws" not in page
    assert 'aria-label="Mean share value by company and configuration"' in page


def test_a_page_that_cannot_be_written_is_one_line(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    code, out, err = run_cli([*SMALL, "--format", "markdown", "--output", "taken"], tmp_path)
    assert code == 2 and out == ""
    assert err.startswith("stationmaster sweep: error: ") and err.count("\n") == 1
