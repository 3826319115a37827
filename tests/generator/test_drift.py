"""``stationmaster check`` and ``cards``: drift is found, described and fixed;
``check`` never writes; ``cards`` writes atomically, only what changed, and
the same bytes whatever the hash seed."""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.kit import hang_guard
from tests.kit.cli import Result, stationmaster_exe, subprocess_env
from tests.kit.pages import split_page
from tests.kit.plans import play_few_games
from tests.kit.project import edit, line_of, snapshot

Run = Callable[..., Result]

TRAINS = Path("content/stationmaster/home-deck/trains.yaml")
FACILITIES = Path("content/stationmaster/home-deck/facilities.yaml")
MAINLINE = Path("content/stationmaster/mainline.yaml")
MANEUVERS = Path("content/stationmaster/home-deck/maneuvers.yaml")

# (file, old text, new text, page, table, card id, text in the old row, text in the new row)
CARD_CHANGES = [
    pytest.param(
        TRAINS,
        '  - id: train-3\n    name: No. 3 Way Freight\n    count: 1\n    number: "3"\n    service: timetabled\n    speed: slow\n',
        '  - id: train-3\n    name: No. 3 Way Freight\n    count: 1\n    number: "3"\n    service: timetabled\n    speed: fast\n',
        "home-deck.md",
        "timetabled-trains",
        "train-3",
        "| 3 | slow |",
        "| 3 | fast |",
        id="train-speed",
    ),
    pytest.param(
        FACILITIES,
        "    name: Packing Sheds\n    count: 2\n    commodity: produce\n    carTypes: [reefer]\n",
        "    name: Packing Sheds\n    count: 2\n    commodity: produce\n    carTypes: [reefer, boxcar]\n",
        "home-deck.md",
        "facilities",
        "packing-sheds",
        " produce by reefer;",
        " produce by reefer, boxcar;",
        id="facility-car-types",
    ),
    pytest.param(
        MAINLINE,
        "    grade: true\n    text: The player who places it chooses which direction is uphill.\n",
        "    grade: true\n    text: The player who places it says which way is uphill.\n",
        "mainline.md",
        "mainline-terrain",
        "heavy-grade",
        "| graded | The player who places it chooses which direction is uphill. |",
        "| graded | The player who places it says which way is uphill. |",
        id="terrain-card-text",
    ),
]


_STAMP_LINE = re.compile(r"^<!-- (?:measured cards [0-9a-f]{16} rules [0-9a-f]{16} layout [0-9a-f]{16} )?checksum [0-9a-f]{64} -->\n", re.MULTILINE)


def _unstamped(text: str) -> str:
    """A page without the checksum line that ends each generated block,
    for comparing what a reader sees."""
    return _STAMP_LINE.sub("", text)


def _rewritten(out: str) -> list[str]:
    """The pages a ``cards`` run names as rewritten."""
    head, _, names = out.strip().partition(": ")
    assert "page(s) rewritten" in head, out
    return names.split(", ") if names else []


def _prose_of_all_pages(site: Path) -> dict[str, str]:
    return {p.name: split_page(p.read_text(encoding="utf-8"))[0] for p in sorted(site.glob("*.md"))}


@pytest.mark.parametrize(("path", "old", "new", "page", "table", "card", "old_row", "new_row"), CARD_CHANGES)
def test_changed_card_is_reported_then_fixed_by_cards(sm: Run, project: Path, path: Path, old: str, new: str, page: str, table: str, card: str, old_row: str, new_row: str) -> None:
    site = project / "site" / "stationmaster"
    prose_before = _prose_of_all_pages(site)
    pages_before = {p.name: p.read_text(encoding="utf-8") for p in site.glob("*.md")}
    edit(project / path, old, new)

    before = snapshot(project)
    result = sm("check")
    assert snapshot(project) == before, "check must write nothing"
    assert result.code == 1, result.output
    out = result.out
    row_line = line_of(pages_before[page], f'<a id="card-{card}"></a>')
    # the page, the table, the card id at its row's line, and what changed in it
    assert f"site/stationmaster/{page}: out of date with content/" in out
    assert re.search(rf"^site/stationmaster/{re.escape(page)}:{row_line}:1: table '{table}': {card}: [^:]+: .* → .*$", out, re.MULTILINE), out
    # only the page that holds the table drifts
    assert re.findall(r"^(site/stationmaster/[^:]+): out of date", out, re.MULTILINE) == [f"site/stationmaster/{page}"]
    # a unified diff, whose -/+ lines are exactly the card's row
    assert f"--- site/stationmaster/{page} (committed)" in out and f"+++ site/stationmaster/{page} (from content/)" in out
    assert re.search(r"^@@ -\d+,\d+ \+\d+,\d+ @@", out, re.MULTILINE)
    minus = [line for line in out.splitlines() if line.startswith("-") and not line.startswith("---")]
    plus = [line for line in out.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert len(minus) == len(plus) == 1, (minus, plus)
    assert f'<a id="card-{card}"></a>' in minus[0] and old_row in minus[0]
    assert f'<a id="card-{card}"></a>' in plus[0] and new_row in plus[0]
    # the fix command
    assert "make cards" in out.splitlines()[-1]

    result = sm("cards")
    assert result.code == 0, result.output
    # every page with a table of the pack is re-stamped; only this one's rows change
    assert f"site/stationmaster/{page}" in _rewritten(result.out)
    result = sm("check")
    assert result.code == 0, result.output

    assert _prose_of_all_pages(site) == prose_before, "prose outside the blocks changed"
    pages_after = {p.name: p.read_text(encoding="utf-8") for p in site.glob("*.md")}
    for name in pages_before:
        if name != page:
            assert _unstamped(pages_after[name]) == _unstamped(pages_before[name]), name
    before_lines, after_lines = _unstamped(pages_before[page]).splitlines(), _unstamped(pages_after[page]).splitlines()
    changed = [(a, b) for a, b in zip(before_lines, after_lines) if a != b]
    assert len(before_lines) == len(after_lines)
    assert changed == [(minus[0][1:], plus[0][1:])]


def test_hand_edit_of_a_row_is_drift_and_cards_restores_it(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/home-deck.md"
    original = page.read_bytes()
    text = original.decode()
    edit(page, "| left | W–NE | — |", "| left | W–NW | — |")
    row = line_of(text, '<a id="card-curve-left"></a>')

    before = snapshot(project)
    result = sm("check")
    assert snapshot(project) == before
    assert result.code == 1
    assert re.search(rf"^site/stationmaster/home-deck.md:{row}:1: table 'track': curve-left: Routes \(ports joined\): W–NW → W–NE$", result.out, re.MULTILINE), result.out
    assert re.search(r'^-\| <a id="card-curve-left"></a>Curve \(left\) .* \| left \| W–NW \| — \|$', result.out, re.MULTILINE), result.out
    assert re.search(r'^\+\| <a id="card-curve-left"></a>Curve \(left\) .* \| left \| W–NE \| — \|$', result.out, re.MULTILINE), result.out

    result = sm("cards")
    assert result.code == 0 and result.out.strip() == "1 page(s) rewritten: site/stationmaster/home-deck.md"
    assert page.read_bytes() == original
    assert sm("check").code == 0


def test_hand_edit_without_a_row_change_is_still_drift(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/mainline.md"
    original = page.read_bytes()
    text = original.decode()
    marker = line_of(text, "<!-- generated: division-points -->")
    lines = text.splitlines(keepends=True)
    lines.insert(marker + 1, "A note typed into the generated block.\n")
    page.write_text("".join(lines), encoding="utf-8")

    result = sm("check")
    assert result.code == 1
    assert re.search(rf"^site/stationmaster/mainline.md:{marker}:1: table 'division-points': it holds text typed by hand inside the generated block", result.out, re.MULTILINE), result.out
    assert re.search(
        rf"^site/stationmaster/mainline.md:{marker + 2}:1: this line was typed by hand inside the generated block 'division-points': 'A note typed into the generated block.'", result.out, re.MULTILINE
    ), result.out
    assert "-A note typed into the generated block." in result.out

    # `cards` would lose the note: it leaves the page and says where the note is.
    typed = page.read_bytes()
    result = sm("cards")
    assert result.code == 1 and f"mainline.md:{marker + 2}:1: text typed inside the generated block 'division-points'" in result.out, result.output
    assert page.read_bytes() == typed
    page.write_bytes(original)
    assert sm("check").code == 0


def _first_stamp(text: str) -> tuple[int, str]:
    """The line number and text of the page's first stamp line."""
    number = line_of(text, "<!-- checksum ")
    return number, text.splitlines(keepends=True)[number - 1]


def test_a_deleted_stamp_line_is_drift_named_as_missing(sm: Run, project: Path) -> None:
    """``check`` fails where ``cards`` would rewrite the page, and says the
    stamp is missing rather than calling the table stale."""
    page = project / "site/stationmaster/house-rules.md"
    original = page.read_bytes()
    text = original.decode()
    number, stamp = _first_stamp(text)
    lines = text.splitlines(keepends=True)
    del lines[number - 1]
    page.write_text("".join(lines), encoding="utf-8")
    opened = max(n for n, line in enumerate(lines[: number - 1], start=1) if line.startswith("<!-- generated: "))

    before = snapshot(project)
    result = sm("check")
    assert result.code == 1, result.output
    assert snapshot(project) == before
    assert re.search(rf"^site/stationmaster/house-rules.md:{opened}:1: table '[a-z-]+': the checksum line that ends it .* is missing", result.out, re.MULTILINE), result.out
    assert "stale" not in result.out

    result = sm("cards")
    assert result.code == 0, result.output
    assert page.read_bytes() == original
    assert sm("check").code == 0


def test_text_after_a_stamp_is_called_an_edited_end_not_stale(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/house-rules.md"
    original = page.read_bytes()
    text = original.decode()
    number, _ = _first_stamp(text)
    lines = text.splitlines(keepends=True)
    lines.insert(number, "\n")
    page.write_text("".join(lines), encoding="utf-8")

    result = sm("check")
    assert result.code == 1, result.output
    assert "text follows the checksum line that should end it" in result.out, result.out
    assert "stale" not in result.out
    result = sm("cards")
    assert result.code == 0, result.output
    assert page.read_bytes() == original


def test_added_card_is_reported_as_added(sm: Run, project: Path) -> None:
    text = (project / MANEUVERS).read_text(encoding="utf-8")
    (project / MANEUVERS).write_text(text + "  - id: hand-brake\n    name: Hand Brake\n    count: 1\n    effect: poling\n    source: homeDeck-0.8.6\n", encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    assert re.search(r"^site/stationmaster/home-deck.md:\d+:1: table 'maneuvers': added: hand-brake \(Hand Brake\), a new row to go below this line$", result.out, re.MULTILINE), result.out
    assert re.search(r'^\+\| <a id="card-hand-brake"></a>Hand Brake \|', result.out, re.MULTILINE)
    assert sm("cards").code == 0
    assert sm("check").code == 0
    assert '<a id="card-hand-brake"></a>Hand Brake' in (project / "site/stationmaster/home-deck.md").read_text(encoding="utf-8")


def test_removed_card_is_reported_as_removed(sm: Run, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = project / "content/stationmaster/home-deck/opponent.yaml"
    block = re.search(r"^  - id: trackage-rights\n(?:    .*\n)*", path.read_text(encoding="utf-8"), re.MULTILINE)
    assert block, "no trackage-rights card (the content changed shape?)"
    edit(path, block.group(0), "")
    result = sm("check")
    assert result.code == 1
    assert re.search(r"^site/stationmaster/home-deck.md:\d+:1: table 'space-use-cards': removed: trackage-rights \(Trackage Rights\)$", result.out, re.MULTILINE), result.out
    assert re.search(r'^-\| <a id="card-trackage-rights"></a>Trackage Rights( \[†\]\(#designed-legend [^)]*\))? \|', result.out, re.MULTILINE)
    # The Simulation page's games with rivals name every opponent-directed
    # card: measured again, so no link outlives the card.
    play_few_games(monkeypatch)
    assert sm("cards", "--reports").code == 0
    assert sm("check", "--reports").code == 0
    assert "card-trackage-rights" not in (project / "site/stationmaster/home-deck.md").read_text(encoding="utf-8")


def test_drift_on_two_pages_lists_both(sm: Run, project: Path) -> None:
    edit(
        project / TRAINS,
        "    service: timetabled\n    speed: slow\n    consist: {freight: 3}\n    caboose: true\n    source:",
        "    service: timetabled\n    speed: fast\n    consist: {freight: 3}\n    caboose: true\n    source:",
    )
    edit(
        project / MAINLINE,
        "  - id: tunnel\n    name: Tunnel\n    count: 1\n    role: terrain\n    speedMph: {passenger: 30, freight: 30}\n",
        "  - id: tunnel\n    name: Tunnel\n    count: 1\n    role: terrain\n    speedMph: {passenger: 60, freight: 30}\n",
    )
    result = sm("check")
    assert result.code == 1
    assert re.findall(r"^(site/stationmaster/[^:]+): out of date", result.out, re.MULTILINE) == ["site/stationmaster/home-deck.md", "site/stationmaster/mainline.md"]
    assert "table 'timetabled-trains': train-3: Speed: slow → fast" in result.out
    assert "table 'mainline-terrain': tunnel: Speed (mph): 30 passenger, 30 freight → 60 passenger, 30 freight" in result.out
    result = sm("cards")
    assert {"site/stationmaster/home-deck.md", "site/stationmaster/mainline.md"} <= set(_rewritten(result.out))


@pytest.mark.parametrize(
    ("path", "old", "new", "table", "named"),
    [
        pytest.param("content/stationmaster/effects.yaml", "summary: TBD in the source.", "summary: TBD in the source, still.", "effects", "poling", id="effect-summary"),
        pytest.param(
            "content/stationmaster/house-rules.yaml",
            "text: A timetabled train may be discarded like any ordinary card.",
            "text: A timetabled train may be discarded like any other card.",
            "house-rules",
            "discardTimetabled",
            id="house-rule-option",
        ),
        pytest.param("content/stationmaster/home-deck/mainline-modifiers.yaml", "      trestle: uncontrolled-siding\n", "", "realignment", "realignment", id="realignment-map"),
    ],
)
def test_content_drift_is_never_called_a_hand_edit(sm: Run, project: Path, path: str, old: str, new: str, table: str, named: str) -> None:
    edit(project / path, old, new)
    result = sm("check")
    assert result.code == 1
    lines = [line for line in result.out.splitlines() if f"table '{table}':" in line]
    assert len(lines) == 1, result.out
    assert "edited by hand" not in lines[0] and named in lines[0], lines[0]


# -- content that does not validate -------------------------------------------------------


@pytest.mark.parametrize("command", ["cards", "check"])
def test_invalid_content_is_located_and_nothing_is_written(sm: Run, project: Path, command: str) -> None:
    trains = project / TRAINS
    text = trains.read_text(encoding="utf-8")
    # one schema error (at a known place) and a stale page that cards would otherwise rewrite
    speed_line = line_of(text, "speed: slow", 1)
    lines = text.splitlines(keepends=True)
    lines[speed_line - 1] = lines[speed_line - 1].replace("speed: slow", "speed: glacial")
    trains.write_text("".join(lines), encoding="utf-8")
    (project / "site/stationmaster/home-deck.md").write_text(
        (project / "site/stationmaster/home-deck.md").read_text(encoding="utf-8").replace("| left | W–NE | — |", "| left | W–NE | 1 |"), encoding="utf-8"
    )

    before = snapshot(project)
    result = sm(command)
    assert snapshot(project) == before
    assert result.code == 1
    assert ("content/stationmaster/home-deck/trains.yaml", speed_line, 12) in [(p, ln, c) for p, ln, c, _ in result.located()], result.out
    assert "glacial" in result.out
    assert "out of date" not in result.out  # nothing is compared before the content loads
    if command == "cards":
        assert "nothing was written" in result.err


@pytest.mark.parametrize("command", ["cards", "check"])
def test_broken_yaml_is_located_and_nothing_is_written(sm: Run, project: Path, command: str) -> None:
    trains = project / TRAINS
    text = trains.read_text(encoding="utf-8")
    line = line_of(text, "consist: {coach: 3}")
    edit(
        trains,
        '  - id: train-1\n    name: No. 1 Morning Passenger\n    count: 1\n    number: "1"\n    service: timetabled\n    speed: fast\n    consist: {coach: 3}\n',
        '  - id: train-1\n    name: No. 1 Morning Passenger\n    count: 1\n    number: "1"\n    service: timetabled\n    speed: fast\n    consist: {coach: 3\n',
    )
    before = snapshot(project)
    result = sm(command)
    assert snapshot(project) == before
    assert result.code == 1
    located = [(p, ln) for p, ln, _, m in result.located() if "YAML" in m]
    assert located and located[0][0] == "content/stationmaster/home-deck/trains.yaml" and located[0][1] in (line, line + 1), result.out


# -- writing ---------------------------------------------------------------------------


def _make_stale(project: Path) -> None:
    edit(project / FACILITIES, "    commodity: merchandise\n", "    commodity: parcels\n")


def test_cards_writes_atomically_and_keeps_the_file_mode(sm: Run, project: Path) -> None:
    site = project / "site" / "stationmaster"
    page = site / "home-deck.md"
    os.chmod(page, 0o640)
    other = site / "mainline.md"
    os.chmod(other, 0o604)
    inode = page.stat().st_ino
    names = sorted(p.name for p in site.iterdir())
    _make_stale(project)

    result = sm("cards")
    assert result.code == 0, result.output
    assert sorted(p.name for p in site.iterdir()) == names, "temporary files left in site/"
    assert not list(project.rglob("*.tmp"))
    assert stat.S_IMODE(page.stat().st_mode) == 0o640
    assert page.stat().st_ino != inode, "the page was not replaced by a rename"
    assert " parcels by " in page.read_text(encoding="utf-8")
    # a page whose tables were only re-stamped keeps its mode too
    assert stat.S_IMODE(other.stat().st_mode) == 0o604


def test_cards_twice_changes_nothing_the_second_time(sm: Run, project: Path) -> None:
    _make_stale(project)
    first = sm("cards")
    assert first.code == 0 and "site/stationmaster/home-deck.md" in _rewritten(first.out)
    before = snapshot(project)
    mtimes = {p: p.stat().st_mtime_ns for p in (project / "site" / "stationmaster").iterdir()}
    second = sm("cards")
    assert second.code == 0
    assert second.out.strip() == "0 page(s) rewritten; all tables were up to date"
    assert snapshot(project) == before
    assert {p: p.stat().st_mtime_ns for p in (project / "site" / "stationmaster").iterdir()} == mtimes


def test_a_page_that_cannot_be_written_is_not_an_internal_error(project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A full disk (or a read-only checkout) while writing a page is the
    environment's fault, not a bug in the kit: exit 2 with a message naming the
    page, and no temporary file or half-written page left behind."""
    from command import cli

    _make_stale(project)
    before = snapshot(project / "site" / "stationmaster")

    def full_disk(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr("engine.atomic.tempfile.mkstemp", full_disk)
        capsys.readouterr()
        code = cli.main(["cards"])
    out, err = capsys.readouterr()
    assert snapshot(project / "site" / "stationmaster") == before
    assert "internal error" not in err, err
    assert code == 2, (code, out, err)
    assert re.search(r"\(writing [a-z-]+\.md\)", err), err


# -- newlines and determinism ------------------------------------------------------------------


def test_a_crlf_page_stays_wholly_crlf(sm: Run, project: Path) -> None:
    page = project / "site/stationmaster/home-deck.md"
    original = page.read_text(encoding="utf-8")
    blocks = split_page(original)[1]
    page.write_bytes(original.replace("\n", "\r\n").encode("utf-8"))

    # the shipped text with CRLF line ends is up to date, not hand-edited
    result = sm("check")
    assert result.code == 0, result.output
    _make_stale(project)
    result = sm("cards")
    assert result.code == 0, result.output
    data = page.read_bytes().decode("utf-8")
    assert split_page(data.replace("\r\n", "\n"))[1].keys() == blocks.keys()
    # every line, prose, markers and generated text, keeps the page's CRLF
    assert " parcels by " in data and data.count("\n") == data.count("\r\n")
    assert sm("check").code == 0
    second = sm("cards")
    assert second.out.startswith("0 page(s) rewritten")


def _blank_blocks(site: Path) -> None:
    for page in site.glob("*.md"):
        if page.name == "changes.md":
            continue  # made from git history, which this copy has not: it stays as committed
        text = page.read_text(encoding="utf-8")
        prose, blocks = split_page(text)
        assert len(prose) + sum(map(len, blocks.values())) == len(text)
        page.write_text(prose, encoding="utf-8")


def test_cards_is_deterministic_across_hash_seeds(baseline: Path, tmp_path: Path) -> None:
    seeds = ["0", "1", "12345"]
    procs = []
    for seed in seeds:
        root = tmp_path / f"seed-{seed}"
        shutil.copytree(baseline, root)
        _blank_blocks(root / "site" / "stationmaster")
        assert "| --- |" not in (root / "site/stationmaster/home-deck.md").read_text(encoding="utf-8")
        procs.append(
            (
                root,
                subprocess.Popen(
                    [*stationmaster_exe(), "cards"],
                    cwd=root,
                    env=subprocess_env(PYTHONHASHSEED=seed),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                ),
            )
        )
    # The simulation reports stay blank: only `cards --reports` measures them.
    with_blocks = [p for p in (baseline / "site" / "stationmaster").glob("*.md") if "<!-- generated: " in p.read_text(encoding="utf-8") and p.name not in ("changes.md", "simulation.md")]
    assert len(with_blocks) >= 5
    results = []
    for root, proc in procs:
        out, err = hang_guard.finish(proc, f"cards in {root.name} to end")  # a guard against a hang, not a speed test
        assert proc.returncode == 0, out + err
        assert f"{len(with_blocks)} page(s) rewritten" in out
        results.append({p.name: p.read_bytes() for p in sorted((root / "site" / "stationmaster").glob("*.md"))})
    assert results[0] == results[1] == results[2]
    expected = {p.name: p.read_bytes() for p in sorted((baseline / "site" / "stationmaster").glob("*.md"))}
    results[0].pop("simulation.md")
    expected.pop("simulation.md")
    assert results[0] == expected, "filling blank blocks does not give the committed pages"
    for name, data in results[0].items():
        assert b"\r" not in data, name


# -- the command could not run: exit 2, never 3 ----------------------------------------------------


def test_unusable_invocations_exit_2(sm: Run, project: Path, tmp_path: Path) -> None:
    from tests.kit.cli import call_cli

    assert sm("cards", "now").code == 2
    assert sm("check", "--format", "json").code == 2
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    result = call_cli(["check"], outside)
    assert result.code == 2 and "content: not found" in result.err
    (project / "site/stationmaster/bad.md").write_bytes(b"\xff\xfe not utf-8\n")
    before = snapshot(project)
    for command in ("cards", "check"):
        result = sm(command)
        assert result.code == 2, result.output
        assert "cannot read the pages under site/" in result.err
    assert snapshot(project) == before
