"""Rendering and linting in pieces, over several processes.

A big site is rendered block by block and linted chunk by chunk (a page's
prose, then each generated block parsed on its own), spread over forked
workers. These tests pin what makes that safe: a block parses alone to the
very tokens it gives inside its page, the pieces come back in order, and the
pages and the problems are the same for any number of workers.
"""

from __future__ import annotations

import dataclasses
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from engine.stationmaster import load_catalog
from generator import forked
from generator.lint import _chunks, lint
from generator.render import KIT_TABLES, read_pages, render_site
from generator.stationmaster.tables import TABLE_SET, TABLES
from tests.kit import hang_guard
from tests.kit.cli import stationmaster_exe, subprocess_env
from tests.kit.project import PROJECT_ROOT, line_of

needs_fork = pytest.mark.skipif(not forked.can_fork(), reason="this platform cannot fork")


# -- the forked map --------------------------------------------------------------


def _pid_and_square(n: int) -> tuple[int, int]:
    return os.getpid(), n * n


@needs_fork
@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_pieces_come_back_in_order_for_any_number_of_workers(workers: int) -> None:
    items = list(range(23))
    results = forked.map_pieces(_pid_and_square, items, workers, cost=lambda n: (n * 7) % 5)
    assert [square for _, square in results] == [n * n for n in items]
    pids = {pid for pid, _ in results}
    if workers == 1:
        assert pids == {os.getpid()}
    else:
        assert os.getpid() not in pids and len(pids) >= 1


@needs_fork
def test_two_workers_really_share_the_work() -> None:
    """Each piece waits at a barrier for a piece in another process: with a
    single worker the barrier would time out and the map would fail."""
    import multiprocessing

    # Only a lone worker never meets its partner; a slow second one must not fail the test.
    barrier = multiprocessing.get_context("fork").Barrier(2, timeout=hang_guard.HANG_GUARD)

    def paired(n: int) -> int:
        barrier.wait()
        return os.getpid()

    pids = forked.map_pieces(paired, list(range(8)), 2)
    assert len(set(pids)) == 2 and os.getpid() not in pids


def test_without_fork_the_pieces_run_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    results = forked.map_pieces(_pid_and_square, [1, 2, 3], 4)
    assert results == [(os.getpid(), 1), (os.getpid(), 4), (os.getpid(), 9)]


def _fails_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("piece three is broken")
    return n


@needs_fork
def test_a_failing_piece_fails_the_whole_map_and_the_job_is_cleared() -> None:
    with pytest.raises(ValueError, match="piece three is broken"):
        forked.map_pieces(_fails_on_three, list(range(6)), 2)
    assert forked._JOB is None


def _stubborn_on_two(n: int) -> int:
    """Raises, on piece 2, an exception no pickler can send back: its class
    is local to this call, so the parent cannot find it by name. (A class
    whose signature pickling cannot rebuild is not enough: once Dask's
    ``distributed`` is imported, as the cluster tests do, tblib teaches
    pickle to send such exceptions whole.)"""

    class _Stubborn(Exception):
        def __init__(self, what: str, reasons: list[str]) -> None:
            super().__init__(f"{what}: {'; '.join(reasons)}")
            self.reasons = reasons

    if n == 2:
        raise _Stubborn("piece", ["one reason", "another"])
    return n


@needs_fork
def test_an_exception_that_cannot_travel_is_raised_as_a_worker_error() -> None:
    with pytest.raises(forked.WorkerError, match="(?s)piece 2 failed in a worker.*_Stubborn: piece: one reason; another"):
        forked.map_pieces(_stubborn_on_two, list(range(5)), 2)


def _fails_on_two_and_five(n: int) -> int:
    if n in (2, 5):
        raise ValueError(f"piece {n} is broken")
    return n


@needs_fork
def test_the_first_failing_piece_in_order_is_the_one_raised() -> None:
    for _ in range(3):
        with pytest.raises(ValueError, match="piece 2 is broken"):
            forked.map_pieces(_fails_on_two_and_five, list(range(8)), 2, cost=lambda n: n)


def _dies_on_one(n: int) -> int:
    if n == 1:
        os._exit(7)
    return n


@needs_fork
def test_a_worker_that_dies_fails_the_map_instead_of_hanging() -> None:
    from engine.sim.pool import WorkerDied

    with pytest.raises(WorkerDied, match=r"exited with status 7"):
        forked.map_pieces(_dies_on_one, list(range(4)), 2)
    assert forked._JOB is None


def test_small_sites_stay_in_one_process_and_big_ones_use_every_core() -> None:
    assert forked.workers_for(79) == 1
    assert forked.workers_for(forked.PARALLEL_ABOVE) == 1
    assert forked.workers_for(forked.PARALLEL_ABOVE + 1) == forked.cores()


# -- a block parses alone as it does in its page -----------------------------------------


def _shape(token: Token, shift: int) -> tuple[Any, ...]:
    children = tuple((c.type, c.content, tuple(sorted(c.attrs.items()))) for c in token.children or [])
    where = None if token.map is None else (token.map[0] + shift, token.map[1] + shift)
    return (token.type, token.tag, token.nesting, token.content, where, tuple(sorted(token.attrs.items())), children)


def _assert_chunks_match_the_whole_page(name: str, text: str) -> None:
    md = MarkdownIt("commonmark").enable("table")
    whole = [_shape(t, 0) for t in md.parse(text)]
    chunks = _chunks(name, name, text, [*TABLES, *KIT_TABLES])
    prose, blocks = chunks[0], chunks[1:]
    expected: list[tuple[Any, ...]] = []
    prose_tokens = [_shape(t, 0) for t in md.parse(prose.text, {"references": dict(prose.references)})]
    pending = list(blocks)
    for shape in prose_tokens:
        expected.append(shape)
        if shape[0] == "html_block" and str(shape[3]).startswith("<!-- generated: "):
            block = pending.pop(0)
            expected.extend(_shape(t, block.first_line) for t in md.parse(block.text, {"references": dict(block.references)}))
    assert not pending
    assert expected == whole, name


@pytest.mark.parametrize("name", sorted(read_pages(PROJECT_ROOT / "site" / "stationmaster")))
def test_every_shipped_page_parses_the_same_in_chunks(name: str) -> None:
    _assert_chunks_match_the_whole_page(name, read_pages(PROJECT_ROOT / "site" / "stationmaster")[name])


def test_awkward_prose_around_blocks_parses_the_same_in_chunks() -> None:
    text = (
        "# Title\n\n"
        "[defined]: https://example.com/x\n\n"
        "- a list item\n"
        "  that goes on\n"
        "<!-- generated: track -->\n\n"
        "| A | B |\n| --- | --- |\n| [x](#card-straight) | [y][defined] |\n\n"
        "<!-- /generated -->\n"
        "> a quote right after\n"
        "a lazy line\n"
        "<!-- generated: offices -->\n\n"
        'Plain *text* and `code` and <a id="card-depot"></a>\n\n'
        "<!-- /generated -->\n"
        "    indented code\n"
        "A paragraph with no blank line before the marker\n"
        "<!-- generated: extras -->\n\n"
        "## Heading in a block\n\n"
        "<!-- /generated -->\n"
        "## Heading in a block\n"
    )
    _assert_chunks_match_the_whole_page("awkward.md", text)


# -- the same pages and problems for any number of workers -------------------------------


def _broken(project: Path) -> tuple[Any, Any]:
    catalog = load_catalog(project / "content" / "stationmaster")
    rendered = render_site(catalog, read_pages(project / "site" / "stationmaster"), "site/", tables=TABLE_SET)
    text = rendered.new["home-deck.md"]
    straight = next(line for line in text.splitlines() if line.startswith('| <a id="card-straight"></a>'))
    assert text.count(straight) == 1
    # Card | Dealt | Picture | Handedness | Routes | Card text
    text = text.replace(straight, '| <a id="card-straight"></a>Straight | 3 | — | ×2 | [gone](#card-nope) | — |')
    text += "\n## Piles\n\n## Piles\n\nSee [second](#piles_1), [third](#piles_2) and [top](index.md#nowhere).\n\n| Card | Count |\n| --- | --- |\n"
    return catalog, dataclasses.replace(rendered, new={**rendered.new, "home-deck.md": text})


@needs_fork
def test_lint_finds_the_same_problems_for_any_number_of_workers(project: Path) -> None:
    catalog, rendered = _broken(project)
    serial = lint(catalog, rendered, TABLES, "site/stationmaster/", workers=1)
    text = rendered.new["home-deck.md"]
    row = line_of(text, 'card-straight"></a>Straight | 3 | — | ×2')
    said = {(p.line, p.message) for p in serial}
    assert (row, "generated cell '×2' under 'Handedness' reads as a card count") in said
    assert (row, "column 'Dealt' must say yes, no or where the card is dealt, not '3'") in said
    assert (row, "link '#card-nope' points at anchor '#card-nope', which home-deck.md does not have") in said
    assert (line_of(text, "[third](#piles_2)"), "link '#piles_2' points at anchor '#piles_2', which home-deck.md does not have") in said
    assert not any("#piles_1" in m for _, m in said), "the second 'Piles' heading is piles_1"
    assert (line_of(text, "| Card | Count |"), "table column 'Count' prints a count; the site says only whether a card is dealt (yes/no)") in said
    for workers in (2, 3):
        assert lint(catalog, rendered, TABLES, "site/stationmaster/", workers=workers) == serial


@needs_fork
def test_render_gives_the_same_pages_for_any_number_of_workers(project: Path) -> None:
    catalog = load_catalog(project / "content" / "stationmaster")
    pages = read_pages(project / "site" / "stationmaster")
    serial = render_site(catalog, pages, "site/stationmaster/", workers=1, tables=TABLE_SET)
    for workers in (2, 4):
        assert render_site(catalog, pages, "site/stationmaster/", workers=workers, tables=TABLE_SET).new == serial.new


def test_repeated_links_on_one_line_are_each_located(project: Path) -> None:
    catalog = load_catalog(project / "content" / "stationmaster")
    rendered = render_site(catalog, read_pages(project / "site" / "stationmaster"), "site/", tables=TABLE_SET)
    sentence = "See [a](#nope) or [b](#nope), and [c](#nope)."
    text = rendered.new["index.md"] + "\n" + sentence + "\n"
    broken = dataclasses.replace(rendered, new={**rendered.new, "index.md": text})
    line = len(text.splitlines())
    found = [(p.line, p.column) for p in lint(catalog, broken, TABLES, "site/stationmaster/") if "#nope" in p.message]
    columns = [i + 1 for i in range(len(sentence)) if sentence.startswith("#nope", i)]
    assert found == [(line, col) for col in columns] and len(set(columns)) == 3


# -- the command line, on a site big enough to fork ---------------------------------------


@needs_fork
def test_check_on_a_big_synthetic_site_forks_and_reports_the_changed_card(tmp_path: Path) -> None:
    synthetic = runpy.run_path(str(PROJECT_ROOT / "bench" / "synthetic.py"))
    root = tmp_path / "big"
    root.mkdir()
    (root / "mkdocs.yml").write_bytes((PROJECT_ROOT / "mkdocs.yml").read_bytes())
    shutil.copytree(PROJECT_ROOT / "site" / "stationmaster", root / "site" / "stationmaster")
    synthetic["make"](root / "content" / "stationmaster", 1_500)
    assert len(load_catalog(root / "content" / "stationmaster").cards) > forked.PARALLEL_ABOVE

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return hang_guard.run([*stationmaster_exe(), *args], f"stationmaster {' '.join(args)} on 1,500 cards to end", cwd=root, env=subprocess_env())

    assert run("cards").returncode == 0
    done = run("check")
    assert done.returncode == 0, done.stdout + done.stderr
    written = (root / "site/stationmaster/home-deck.md").read_text(encoding="utf-8")
    # the same pages as a render in one process
    catalog = load_catalog(root / "content" / "stationmaster")
    one = render_site(catalog, read_pages(root / "site" / "stationmaster"), "site/stationmaster/", workers=1, tables=TABLE_SET)
    assert one.new["home-deck.md"] == written
    # a hand edit in a generated row is drift, named by its card
    edited = written.replace('<a id="card-straight-s3"></a>Straight 3', '<a id="card-straight-s3"></a>Straight 3 (edited)', 1)
    assert edited != written
    (root / "site/stationmaster/home-deck.md").write_text(edited, encoding="utf-8")
    done = run("check")
    assert done.returncode == 1
    assert "table 'track': straight-s3: Card: Straight 3 (edited) † → Straight 3 †" in done.stdout, done.stdout[:2000]


@needs_fork
def test_text_printed_before_the_fork_is_printed_once(tmp_path: Path) -> None:
    code = "import sys\nfrom generator.forked import map_pieces\nprint('before', end='')\nprint(map_pieces(abs, [-1, -2, -3, -4], 2))\n"
    done = hang_guard.run([sys.executable, "-c", code], "map_pieces with two workers to end", cwd=PROJECT_ROOT, env=subprocess_env())
    assert done.stdout == "before[1, 2, 3, 4]\n", done.stdout + done.stderr


def test_a_reference_link_does_not_throw_later_links_off_their_place(project: Path) -> None:
    """A reference link's target is written at its definition, far below; the
    links after it are still found on their own lines."""
    catalog = load_catalog(project / "content" / "stationmaster")
    rendered = render_site(catalog, read_pages(project / "site" / "stationmaster"), "site/", tables=TABLE_SET)
    base = len(rendered.new["index.md"].splitlines())
    text = rendered.new["index.md"] + "\nSee [a][r] here.\n\nThen a paragraph\nwith [x](#nope-1) on its second line.\n\n[r]: #nope-0\n"
    broken = dataclasses.replace(rendered, new={**rendered.new, "index.md": text})
    found = [(p.line - base, p.column, p.message.split("'")[1]) for p in lint(catalog, broken, TABLES, "site/stationmaster/")]
    assert found == [(2, 1, "#nope-0"), (5, 10, "#nope-1")]


def test_a_page_whose_markers_are_swallowed_by_raw_html_is_linted_whole(project: Path) -> None:
    """An unclosed <pre> above a block makes the page's HTML block run over
    the markers, so the block's table is no table there; the lint then reads
    that page whole, as MkDocs would, instead of in chunks."""
    catalog = load_catalog(project / "content" / "stationmaster")
    rendered = render_site(catalog, read_pages(project / "site" / "stationmaster"), "site/", tables=TABLE_SET)
    text = rendered.new["home-deck.md"]
    straight = next(line for line in text.splitlines() if line.startswith('| <a id="card-straight"></a>'))
    counted = text.replace(straight, '| <a id="card-straight"></a>Straight | yes | — | ×2 | W–E | — |')

    def count_problems(page: str) -> list[str]:
        broken = dataclasses.replace(rendered, new={**rendered.new, "home-deck.md": page})
        return [p.message for p in lint(catalog, broken, TABLES, "site/stationmaster/", workers=2) if "reads as a card count" in p.message]

    assert count_problems(counted) == ["generated cell '×2' under 'Handedness' reads as a card count"]
    swallowed = counted.replace("<!-- generated: track -->\n", "<pre>\n<!-- generated: track -->\n", 1)
    assert count_problems(swallowed) == []
    # and the cards of that block still have their anchors: none is reported as in no table
    broken = dataclasses.replace(rendered, new={**rendered.new, "home-deck.md": swallowed})
    assert not [p for p in lint(catalog, broken, TABLES, "site/stationmaster/") if "appears in no table" in p.message]
