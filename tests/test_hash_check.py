"""``check`` at the speed of a hash: every generated block ends with a stamp
of its inputs and of its own text, and ``check`` trusts file hashes alone
only when every stamp holds and the very same state was found clean before.

The tests here prove that no stamp that was valid can hide drift: a hand
edit in a block, a stamp rewritten by hand to fit one, a content change, a
schema change, an engine change and a template change each make ``check``
render afresh and find the real state. Whether the render ran is seen
through ``generator.site.render_site``, which only the full check calls.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import sources
from generator import quickcheck, render, site as generator_site
from generator.blocks import Block, parse_page
from generator.project import Project
from generator.stamps import STAMP, block_inputs, holds, pack_inputs, split_stamp, stamped
import hang_guard
from test_site_common import PROJECT_ROOT, Result, baseline as baseline, call_cli, edit, project as project, registry, subprocess_env

STAMP_LINE = re.compile(r"^<!-- inputs ([0-9a-f]{64}) body ([0-9a-f]{64}) -->$", re.MULTILINE)


class Renders:
    """Counts the renders of a pack's pages (``render_site`` as
    ``generator.site.render_pack`` calls it, which any check that renders
    goes through, whatever imported ``render_pack`` and when)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = generator_site.render_site  # type: ignore[attr-defined]

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(generator_site, "render_site", counted)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Renders:
    monkeypatch.setenv("STATIONMASTER_CACHE", "1")
    monkeypatch.delenv("STATIONMASTER_CHECK_CACHE", raising=False)
    return Renders(monkeypatch)


@pytest.fixture(autouse=True)
def restamped_as_committed(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The expensive tables (the simulation, What changed) keep their
    committed text, as in the other site tests, but take the stamp of this
    project's inputs: the stamps are what is under test, and the What changed
    page cannot be made without the git history this copy lacks."""

    def keep_text(catalog: object, tables: object, env: object, block: Block, contexts: object, link: object, wanted: str) -> str:
        return stamped(split_stamp(block.body).text, wanted)

    monkeypatch.setattr(render, "_expensive_body", keep_text)


def _only_expensive_tables_are_stale(result: Result) -> None:
    """What a full check finds after a change that moves no row: every
    cheap table agrees (a stale stamp is no drift in a table), and only the
    expensive tables, whose stamp decides whether ``cards`` computes them
    again, are reported, as stale."""
    assert result.code == 1, result.output
    tables = re.findall(r"^site/[a-z]+/[a-z-]+\.md:\d+:1: table '([a-z-]+)': (.*)$", result.out, re.MULTILINE)
    assert tables, result.output
    for table, detail in tables:
        assert table in ("simulation", "simulation-rivals", "simulation-sweep", "changes"), (table, detail)
        assert detail.startswith("stale:"), (table, detail)


def _speed_up_train_3(project: Path) -> None:
    edit(project / "content/stationmaster/home-deck/trains.yaml",
         "    service: timetabled\n    speed: slow\n    consist: {freight: 3}\n    caboose: true\n    source:",
         "    service: timetabled\n    speed: fast\n    consist: {freight: 3}\n    caboose: true\n    source:")


def check(project: Path) -> Result:
    return call_cli(["check"], project)


def quick_clean(project: Path, renders: Renders) -> None:
    """Bring ``project`` to a state a full check found clean, then show that
    the next check passes from hashes alone (no render)."""
    assert call_cli(["cards"], project).code == 0
    first = check(project)
    assert first.code == 0, first.output
    before = renders.count
    second = check(project)
    assert second.code == 0, second.output
    assert second.out == first.out, "the quick check prints what the full one did"
    assert renders.count == before, "an unchanged project was rendered again"


# -- the stamps ----------------------------------------------------------------------


def test_every_block_ends_with_a_stamp_that_holds(project: Path) -> None:
    assert call_cli(["cards"], project).code == 0
    for pack in ("stationmaster", "trickoftherails"):
        site_dir = project / "site" / pack
        pages = {p.relative_to(site_dir).as_posix(): p.read_text(encoding="utf-8") for p in sorted(site_dir.rglob("*.md"))}
        blocks = [(name, block) for name, text in pages.items() for block in parse_page(name, text, _Any()).blocks]  # type: ignore[arg-type]
        assert blocks
        inputs = pack_inputs(project / "content" / pack, pack)
        assert inputs is not None
        wanted = block_inputs(inputs, {block.name: name for name, block in blocks})
        for name, block in blocks:
            last = block.body.rstrip("\n").rsplit("\n", 1)[-1]
            assert STAMP_LINE.fullmatch(last), (name, block.name, last)
            assert holds(block.body, wanted), (name, block.name)


class _Any:
    def __contains__(self, name: object) -> bool:
        return True


def test_the_stamp_is_a_comment_on_its_own_line_that_hashes_the_text_above_it(project: Path) -> None:
    assert call_cli(["cards"], project).code == 0
    text = (project / "site/stationmaster/home-deck.md").read_text(encoding="utf-8")
    for block in parse_page("home-deck.md", text, _Any()).blocks:  # type: ignore[arg-type]
        found = split_stamp(block.body)
        assert found.body == hashlib.sha256(found.text.encode()).hexdigest()
        assert block.body == found.text + f"<!-- inputs {found.inputs} body {found.body} -->\n"


# -- check without rendering ------------------------------------------------------


def test_check_of_an_unchanged_project_imports_no_renderer(project: Path, renders: Renders) -> None:
    """After a full check passed, the next one reads hashes only: no YAML
    reader, schema validator, template engine or Markdown parser."""
    quick_clean(project, renders)
    probe = (
        "import sys\n"
        "from command import cli\n"
        "code = cli.main(['check'])\n"
        "heavy = sorted(m for m in ('yaml', 'jinja2', 'jsonschema', 'markdown_it') if m in sys.modules)\n"
        "print('HEAVY', heavy, code)\n"
    )
    done = hang_guard.run([sys.executable, "-c", probe], "check on a clean project to end", cwd=project, env=subprocess_env())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "HEAVY [] 0" in done.stdout, done.stdout + done.stderr
    assert "agree with content/stationmaster/" in done.stdout


def test_cards_leaves_a_state_check_knows_clean(project: Path, renders: Renders) -> None:
    edit(project / "content/stationmaster/home-deck/facilities.yaml", "    commodity: merchandise\n", "    commodity: parcels\n")
    assert call_cli(["cards"], project).code == 0
    before = renders.count
    result = check(project)
    assert result.code == 0, result.output
    assert renders.count == before


def test_with_the_memory_off_every_check_renders(project: Path, renders: Renders, monkeypatch: pytest.MonkeyPatch) -> None:
    quick_clean(project, renders)
    monkeypatch.setenv("STATIONMASTER_CHECK_CACHE", "0")
    before = renders.count
    assert check(project).code == 0
    assert renders.count > before


def test_a_damaged_memory_entry_only_means_a_full_check(project: Path, renders: Renders) -> None:
    quick_clean(project, renders)
    for entry in quickcheck.MEMO.glob("*.pickle"):
        entry.write_bytes(b"\x80\x05not a pickle")
    before = renders.count
    result = check(project)
    assert result.code == 0, result.output
    assert renders.count > before


# -- no stale stamp hides drift ------------------------------------------------------


def test_a_hand_edit_inside_a_block_is_drift(project: Path, renders: Renders) -> None:
    quick_clean(project, renders)
    edit(project / "site/stationmaster/home-deck.md", "| left | W–NE | — |", "| left | W–NW | — |")
    result = check(project)
    assert result.code == 1, result.output
    assert "table 'track': changed: curve-left" in result.out


def test_a_stamp_rewritten_to_fit_a_hand_edit_is_still_drift(project: Path, renders: Renders) -> None:
    """The edited row hashes to the stamp, which holds for the current
    inputs: only rendering afresh can tell, so the check does."""
    quick_clean(project, renders)
    page = project / "site/stationmaster/home-deck.md"
    text = page.read_text(encoding="utf-8").replace("| left | W–NE | — |", "| left | W–NW | — |")
    track = next(b for b in parse_page("home-deck.md", text, _Any()).blocks if b.name == "track")  # type: ignore[arg-type]
    old = split_stamp(track.body)
    forged = f"<!-- inputs {old.inputs} body {hashlib.sha256(old.text.encode()).hexdigest()} -->"
    assert text.count(f"<!-- inputs {old.inputs} body {old.body} -->") == 1
    page.write_text(text.replace(f"<!-- inputs {old.inputs} body {old.body} -->", forged), encoding="utf-8")
    before = renders.count
    result = check(project)
    assert renders.count > before
    assert result.code == 1, result.output
    assert "table 'track': changed: curve-left" in result.out


def test_a_stamp_with_the_inputs_fixed_by_hand_does_not_cover_an_edited_body(project: Path, renders: Renders) -> None:
    """A content edit moves every stamp; copying the new inputs into the
    stamps by hand leaves each body hash, which the edited table fails."""
    quick_clean(project, renders)
    _speed_up_train_3(project)
    edit(project / "site/stationmaster/home-deck.md", "| left | W–NE | — |", "| left | W–NW | — |")
    inputs = pack_inputs(project / "content/stationmaster", "stationmaster")
    assert inputs is not None
    site_dir = project / "site/stationmaster"
    pages = {p.name: p.read_text(encoding="utf-8") for p in site_dir.glob("*.md")}
    wanted = block_inputs(inputs, {b.name: name for name, text in pages.items() for b in parse_page(name, text, _Any()).blocks})  # type: ignore[arg-type]
    for name, text in pages.items():
        (site_dir / name).write_text(STAMP.sub(lambda m: f"<!-- inputs {wanted} body {m.group(2)} -->", text), encoding="utf-8")
    result = check(project)
    assert result.code == 1, result.output
    assert "table 'track': changed: curve-left" in result.out
    assert "table 'timetabled-trains': changed: train-3" in result.out


def test_a_line_typed_after_the_stamp_is_drift(project: Path, renders: Renders) -> None:
    quick_clean(project, renders)
    page = project / "site/stationmaster/mainline.md"
    text = page.read_text(encoding="utf-8")
    stamp = STAMP_LINE.search(text)
    assert stamp
    page.write_text(text[: stamp.end() + 1] + "A note typed after the stamp.\n" + text[stamp.end() + 1 :], encoding="utf-8")
    result = check(project)
    assert result.code == 1, result.output
    assert "-A note typed after the stamp." in result.out


def test_a_content_change_is_drift(project: Path, renders: Renders) -> None:
    quick_clean(project, renders)
    _speed_up_train_3(project)
    result = check(project)
    assert result.code == 1, result.output
    assert "table 'timetabled-trains': changed: train-3" in result.out


def test_a_schema_change_is_checked_afresh(project: Path, renders: Renders) -> None:
    quick_clean(project, renders)
    schema = project / "content/stationmaster/schema/trains.schema.json"
    edit(schema, '        "speed",\n', '        "speed",\n        "whistle",\n')
    result = check(project)
    assert result.code == 1, result.output
    assert "whistle" in result.out and "trains.yaml" in result.out


def test_a_harmless_schema_change_renders_afresh_and_finds_the_real_state(project: Path, renders: Renders) -> None:
    """A stale stamp is no drift in a table: the render finds the real state."""
    quick_clean(project, renders)
    schema = project / "content/stationmaster/schema/trains.schema.json"
    schema.write_text(schema.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    before = renders.count
    result = check(project)
    assert renders.count > before
    _only_expensive_tables_are_stale(result)


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


def test_a_template_change_is_drift(project: Path, renders: Renders, code_copy: Path) -> None:
    quick_clean(project, renders)
    edit(code_copy / "generator/templates/stationmaster/track.md.j2", "| Handedness |", "| Hand |")
    sources.folder_digest.cache_clear()
    result = check(project)
    assert result.code == 1, result.output
    assert "table 'track'" in result.out and "+| Card |" in result.out


def test_an_engine_change_is_drift(project: Path, renders: Renders, code_copy: Path) -> None:
    """The engine changes what a card's status is: its source changed (the
    digest) and its handlers did (the registry pinned to fewer effects)."""
    quick_clean(project, renders)
    engine_file = code_copy / "engine/stationmaster/status.py"
    engine_file.write_text(engine_file.read_text(encoding="utf-8") + "\n# a change\n", encoding="utf-8")
    sources.folder_digest.cache_clear()
    with registry(("small-yard",)):
        result = check(project)
    assert result.code == 1, result.output
    assert "out of date with content/" in result.out


def test_an_engine_change_that_changes_no_row_renders_afresh_and_finds_the_real_state(project: Path, renders: Renders, code_copy: Path) -> None:
    quick_clean(project, renders)
    engine_file = code_copy / "engine/stationmaster/status.py"
    engine_file.write_text(engine_file.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    sources.folder_digest.cache_clear()
    before = renders.count
    result = check(project)
    assert renders.count > before
    _only_expensive_tables_are_stale(result)


def test_a_table_kept_as_committed_does_not_stop_the_quick_check(project: Path, renders: Renders, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where an expensive table cannot be made (the What changed page in a
    copy without the git history), the full check keeps it as committed,
    stale stamp and all; the next check still needs no render. A cheap
    table's stamp has no such leave: ``cards`` always writes it afresh."""
    monkeypatch.setattr(render, "_expensive_body", lambda catalog, tables, env, block, *rest: block.body)
    _speed_up_train_3(project)
    assert call_cli(["cards"], project).code == 0
    state = quickcheck.site_state(Project.here(project))
    assert state is not None
    assert ("stationmaster", "changes") in state.unheld
    assert all(table in ("changes", "simulation", "simulation-rivals", "simulation-sweep") for _, table in state.unheld), state.unheld
    before = renders.count
    result = check(project)
    assert result.code == 0, result.output
    assert renders.count == before
