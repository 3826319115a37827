"""Marker mistakes in the pages are located errors (``site/<page>.md:<line>:<col>:``),
exit 1, and nothing is written, even when the content has changed too."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator.render import KIT_TABLES
from generator.stationmaster.tables import TABLES
from tests.kit.cli import Result
from tests.kit.project import edit, line_of, snapshot

Run = Callable[..., Result]
Expected = list[tuple[str, int, int, str]]  # (page, line, column, start of the message)
Case = Callable[[dict[str, str]], Expected]  # mutates {page: text}, returns what must be reported


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _insert(text: str, at: int, new: str) -> str:
    """Insert ``new`` so that it starts on line ``at`` (1-based)."""
    lines = _lines(text)
    lines.insert(at - 1, new)
    return "".join(lines)


def _close_after(text: str, open_line: int) -> int:
    lines = text.splitlines()
    for number in range(open_line + 1, len(lines) + 1):
        if lines[number - 1] == "<!-- /generated -->":
            return number
    raise AssertionError("no close")


def unclosed(pages: dict[str, str]) -> Expected:
    text = pages["mainline.md"]
    opened = line_of(text, "<!-- generated: realignment -->")
    closed = _close_after(text, opened)
    assert "<!-- generated: " not in "".join(_lines(text)[closed:]), "realignment must be the page's last block"
    lines = _lines(text)
    del lines[closed - 1]
    pages["mainline.md"] = "".join(lines)
    return [("mainline.md", opened, 1, "block 'realignment' is never closed")]


def twice_on_one_page(pages: dict[str, str]) -> Expected:
    text = pages["mainline.md"]
    first = line_of(text, "<!-- generated: division-points -->")
    n = len(_lines(text))
    pages["mainline.md"] = text + "\n<!-- generated: division-points -->\n<!-- /generated -->\n"
    return [("mainline.md", n + 2, 1, f"table 'division-points' is placed twice on this page (first at line {first})")]


def on_two_pages(pages: dict[str, str]) -> Expected:
    text = pages["mainline.md"]
    n = len(_lines(text))
    pages["mainline.md"] = text + "\n## Track again\n\n<!-- generated: track -->\n<!-- /generated -->\n"
    return [("mainline.md", n + 4, 1, "table 'track' is already placed on site/stationmaster/home-deck.md")]


def nested(pages: dict[str, str]) -> Expected:
    text = pages["mainline.md"]
    opened = line_of(text, "<!-- generated: division-points -->")
    closed = _close_after(text, opened)
    pages["mainline.md"] = _insert(text, opened + 1, "<!-- generated: extras -->\n<!-- /generated -->\n")
    return [
        ("mainline.md", opened + 1, 1, "block 'extras' opens inside block 'division-points'"),
        ("mainline.md", closed + 2, 1, "a closing marker with no block open"),
    ]


def stray_close(pages: dict[str, str]) -> Expected:
    text = pages["mainline.md"]
    at = line_of(text, "## Grade modifiers") + 1
    pages["mainline.md"] = _insert(text, at, "<!-- /generated -->\n")
    return [("mainline.md", at, 1, "a closing marker with no block open")]


def unknown_table(pages: dict[str, str]) -> Expected:
    text = pages["mainline.md"]
    at = line_of(text, "## Grade modifiers") + 1
    pages["mainline.md"] = _insert(text, at, "\n<!-- generated: no-such-table -->\n<!-- /generated -->\n")
    known = ", ".join(sorted([*TABLES, *KIT_TABLES])[:3])
    return [("mainline.md", at + 1, 1, f"unknown table 'no-such-table'; known tables: {known}")]


def malformed(pages: dict[str, str]) -> Expected:
    text = pages["house-rules.md"]
    opened = line_of(text, "<!-- generated: house-rules -->")
    pages["house-rules.md"] = text.replace("<!-- generated: house-rules -->", "<!-- generated:house-rules-->")
    closed = _close_after(text, opened)
    return [
        ("house-rules.md", opened, 1, "this looks like a marker but is not one"),
        ("house-rules.md", closed, 1, "a closing marker with no block open"),
    ]


def malformed_track(pages: dict[str, str]) -> Expected:
    text = pages["index.md"]
    n = len(_lines(text))
    pages["index.md"] = text + "\n<!-- generated:track-->\n"
    return [("index.md", n + 2, 1, "this looks like a marker but is not one")]


def marker_inside_prose_line(pages: dict[str, str]) -> Expected:
    text = pages["index.md"]
    n = len(_lines(text))
    pages["index.md"] = text + "\nSee the <!-- generated: track --> table.\n"
    return [("index.md", n + 2, 9, "this looks like a marker but is not one")]


def upper_case(pages: dict[str, str]) -> Expected:
    text = pages["index.md"]
    n = len(_lines(text))
    pages["index.md"] = text + "\n<!-- GENERATED: track -->\n"
    return [("index.md", n + 2, 1, "this looks like a marker but is not one")]


def two_pages_broken(pages: dict[str, str]) -> Expected:
    return stray_close(pages) + malformed_track(pages)


CASES: dict[str, Case] = {
    "unclosed": unclosed,
    "twice-on-one-page": twice_on_one_page,
    "same-block-on-two-pages": on_two_pages,
    "nested": nested,
    "stray-close": stray_close,
    "unknown-table": unknown_table,
    "malformed-open": malformed,
    "malformed-track": malformed_track,
    "marker-inside-prose-line": marker_inside_prose_line,
    "upper-case": upper_case,
    "errors-on-two-pages": two_pages_broken,
}


@pytest.mark.parametrize("command", ["check", "cards"])
@pytest.mark.parametrize("case", list(CASES))
def test_marker_error_is_located_and_nothing_is_written(sm: Run, project: Path, case: str, command: str) -> None:
    site = project / "site" / "stationmaster"
    pages = {p.name: p.read_text(encoding="utf-8") for p in site.glob("*.md")}
    before_edit = dict(pages)
    expected = CASES[case](pages)
    for name, text in pages.items():
        if text != before_edit[name]:
            (site / name).write_text(text, encoding="utf-8")
    # stale content too: a writer that wrote what it could would touch home-deck.md
    edit(project / "content/stationmaster/home-deck/facilities.yaml", "    commodity: merchandise\n", "    commodity: parcels\n")

    before = snapshot(project)
    result = sm(command)
    assert snapshot(project) == before, "nothing may be written when a marker is broken"
    assert result.code == 1, result.output
    located = result.located()
    for page, line, col, message in expected:
        hits = [m for p, ln, c, m in located if p == f"site/stationmaster/{page}" and ln == line and c == col and m.startswith(message)]
        assert hits, f"expected site/stationmaster/{page}:{line}:{col}: {message}...\n got:\n{result.out}"
    assert len(located) == len(expected), result.out
    assert "out of date" not in result.out
    assert "marker errors" in result.err
    if command == "cards":
        assert "nothing was written" in result.err


def test_an_empty_pair_of_markers_is_filled(sm: Run, project: Path) -> None:
    """How editing.md says a table is added: an empty pair, then ``cards``."""
    page = project / "site/stationmaster/mainline.md"
    text = page.read_text(encoding="utf-8")
    opened = line_of(text, "<!-- generated: division-points -->")
    closed = _close_after(text, opened)
    lines = _lines(text)
    filled = "".join(lines[opened - 1 : closed])
    emptied = "".join(lines[:opened]) + "".join(lines[closed - 1 :])
    page.write_text(emptied, encoding="utf-8")
    result = sm("check")
    assert result.code == 1 and "table 'division-points': added: west-division-point (West Division Point)" in result.out
    assert "table 'division-points': added: east-division-point (East Division Point)" in result.out
    assert sm("cards").code == 0
    assert page.read_text(encoding="utf-8") == text
    assert filled in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("variant", ["  <!-- /generated -->", "<!-- /generated -->  "])
def test_closing_marker_with_extra_space_is_located_like_an_opening_one(sm: Run, project: Path, variant: str) -> None:
    page = project / "site/stationmaster/mainline.md"
    text = page.read_text(encoding="utf-8")
    closed = _close_after(text, line_of(text, "<!-- generated: realignment -->"))
    lines = _lines(text)
    lines[closed - 1] = variant + "\n"
    page.write_text("".join(lines), encoding="utf-8")
    before = snapshot(project)
    result = sm("cards")
    assert snapshot(project) == before
    assert result.code == 1
    assert ("site/stationmaster/mainline.md", closed) in [(p, ln) for p, ln, _, m in result.located() if "marker" in m], result.out


def test_indented_opening_marker_is_located(sm: Run, project: Path) -> None:
    """The counterpart of the xfail above, which does work."""
    page = project / "site/stationmaster/mainline.md"
    text = page.read_text(encoding="utf-8")
    opened = line_of(text, "<!-- generated: realignment -->")
    page.write_text(text.replace("<!-- generated: realignment -->", "  <!-- generated: realignment -->"), encoding="utf-8")
    before = snapshot(project)
    result = sm("cards")
    assert snapshot(project) == before
    assert result.code == 1
    assert [(p, ln, c) for p, ln, c, _ in result.located()] == [("site/stationmaster/mainline.md", opened, 1)]
    assert "must start at the beginning of its line" in result.out


# -- markers shown as examples, inside fenced code blocks ---------------------------------

_EXAMPLE = "<!-- generated: track -->\nwhatever the writer shows\n<!-- /generated -->\n<!-- generated: nope -->\n"


@pytest.mark.parametrize(
    "fence_open, fence_close",
    [("```", "```"), ("~~~", "~~~"), ("````markdown", "````"), ("   ```", "```   "), ("~~~~", "~~~~~")],
)
def test_markers_inside_a_fenced_code_block_are_example_text(sm: Run, project: Path, fence_open: str, fence_close: str) -> None:
    page = project / "site/stationmaster/editing.md"
    text = page.read_text(encoding="utf-8")
    shown = f"\nA block looks like this:\n\n{fence_open}\n{_EXAMPLE}{fence_close}\n"
    page.write_text(text + shown, encoding="utf-8")
    result = sm("check")
    assert result.code == 0, result.output
    assert sm("cards").code == 0
    assert page.read_text(encoding="utf-8") == text + shown


def test_a_shorter_or_other_fence_does_not_close_the_block(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/editing.md"
    text = page.read_text(encoding="utf-8")
    shown = "\n````\n```\n~~~~\n" + _EXAMPLE + "````\n"
    page.write_text(text + shown, encoding="utf-8")
    result = sm("check")
    assert result.code == 0, result.output


def test_a_backtick_fence_with_a_backtick_in_its_info_is_no_fence(sm: Run, project: Path) -> None:
    """CommonMark: such a line is inline code, so the marker after it is real."""
    page = project / "site/stationmaster/editing.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text + "\n```not`a fence\n<!-- generated: nope -->\n<!-- /generated -->\n", encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    line = len(text.splitlines()) + 3
    assert [(p, ln) for p, ln, _, m in result.located() if "unknown table 'nope'" in m] == [("site/stationmaster/editing.md", line)], result.out


def test_markers_after_a_closed_fence_count_again(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/editing.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text + "\n```\n" + _EXAMPLE + "```\n\n<!-- generated: nope -->\n<!-- /generated -->\n", encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    line = len(text.splitlines()) + 1 + 1 + len(_EXAMPLE.splitlines()) + 2 + 1
    assert [(p, ln) for p, ln, _, m in result.located() if "unknown table" in m] == [("site/stationmaster/editing.md", line)], result.out


@pytest.mark.parametrize("command", ["check", "cards"])
def test_an_unclosed_fence_that_hides_markers_is_a_located_error(sm: Run, project: Path, command: str) -> None:
    """CommonMark runs an unclosed code block to the end of the page, which
    would silently turn the tables after it into code: the first hidden
    marker is reported, with the line the block opened on."""
    page = project / "site/stationmaster/mainline.md"
    text = page.read_text(encoding="utf-8")
    start = text.index("<!-- generated: realignment -->")
    page.write_text(text[:start] + "~~~~\n" + text[start:], encoding="utf-8")
    opened = line_of(page.read_text(encoding="utf-8"), "~~~~")
    before = snapshot(project)
    result = sm(command)
    assert snapshot(project) == before
    assert result.code == 1
    assert result.located() == [
        ("site/stationmaster/mainline.md", opened + 1, 1, f"this marker is inside the code block opened at line {opened}, which is never closed; close it with '~~~~' or move the marker out")
    ], result.out


def test_an_unclosed_fence_with_no_marker_in_it_is_only_prose(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/mainline.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n```\nsome code, never closed\n", encoding="utf-8")
    assert sm("check").code == 0


def test_a_fence_typed_inside_a_generated_block_is_drift_not_a_fence(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/mainline.md"
    text = page.read_text(encoding="utf-8")
    opened = line_of(text, "<!-- generated: division-points -->")
    page.write_text(_insert(text, opened + 1, "```\n"), encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    assert "table 'division-points'" in result.out and "out of date" in result.out, result.out
    # Typed text inside a block is kept: `cards` names it and leaves the page.
    typed = page.read_text(encoding="utf-8")
    result = sm("cards")
    assert result.code == 1 and f"mainline.md:{opened + 1}:1: text typed inside the generated block 'division-points'" in result.out, result.output
    assert page.read_text(encoding="utf-8") == typed
    page.write_text(text, encoding="utf-8")
    assert sm("check").code == 0


@pytest.mark.parametrize(
    "text",
    [
        "- Example:\n    ```\n    <!-- generated: t -->\n    <!-- /generated -->\n    ```\n",
        "10. Example:\n      ~~~\n      <!-- generated: t -->\n\n      <!-- /generated -->\n",
        "Title\n===\n    <!-- generated: t -->\n",
        "Title\n---\n    <!-- generated: t -->\n    <!-- /generated -->\n",
    ],
    ids=["fence-in-a-list-item", "unclosed-fence-in-a-numbered-item", "indented-after-setext-h1", "indented-after-setext-h2"],
)
def test_a_marker_shown_as_code_in_a_list_item_or_after_a_setext_heading_is_prose(text: str) -> None:
    from generator.blocks import parse_page

    page = parse_page("p.md", text, {"t"})
    assert page.blocks == [] and page.render(lambda block: "") == text


def test_a_column_1_line_ends_a_fence_in_a_list_item_so_a_real_marker_after_it_counts() -> None:
    """CommonMark ends a list item (and the code in it) at a line less
    indented than the item's text: a marker at column 1 is never hidden."""
    from generator.blocks import parse_page

    page = parse_page("p.md", "- Example:\n    ```\n    x\n<!-- generated: t -->\n<!-- /generated -->\n", {"t"})
    assert [(b.name, b.line) for b in page.blocks] == [("t", 4)]


@pytest.mark.parametrize(
    "text",
    ["Some text.\n    ```\n    <!-- generated: t -->\n", "- a\nlazy text\n    ```\n    <!-- generated: t -->\n"],
    ids=["after-a-paragraph", "after-a-lazy-line"],
)
def test_an_indented_fence_that_is_no_fence_does_not_hide_a_misplaced_marker(text: str) -> None:
    from generator.blocks import MarkerError, parse_page

    with pytest.raises(MarkerError) as caught:
        parse_page("p.md", text, {"t"})
    assert "p.md:3:1: a marker must start at the beginning of its line" in str(caught.value) or "p.md:4:1: a marker must start at the beginning of its line" in str(caught.value)
