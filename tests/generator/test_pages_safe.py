"""``stationmaster cards`` never loses what a writer put in a page, and
``check`` reads a page as its writer wrote it: a page saved during the run
is left alone, text typed inside a generated block is named and kept, a
CRLF page stays CRLF, a symbolic link stays a link, a marker shown as code
is prose, and a write is durable and leaves no stray file after a kill."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.kit import hang_guard
from tests.kit.cli import Result, subprocess_env
from tests.kit.plans import play_few_games
from tests.kit.project import PROJECT_ROOT, edit, line_of, snapshot

Run = Callable[..., Result]

FACILITIES = Path("content/stationmaster/home-deck/facilities.yaml")
MAINLINE = Path("content/stationmaster/mainline.yaml")
HOME_DECK = "site/stationmaster/home-deck.md"
MAINLINE_PAGE = "site/stationmaster/mainline.md"
NOTE = "A sentence the writer saved while `cards` was running.\n"
# A process id no system hands out (Linux's largest is 2**22).
GONE_PID = 99_999_999


def _stale_both(project: Path) -> None:
    """Content changes that make home-deck.md and mainline.md out of date."""
    edit(project / FACILITIES, "    commodity: merchandise\n", "    commodity: parcels\n")
    edit(project / MAINLINE, "chooses which direction is uphill.", "says which way is uphill.")


# -- a page saved while `cards` runs -------------------------------------------------------


def test_a_page_saved_during_the_run_is_not_overwritten(sm: Run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.site

    _stale_both(project)
    page = project / HOME_DECK
    real_render = generator.site.render_pack

    def render_then_writer_saves(*args: Any, **kwargs: Any) -> Any:
        site = real_render(*args, **kwargs)  # the pages are read by now
        if page.parent == site.site_dir:
            with page.open("a", encoding="utf-8") as handle:
                handle.write(NOTE)
        return site

    monkeypatch.setattr(generator.site, "render_pack", render_then_writer_saves)
    result = sm("cards")

    assert result.code == 1, result.output
    text = page.read_text(encoding="utf-8")
    assert text.endswith(NOTE), "the writer's line was lost"
    assert " merchandise by " in text, "the page was rewritten over the writer's save"
    assert f"{HOME_DECK}:1:1: this page changed on disk while `cards` was running" in result.out, result.out
    # the other page is written all the same
    assert "site/stationmaster/mainline.md" in result.out.splitlines()[0]
    assert "says which way is uphill." in (project / MAINLINE_PAGE).read_text(encoding="utf-8")
    # once the writer is done, a second run brings the page up to date and keeps the line
    monkeypatch.undo()
    monkeypatch.chdir(project)
    result = sm("cards")
    assert result.code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert text.endswith(NOTE) and " parcels by " in text


# -- text typed inside a generated block -----------------------------------------------------------


def _refused_as_typed(sm: Run, page: Path, where: str, block: str) -> tuple[str, str]:
    """``check`` names the line typed at ``where`` (PAGE:LINE) inside
    ``block`` and fails; ``cards`` names it too, exits 1 and leaves the page
    byte for byte as it was. Their outputs, for a test's own checks."""
    typed = page.read_bytes()
    checked = sm("check")
    assert checked.code == 1
    assert f"{where}:1: this line was typed by hand inside the generated block '{block}'" in checked.out, checked.out
    carded = sm("cards")
    assert carded.code == 1, carded.output
    assert page.read_bytes() == typed
    assert f"{where}:1: text typed inside the generated block '{block}'" in carded.out, carded.out
    return checked.out, carded.out


def test_text_typed_inside_a_block_is_named_and_the_page_is_left(sm: Run, project: Path) -> None:
    _stale_both(project)
    page = project / HOME_DECK
    text = page.read_text(encoding="utf-8")
    closing = line_of(text, "<!-- /generated -->", nth=line_of_block(text, "facilities"))
    lines = text.splitlines(keepends=True)
    lines.insert(closing - 1, "Note: Freight Houses are rare in the 1st edition.\n")
    page.write_text("".join(lines), encoding="utf-8")
    checked, carded = _refused_as_typed(sm, page, f"{HOME_DECK}:{closing}", "facilities")
    assert "'facilities': 'Note: Freight Houses are rare in the 1st edition.'" in checked
    assert "move it above '<!-- generated: facilities -->' or below '<!-- /generated -->'" in carded
    assert "says which way is uphill." in (project / MAINLINE_PAGE).read_text(encoding="utf-8")


def line_of_block(text: str, name: str) -> int:
    """Which closing marker (1st, 2nd, ...) closes block ``name``."""
    opened = line_of(text, f"<!-- generated: {name} -->")
    return sum(1 for line in text.splitlines()[:opened] if line.startswith("<!-- generated: "))


def test_a_hand_edited_row_is_still_restored(sm: Run, project: Path) -> None:
    """Rows are the generator's: an edited row fits the table's shape, so it
    is drift that `cards` puts right, not typed text."""
    page = project / HOME_DECK
    original = page.read_bytes()
    edit(page, "| left | W–NE | — |", "| left | W–NW | — |")
    result = sm("cards")
    assert result.code == 0, result.output
    assert page.read_bytes() == original


# -- line endings ---------------------------------------------------------------------------------


def test_a_crlf_page_is_not_drift_and_is_rewritten_crlf(sm: Run, project: Path) -> None:
    page = project / MAINLINE_PAGE
    page.write_bytes(page.read_bytes().replace(b"\n", b"\r\n"))
    result = sm("check")
    assert result.code == 0, result.output
    _stale_both(project)
    assert sm("cards").code == 0
    data = page.read_bytes()
    assert b"says which way is uphill." in data and data.count(b"\n") == data.count(b"\r\n")


# -- symbolic links ---------------------------------------------------------------------------


def test_a_symlinked_page_is_written_through_the_link(sm: Run, project: Path) -> None:
    page = project / HOME_DECK
    kept = project / "drafts" / "home-deck.md"
    kept.parent.mkdir()
    page.rename(kept)
    page.symlink_to(os.path.relpath(kept, page.parent))
    _stale_both(project)

    result = sm("cards")
    assert result.code == 0, result.output
    assert page.is_symlink(), "the link was replaced by a plain file"
    assert " parcels by " in kept.read_text(encoding="utf-8")
    assert sm("check").code == 0


# -- markers shown as code ------------------------------------------------------------------


@pytest.mark.parametrize(
    "prose",
    [
        "Write `<!-- generated: track -->` alone on a line to place the table.\n",
        "The closing line is ``<!-- /generated -->``, also alone.\n",
        "\n    <!-- generated: track -->\n    <!-- /generated -->\n",
        "## Example\n    <!-- generated: nope -->\n",
    ],
    ids=["inline-code", "double-backtick-code", "indented-code", "indented-after-heading"],
)
def test_a_marker_shown_as_code_is_prose(sm: Run, project: Path, prose: str) -> None:
    page = project / "site/stationmaster/editing.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n" + prose, encoding="utf-8")
    before = snapshot(project)
    result = sm("check")
    assert result.code == 0, result.output
    result = sm("cards")
    assert result.code == 0, result.output
    assert snapshot(project) == before


def test_an_indented_marker_continuing_a_paragraph_is_still_refused(sm: Run, project: Path) -> None:
    """Four spaces after a line of text continue the paragraph (no code
    block can start there), so the marker is a misplaced one."""
    page = project / "site/stationmaster/editing.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSome text.\n    <!-- generated: track -->\n", encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    assert "must start at the beginning of its line" in result.out


# -- temporary files ----------------------------------------------------------------------


def test_a_page_is_flushed_before_its_rename_and_its_folder_after(sm: Run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync " + os.readlink(f"/proc/self/fd/{fd}"))  # what the descriptor is open on (Linux)
        real_fsync(fd)

    def replace(src: str, dst: str) -> None:
        events.append(f"replace {src}")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    edit(project / FACILITIES, "    commodity: merchandise\n", "    commodity: parcels\n")
    assert sm("cards").code == 0
    site = os.path.realpath(project / "site" / "stationmaster")
    replaced = [e for e in events if e.startswith(f"replace {site}/.home-deck.md.")]
    assert len(replaced) == 1, events
    temporary = replaced[0].split(" ", 1)[1]
    where = events.index(replaced[0])
    assert f"fsync {temporary}" in events[:where], events
    assert f"fsync {site}" in events[where:], events
    # the temporary file's name is one .gitignore ignores
    name = os.path.basename(temporary)
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", f"site/stationmaster/{name}"], cwd=PROJECT_ROOT)
    assert ignored.returncode == 0, f"{name} is not ignored by .gitignore"


def test_cards_clears_temporary_files_a_killed_run_left(sm: Run, project: Path) -> None:
    site = project / "site" / "stationmaster"
    stale = site / f".home-deck.md.{GONE_PID}.k3x_9abc.stationmaster-tmp"
    live = site / f".mainline.md.{os.getpid()}.abcdefgh.stationmaster-tmp"  # a run still going
    others = [site / ".home-deck.md.x1y2z3.tmp", site / "notes.stationmaster-tmp", site / ".draft.md.12.ab.stationmaster-tmp.bak"]
    for path in (stale, live, *others):
        path.write_text("half a page", encoding="utf-8")

    result = sm("cards")
    assert result.code == 0, result.output
    assert not stale.exists()
    assert live.exists() and all(p.exists() for p in others), "a file not left by a dead `cards` was removed"


def test_a_run_killed_mid_write_leaves_the_page_whole_and_the_next_run_clears_up(project: Path) -> None:
    """``kill -9`` at the worst moment: the new text is in the temporary
    file, the rename has not happened. The page is the old one, the leftover
    is a file git ignores, and the next ``cards`` removes it."""
    edit(project / FACILITIES, "    commodity: merchandise\n", "    commodity: parcels\n")
    page = project / HOME_DECK
    pages = sorted((project / "site").rglob("*.md"))
    before = {p: p.read_bytes() for p in pages}
    killer = (
        "import os, signal, sys\n"
        "from command import cli\n"
        "real = os.fsync\n"
        "def fsync(fd):\n"
        "    real(fd)\n"
        "    if os.readlink(f'/proc/self/fd/{fd}').endswith('.stationmaster-tmp'):\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "os.fsync = fsync\n"
        "sys.exit(cli.main(['cards']))\n"
    )
    done = hang_guard.run([sys.executable, "-c", killer], "cards killed at its first write to end", cwd=project, env=subprocess_env())
    assert done.returncode == -9, done.stdout + done.stderr
    # Killed at its first write (which page that is depends on the order
    # pages are written in; every page's stamp changes with the content):
    # every page is still the old one, and one temporary file is left.
    assert {p: p.read_bytes() for p in pages} == before
    left = [p for p in (project / "site").rglob("*") if p.name.endswith(".stationmaster-tmp")]
    assert len(left) == 1 and left[0].name.startswith(".")
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", left[0].relative_to(project).as_posix()], cwd=PROJECT_ROOT)
    assert ignored.returncode == 0

    done = hang_guard.run([sys.executable, "-c", "from command import cli\nraise SystemExit(cli.main(['cards']))\n"], "cards after the killed run to end", cwd=project, env=subprocess_env())
    assert done.returncode == 0, done.stdout + done.stderr
    assert not left[0].exists() and " parcels by " in page.read_text(encoding="utf-8")


SIMULATION_PAGE = "site/stationmaster/simulation.md"
WRITER_NOTE = "Writer note: we measured these on the club table. Keep this paragraph.\n"


# The measuring test types into Trick of the Rails' sweep, the same shared
# block as Station Master's: it measures again in a few seconds, not twenty.
MEASURED_PAGE = "site/trickoftherails/simulation.md"


def _typed_in_sweep(project: Path, where: str) -> tuple[Path, int]:
    """The writer's note typed two lines into the sweep block; its line."""
    page = project / where
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    opened = lines.index("<!-- generated: simulation-sweep -->\n") + 1
    lines.insert(opened + 2, WRITER_NOTE)
    page.write_text("".join(lines), encoding="utf-8")
    return page, opened + 3


def test_a_sentence_typed_inside_the_sweep_block_is_kept(sm: Run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep line such as ``{{ n }}. {{ label }}`` has too little fixed
    text to prove the generator wrote a line that fits it: a sentence
    holding ". " is the writer's, so measuring the report again keeps the
    page rather than lose it (plain ``cards`` never rewrites a report)."""
    page, number = _typed_in_sweep(project, MEASURED_PAGE)
    before = page.read_bytes()
    plain = sm("cards")
    assert plain.code == 1 and "report 'simulation-sweep' was edited by hand" in plain.out, plain.output
    assert page.read_bytes() == before
    play_few_games(monkeypatch)
    result = sm("cards", "--reports")
    assert result.code == 1, result.output
    assert f"{MEASURED_PAGE}:{number}:1: text typed inside the generated block 'simulation-sweep'" in result.out, result.out
    assert page.read_bytes() == before


@pytest.mark.parametrize("line", ["1. Baseline, as the table plays it", "- a list item the writer added"])
def test_weak_template_lines_do_not_prove_a_line_generated(line: str) -> None:
    """Lines that fit only the sweep's open shapes are typed, in a block
    whose text no longer matches its stamp."""
    from generator.blocks import parse_page
    from generator.drift import typed_lines

    text = (PROJECT_ROOT / SIMULATION_PAGE).read_text(encoding="utf-8")
    page = parse_page(SIMULATION_PAGE, text, _names(text))
    block = next(b for b in page.blocks if b.name == "simulation-sweep")
    edited = type(block)(block.name, block.line, "\n" + line + "\n" + block.body)
    assert typed_lines("stationmaster", edited, block) == [(block.line + 2, line)]


def test_a_content_change_alone_still_regenerates_the_sweep_block() -> None:
    """Typed-line detection looks only at a block edited since its stamp: a
    sweep whose text changed because the content did (every numbered and
    listed line different) is regenerated, nothing called typed."""
    from generator.blocks import parse_page
    from generator.drift import typed_lines
    from generator.stamps import split_stamp, stamped

    text = (PROJECT_ROOT / SIMULATION_PAGE).read_text(encoding="utf-8")
    page = parse_page(SIMULATION_PAGE, text, _names(text))
    block = next(b for b in page.blocks if b.name == "simulation-sweep")
    old = split_stamp(block.body)
    assert old.measured is not None and old.matches_its_stamp
    changed = old.text.replace("1. ", "1. Another ").replace("\n- ", "\n- other: ")
    assert changed != old.text
    committed = type(block)(block.name, block.line, stamped(changed, old.measured))
    assert typed_lines("stationmaster", committed, block) == []


def _names(text: str) -> set[str]:
    import re

    return set(re.findall(r"^<!-- generated: ([a-z][a-z0-9-]*) -->$", text, re.MULTILINE))


def test_a_page_with_a_byte_order_mark_keeps_it_when_a_block_is_regenerated(sm: Run, project: Path) -> None:
    page = project / HOME_DECK
    original = "\ufeff".encode() + page.read_bytes()
    page.write_bytes(original)
    edit(page, "| left | W–NE | — |", "| left | W–NW | — |")
    assert sm("check").code == 1
    result = sm("cards")
    assert result.code == 0, result.output
    assert page.read_bytes() == original
    assert sm("check").code == 0
