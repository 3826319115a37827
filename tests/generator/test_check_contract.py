"""The drift check's contract (issue 21): ``check`` fails when, and only
when, an as-built table's committed text differs from what the content
renders now, or a marker or page is damaged; simulation reports are
measurements, listed when stale and never played by ``check`` or ``cards``;
nothing on a page is a fingerprint of the kit's inputs, and what makes
``check`` fast (the verdict of a passing run) lives in the local cache.

Whether a check rendered is seen through ``generator.site.render_site``,
which only the full check calls.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import localcache, sources
from generator import render
from generator import site as generator_site
from generator.blocks import parse_page
from generator.stamps import STAMP, split_stamp, stamped
from tests.kit.cli import Result, call_cli
from tests.kit.plans import play_few_games
from tests.kit.project import PROJECT_ROOT, edit, snapshot
from tests.kit.stationmaster import registry

FACILITIES = "content/stationmaster/home-deck/facilities.yaml"
SIMULATION = "site/stationmaster/simulation.md"
REPORTS = ("simulation", "simulation-rivals", "simulation-sweep", "simulation-matrix")


class Renders:
    """Counts the renders of a pack's pages."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = generator_site.render_site  # type: ignore[attr-defined]

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(generator_site, "render_site", counted)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Renders:
    return Renders(monkeypatch)


class _Any:
    def __contains__(self, name: object) -> bool:
        return True


def check(project: Path, *args: str) -> Result:
    return call_cli(["check", *args], project)


def site_files(project: Path) -> dict[str, tuple[bytes, int]]:
    return snapshot(project / "site")


def stale_lines(result: Result) -> list[str]:
    """The lines of the stale-report section."""
    head, _, section = result.out.partition("Stale simulation reports")
    return [line for line in section.splitlines()[1:] if line.strip()]


def _blocks(root: Path) -> list[tuple[str, str, str]]:
    found = []
    for page in sorted((root / "site").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for block in parse_page(page.name, text, _Any()).blocks:  # type: ignore[arg-type]
            found.append((page.relative_to(root).as_posix(), block.name, block.body))
    return found


# -- what the committed pages hold ------------------------------------------------------


def test_every_committed_block_ends_with_a_checksum_of_its_own_text_and_nothing_about_inputs() -> None:
    blocks = _blocks(PROJECT_ROOT)
    assert len(blocks) > 40
    for page, name, body in blocks:
        found = split_stamp(body)
        assert found.matches_its_stamp, (page, name)
        assert body == stamped(found.text, found.measured), (page, name)
        assert "inputs" not in body.splitlines()[-1], (page, name)
        assert (found.measured is not None) == (name in REPORTS or (page.endswith("trickoftherails/simulation.md") and name in ("simulation-sweep", "simulation-matrix"))), (page, name)


def test_every_report_says_how_many_games_which_seed_and_what_it_was_measured_on() -> None:
    for page, name, body in _blocks(PROJECT_ROOT):
        found = split_stamp(body)
        if found.measured is None:
            continue
        sentence = [line for line in found.text.splitlines() if line.startswith("*Measured from ")]
        assert len(sentence) == 1, (page, name)
        assert re.match(r"^\*Measured from \d+ seeded games \(seed \d+\) on card set `[0-9a-f]{8}` and rules engine `[0-9a-f]{8}`;", sentence[0]), sentence[0]
        assert f"`{found.measured.cards[:8]}`" in sentence[0] and f"`{found.measured.rules[:8]}`" in sentence[0]


def test_the_real_repository_has_no_stale_report() -> None:
    """What CI's `check --reports` asks of main, in-process."""
    result = call_cli(["check", "--reports"], PROJECT_ROOT)
    assert result.code == 0, result.output
    assert "Stale simulation reports" not in result.output


# -- as-built tables: drift, and only drift --------------------------------------------------


def test_a_hand_edit_inside_a_table_is_drift(project: Path) -> None:
    page = project / "site/stationmaster/home-deck.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("| yes |", "| no |", 1), encoding="utf-8")
    result = check(project)
    assert result.code == 1, result.output
    assert "out of date with content/" in result.out and "table 'track'" in result.out, result.out


def test_a_checksum_rewritten_to_fit_a_hand_edit_is_still_drift(project: Path) -> None:
    page = project / "site/stationmaster/home-deck.md"
    text = page.read_text(encoding="utf-8")
    block = next(b for b in parse_page("p", text, _Any()).blocks if b.name == "facilities")  # type: ignore[arg-type]
    found = split_stamp(block.body)
    forged = found.text.replace("| yes |", "| no |", 1)
    assert forged != found.text
    page.write_text(text.replace(block.body, stamped(forged)), encoding="utf-8")
    result = check(project)
    assert result.code == 1 and "table 'facilities'" in result.out, result.output


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        pytest.param(lambda text, stamp: text[: stamp.end()] + "\nstray\n" + text[stamp.end() + 1 :], ("follows the checksum line", "typed by hand"), id="a-line-after-it"),
        pytest.param(lambda text, stamp: text[: stamp.start()] + text[stamp.end() + 1 :], ("checksum line",), id="the-line-deleted"),
    ],
)
def test_a_damaged_checksum_line_is_drift(project: Path, damage: Any, said: tuple[str, ...]) -> None:
    page = project / "site/stationmaster/mainline.md"
    text = page.read_text(encoding="utf-8")
    stamp = STAMP.search(text)
    assert stamp is not None
    page.write_text(damage(text, stamp), encoding="utf-8")
    result = check(project)
    assert result.code == 1, result.output
    assert any(words in result.out for words in said), result.out


@pytest.fixture
def code_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The kit's code copied to a scratch folder that the code digests read
    (and the templates render from), so a test can change the code."""
    root = tmp_path / "code"
    for folder in ("engine", "generator", "command"):
        shutil.copytree(PROJECT_ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(sources, "ROOT", root)
    monkeypatch.setattr(render, "TEMPLATES", root / "generator" / "templates")
    sources.folder_digest.cache_clear()
    yield root
    sources.folder_digest.cache_clear()


@pytest.mark.parametrize("module", ["engine/stationmaster/bots/greedy.py", "engine/stationmaster/rules/status.py", "generator/simulation_table.py", "generator/render.py"])
def test_a_comment_in_the_code_fails_nothing_rewrites_nothing_and_stales_no_report(project: Path, renders: Renders, code_copy: Path, module: str) -> None:
    """The planted code comment: the full check runs (the code changed), every
    table comes out the same, no report is stale, and ``cards`` writes no page."""
    before = site_files(project)
    assert check(project).code == 0
    path = code_copy / module
    text = path.read_text(encoding="utf-8")
    assert text.startswith('"""'), "the module has no docstring to reword"
    # A reworded docstring and a comment: what the code says, not what it does.
    path.write_text('"""A designer\'s note. ' + text[3:] + "\n# and a comment\n", encoding="utf-8")
    sources.folder_digest.cache_clear()
    counted = renders.count
    result = check(project)
    assert renders.count > counted, "the code changed, so the check had to render"
    assert result.code == 0, result.output
    assert "Stale simulation reports" not in result.out, result.out
    assert check(project, "--reports").code == 0
    written = call_cli(["cards"], project)
    assert written.code == 0 and "0 page(s) rewritten" in written.out, written.output
    assert site_files(project) == before


@pytest.mark.parametrize("module", [*sorted(sources.PLUMBING), "generator/stationmaster/tables.py", "generator/trickoftherails/svg.py"])
def test_a_code_change_in_the_plumbing_stales_no_report(project: Path, code_copy: Path, module: str) -> None:
    """The cache, the JSON reader, the --output rule and the Dask transport
    move bytes, never a figure, and a pack's tables and pictures only lay
    figures out: changing what they do leaves the reports standing (a fix to
    the cluster probe once called all four stale)."""
    path = code_copy / module
    path.write_text(path.read_text(encoding="utf-8") + "\n\ndef _added_later() -> int:\n    return 1\n", encoding="utf-8")
    sources.folder_digest.cache_clear()
    assert check(project, "--reports").code == 0


@pytest.mark.parametrize(
    ("module", "report"),
    [
        ("engine/stationmaster/rules/turn.py", "site/stationmaster/simulation.md:51:1: report 'simulation'"),
        ("generator/trickoftherails/simulation.py", "site/trickoftherails/simulation.md:22:1: report 'simulation-sweep'"),
    ],
)
def test_a_code_change_in_the_rules_or_the_plans_stales_the_reports(project: Path, code_copy: Path, module: str, report: str) -> None:
    path = code_copy / module
    path.write_text(path.read_text(encoding="utf-8") + "\n\ndef _added_later() -> int:\n    return 1\n", encoding="utf-8")
    sources.folder_digest.cache_clear()
    result = check(project, "--reports")
    assert result.code == 1 and f"{report} was measured before the last change to the rules engine" in result.out, result.output


def test_a_template_change_is_drift(project: Path, code_copy: Path) -> None:
    edit(code_copy / "generator/templates/stationmaster/track.md.j2", "| Handedness |", "| Hand |")
    sources.folder_digest.cache_clear()
    result = check(project)
    assert result.code == 1, result.output
    assert "table 'track'" in result.out


def test_an_engine_change_that_changes_a_status_is_drift(project: Path, code_copy: Path) -> None:
    with registry(("small-yard",)):
        result = check(project)
    assert result.code == 1, result.output
    assert "out of date with content/" in result.out


# -- simulation reports ------------------------------------------------------------------------


def test_an_edit_no_table_prints_passes_and_lists_the_reports_as_stale(project: Path) -> None:
    """The planted stale report: a count (which no page prints) changes what
    the games deal, so every Station Master report is stale; ``check`` says
    so, and fails only on the pack's cards.json (which holds the count);
    ``cards`` rewrites that file alone, then ``check`` passes and ``check
    --reports`` fails."""
    before = site_files(project)
    _first_count(project)
    result = check(project)
    assert result.code == 1 and [p.path for p in result.problems if not p.message.startswith("report ")] == ["site/stationmaster/cards.json"], result.output
    lines = [line for line in stale_lines(result) if "report '" in line]
    assert [re.sub(r":\d+:1:", ":N:1:", line).split(" was ")[0] for line in lines] == [f"{SIMULATION}:N:1: report '{name}'" for name in REPORTS], result.out
    assert all("before the last change to the cards" in line and "make reports" in line for line in lines), lines
    assert "out of date" not in result.out
    assert call_cli(["cards"], project).code == 0
    after = site_files(project)
    assert {name for name in after if after[name] != before.get(name)} == {"stationmaster/cards.json"}, "cards played or rewrote a report"
    assert check(project).code == 0
    strict = check(project, "--reports")
    assert strict.code == 1, strict.output
    assert "simulation.md" in strict.out and "make reports" in strict.err


def _first_count(project: Path) -> None:
    path = project / FACILITIES
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    count: 2\n", "    count: 3\n", 1), encoding="utf-8")


def test_a_comment_in_a_content_file_stales_no_report(project: Path) -> None:
    path = project / FACILITIES
    path.write_text(path.read_text(encoding="utf-8") + "# a designer's note\n", encoding="utf-8")
    result = check(project, "--reports")
    assert result.code == 0, result.output


def test_a_hand_edit_inside_a_report_fails_check(project: Path) -> None:
    page = project / SIMULATION
    text = page.read_text(encoding="utf-8")
    edited = re.sub(r"\| (\d+)% \(", lambda m: f"| {int(m.group(1)) // 2}% (", text, count=1)
    assert edited != text
    page.write_text(edited, encoding="utf-8")
    result = check(project)
    assert result.code == 1, result.output
    assert re.search(rf"^{SIMULATION}:\d+:1: report 'simulation' was edited by hand", result.out, re.MULTILINE), result.out
    written = call_cli(["cards"], project)
    assert written.code == 1 and "edited by hand" in written.out, written.output


def test_an_empty_report_block_is_unmeasured_not_drift(project: Path) -> None:
    page = project / "site/trickoftherails/simulation.md"
    text = page.read_text(encoding="utf-8")
    block = next(b for b in parse_page("p", text, _Any()).blocks if b.name == "simulation-sweep")  # type: ignore[arg-type]
    page.write_text(text.replace(block.body, ""), encoding="utf-8")
    result = check(project)
    assert result.code == 0, result.output
    assert any("report 'simulation-sweep' has never been measured" in line for line in stale_lines(result)), result.out
    assert check(project, "--reports").code == 1


def test_cards_reports_measures_only_the_stale_reports_and_then_they_stand(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Trick of the Rails' station value changes: only its sweep is played
    again; the Station Master reports are left byte for byte."""
    path = project / "content/trickoftherails/railway.yaml"
    text = path.read_text(encoding="utf-8")
    assert "stationValue: 40" in text
    path.write_text(text.replace("stationValue: 40", "stationValue: 30", 1), encoding="utf-8")
    sm_before = (project / SIMULATION).read_bytes()
    assert call_cli(["cards"], project).code == 0
    stale = stale_lines(check(project))
    assert stale and all("trickoftherails/simulation.md" in line for line in stale), stale
    play_few_games(monkeypatch)
    written = call_cli(["cards", "--reports"], project)
    assert written.code == 0, written.output
    assert "site/trickoftherails/simulation.md: report 'simulation-sweep' measured again" in written.out
    assert (project / SIMULATION).read_bytes() == sm_before
    assert check(project, "--reports").code == 0


# -- the built site marks a stale report ---------------------------------------------------


def test_the_site_shows_a_notice_above_a_stale_report_only(project: Path) -> None:
    from engine.packs import load_packs
    from generator.reports import with_stale_notices
    from generator.site import render_pack

    def notices() -> dict[str, int]:
        loaded, problems = load_packs(project / "content")
        assert not problems
        counts = {}
        for one in loaded:
            rendered = render_pack(one, project / "site").rendered
            for name in rendered.new:
                counts[f"{one.folder.id}/{name}"] = with_stale_notices(rendered, name).count("measured before the last change to the cards")
        return counts

    assert sum(notices().values()) == 0
    _first_count(project)
    found = notices()
    assert found["stationmaster/simulation.md"] == len(REPORTS) and sum(found.values()) == len(REPORTS), found


# -- no verdict is kept between runs ------------------------------------------------------


def test_every_check_renders_afresh_even_when_nothing_changed(project: Path, renders: Renders) -> None:
    """A passing check is never remembered: the next one, on the very same
    files, loads, renders and lints again, and says the same."""
    assert call_cli(["cards"], project).code == 0
    first = check(project)
    assert first.code == 0, first.output
    counted = renders.count
    second = check(project)
    assert second.code == 0 and second.out == first.out, second.output
    assert renders.count > counted, "an unchanged project was not rendered again"
    assert not (localcache.root() / "checked").exists()


def test_a_hand_edit_after_a_clean_check_is_found(project: Path) -> None:
    assert call_cli(["cards"], project).code == 0
    assert check(project).code == 0
    page = project / "site/stationmaster/home-deck.md"
    page.write_text(page.read_text(encoding="utf-8").replace("| yes |", "| no |", 1), encoding="utf-8")
    assert check(project).code == 1


def test_no_render_but_cards_reports_plays_a_report() -> None:
    """`check`, `cards` and the MkDocs plugin (under `make serve`, on every
    save) render through ``render_site`` without ``measure``: a report's
    table function is never called there."""
    import dataclasses

    from engine.stationmaster import load_catalog
    from generator.render import read_pages, render_site
    from generator.stationmaster.tables import TABLE_SET

    def played(catalog: object) -> dict[str, object]:
        raise AssertionError("a simulation report was played")

    tables = dataclasses.replace(TABLE_SET, tables={**TABLE_SET.tables, **{name: played for name in TABLE_SET.reports}})
    catalog = load_catalog(PROJECT_ROOT / "content" / "stationmaster")
    rendered = render_site(catalog, read_pages(PROJECT_ROOT / "site" / "stationmaster"), "site/stationmaster/", tables=tables)
    assert rendered.new == rendered.old
    with pytest.raises(AssertionError, match="was played"):
        page = read_pages(PROJECT_ROOT / "site" / "stationmaster")
        page["simulation.md"] = page["simulation.md"].replace("checksum ", "checksum 0", 1)
        render_site(catalog, page, "site/stationmaster/", tables=tables, measure=True)


def test_a_report_whose_stamp_line_was_deleted_says_so(project: Path) -> None:
    page = project / "site/trickoftherails/simulation.md"
    text = page.read_text(encoding="utf-8")
    stamp = re.search(r"^<!-- measured cards .*-->\n", text, re.MULTILINE)
    assert stamp is not None
    page.write_text(text[: stamp.start()] + text[stamp.end() :], encoding="utf-8")
    result = check(project)
    assert result.code == 1, result.output
    assert "report 'simulation-sweep' has lost the line that ends it" in result.out, result.out
    # The real plan: its lines, played again, are the committed ones (with
    # fewer games the sweep's list items would differ, and a list item is
    # too weak a shape to prove the generator wrote it).
    measured = call_cli(["cards", "--reports"], project)
    assert measured.code == 0 and "report 'simulation-sweep' measured again" in measured.out, measured.output
    assert check(project, "--reports").code == 0


# -- what "the rules engine" is ----------------------------------------------------------


def test_the_engines_behaviour_ignores_comments_docstrings_and_layout_but_not_code() -> None:
    shape = sources._shape_of
    plain = b"def f(x):\n    return x + 1\n"
    assert shape(plain) == shape(b'"""A module."""\n# a note\ndef f(x):\n    """Adds one."""\n    return (x +\n            1)  # and why\n')
    assert shape(plain) != shape(b"def f(x):\n    return x + 2\n")
    assert shape(plain) != shape(b"def f(y):\n    return y + 1\n")


def test_the_engines_behaviour_reads_the_same_on_a_python_with_more_empty_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """A later Python may add fields to a node (3.12 gave functions
    ``type_params``); left empty, they change nothing."""
    import ast

    tree = ast.parse("def f(x):\n    return x\n")
    before = sources.written(tree)
    monkeypatch.setattr(ast.FunctionDef, "_fields", (*ast.FunctionDef._fields, "added_later"))
    tree.body[0].added_later = []  # type: ignore[attr-defined]
    assert sources.written(tree) == before
