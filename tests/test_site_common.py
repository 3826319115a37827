"""Shared helpers for the rules-site tests (``tests/test_site_*.py``), plus the
baseline checks every other site test builds on.

The helpers deliberately re-implement, independently of ``generator/``, the
little Markdown reading the tests need (splitting a page into prose and
generated blocks, reading a generated table), so a bug in the generator's own
parser cannot hide a bug in its output.

A scratch project is a copy of ``content/``, ``site/`` and ``mkdocs.yml``.
The committed pages can lag behind work in progress on the engine (the
Status column follows the handler registry), so the session baseline is
brought up to date once with ``stationmaster cards``; whether the real
repository itself is up to date is checked separately
(``test_real_repository_passes_check``).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, NamedTuple

import pytest

from conftest import CliResult, subprocess_env as subprocess_env  # noqa: F401  (subprocess_env: re-exported for the site tests)
from command import cli

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TESTS_DIR = PROJECT_ROOT / "tests"
FIXTURE_CONTENT = TESTS_DIR / "fixtures" / "content"
GOLDEN_DIR = TESTS_DIR / "golden"
VENV_BIN = PROJECT_ROOT / ".venv" / "bin"

OPEN_MARKER = re.compile(r"^<!-- generated: ([a-z][a-z0-9-]*) -->$")
CLOSE_MARKER = "<!-- /generated -->"


# -- running the command ---------------------------------------------------------


Result = CliResult  # the site tests' name for it


def call_cli(args: Sequence[str], cwd: Path) -> Result:
    """``command.cli.main(args)`` in this process, in ``cwd``; never exit 3."""
    out, err = io.StringIO(), io.StringIO()
    before = Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(list(args))
            except SystemExit as exc:  # argparse
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(before)
    result = Result(code, out.getvalue(), err.getvalue())
    assert result.code != 3, f"exit 3 (internal error) from {args}:\n{result.output}"
    assert "Traceback" not in result.output, result.output
    return result


def stationmaster_exe() -> list[str]:
    exe = VENV_BIN / "stationmaster"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "command.cli"]


# -- scratch projects ------------------------------------------------------------


def copy_project(source: Path, target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for name in ("content", "site"):
        shutil.copytree(source / name, target / name)
    shutil.copy2(source / "mkdocs.yml", target / "mkdocs.yml")
    return target


_BASELINE: list[Path] = []


@pytest.fixture(scope="session")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project, regenerated once so that it passes ``check``.

    Every test module imports this fixture, which gives each its own
    definition; the module-level cache makes the copy once per session."""
    if _BASELINE:
        return _BASELINE[0]
    root = copy_project(PROJECT_ROOT, tmp_path_factory.mktemp("baseline") / "project")
    result = call_cli(["cards"], root)
    assert result.code == 0, result.output
    result = call_cli(["check"], root)
    assert result.code == 0, result.output
    _BASELINE.append(root)
    return root


@pytest.fixture
def project(baseline: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private up-to-date project copy; the current directory is set to it.
    (Its simulation reports are never played by ``cards`` or ``check``; a
    test that wants them measured runs ``cards --reports``.)"""
    root = tmp_path / "project"
    shutil.copytree(baseline, root)
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def sm(project: Path) -> Callable[..., Result]:
    """Run ``stationmaster ARGS`` in-process inside ``project``."""

    def run(*args: str) -> Result:
        return call_cli(args, project)

    return run


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root``: its bytes and mode (new or lost files show too)."""
    found: dict[str, tuple[bytes, int]] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() or path.is_symlink():
            found[path.relative_to(root).as_posix()] = (path.read_bytes(), stat.S_IMODE(path.lstat().st_mode))
    return found


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``path``; fail if not exactly one."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based line number of the ``nth`` line that contains ``needle``."""
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == nth:
                return number
    raise AssertionError(f"{needle!r} not found {nth} time(s)")


# -- reading pages, independently of generator/ ---------------------------------------


def split_page(text: str) -> tuple[str, dict[str, str]]:
    """(the page with every block body removed, {block name: body}).

    Marker lines stay in the prose, so moving or renaming a block shows."""
    prose: list[str] = []
    blocks: dict[str, str] = {}
    current: str | None = None
    body: list[str] = []
    fence = ""  # inside a fenced code block (```/~~~), marker lines are example text
    for raw in text.splitlines(keepends=True):
        line = raw.rstrip("\r\n")
        opened = OPEN_MARKER.match(line)
        run = re.match(r"^ {0,3}(`{3,}|~{3,})", line)
        if current is None and fence:
            if run and run.group(1)[0] == fence[0] and len(run.group(1)) >= len(fence) and not line[run.end() :].strip():
                fence = ""
            prose.append(raw)
        elif current is None and run and not (run.group(1)[0] == "`" and "`" in line[run.end() :]):
            fence = run.group(1)
            prose.append(raw)
        elif current is None and opened:
            current, body = opened.group(1), []
            prose.append(raw)
        elif current is not None and line == CLOSE_MARKER:
            blocks[current] = "".join(body)
            current = None
            prose.append(raw)
        elif current is not None:
            body.append(raw)
        else:
            prose.append(raw)
    assert current is None, f"block {current} not closed"
    return "".join(prose), blocks


def split_cells(row: str) -> list[str]:
    """The cells of one Markdown table row, splitting on unescaped pipes only."""
    inner = row.strip()
    assert inner.startswith("|") and inner.endswith("|"), row
    return [c.strip() for c in re.split(r"(?<!\\)\|", inner[1:-1])]


class Table(NamedTuple):
    header: list[str]
    rows: dict[str, dict[str, str]]  # anchor id (without card-/rule-) -> header -> cell
    ordered: list[list[str]]


_ANCHOR = re.compile(r'<a id="(?:card|rule|effect)-([a-zA-Z0-9-]+)"></a>')


def read_table(body: str) -> Table:
    """The first Markdown table of a generated block body."""
    lines = [line for line in body.splitlines() if line.startswith("|")]
    assert len(lines) >= 2, body
    header = split_cells(lines[0])
    assert all(set(c) <= set("-: ") for c in split_cells(lines[1])), lines[1]
    rows: dict[str, dict[str, str]] = {}
    ordered: list[list[str]] = []
    for line in lines[2:]:
        cells = split_cells(line)
        assert len(cells) == len(header), (header, line)
        ordered.append(cells)
        found = _ANCHOR.search(line)
        if found:
            rows[found.group(1)] = dict(zip(header, cells))
    return Table(header, rows, ordered)


_ENGINE_WORD = re.compile(r'<span class="engine-word">([A-Za-z]+)</span>')


def status_of(cell: str) -> str:
    """The engine's status word in a Status cell (shown beneath its plain
    words), or the cell itself where a card has none ("—")."""
    found = _ENGINE_WORD.search(cell)
    return found.group(1) if found else cell


def page_table(site: Path, page: str, block: str) -> Table:
    _, blocks = split_page((site / page).read_text(encoding="utf-8"))
    return read_table(blocks[block])


@contextlib.contextmanager
def registry(effect_ids: Sequence[str]) -> Iterator[None]:
    """Make the engine's handler registry hold exactly ``effect_ids``."""
    from engine.effects.registry import Event
    from engine.stationmaster.effects import REGISTRY

    REGISTRY.load()  # let the real handler modules register first
    saved = dict(REGISTRY)
    REGISTRY.clear()
    for effect_id in effect_ids:
        REGISTRY.on(Event[Callable[..., None]]("stub"), effect_id)(_stub_handler)
    try:
        yield
    finally:
        REGISTRY.clear()
        REGISTRY.update(saved)


def _stub_handler(*args: object, **kwargs: object) -> None:
    return None


# -- baseline tests ----------------------------------------------------------------


def test_real_repository_passes_check() -> None:
    """The committed pages agree with the committed content and engine."""
    before = snapshot(PROJECT_ROOT / "site" / "stationmaster") | {"c/" + k: v for k, v in snapshot(PROJECT_ROOT / "content" / "stationmaster").items()}
    result = call_cli(["check"], PROJECT_ROOT)
    after = snapshot(PROJECT_ROOT / "site" / "stationmaster") | {"c/" + k: v for k, v in snapshot(PROJECT_ROOT / "content" / "stationmaster").items()}
    assert before == after, "check wrote into the repository"
    assert result.code == 0, result.output
    from generator.stationmaster.tables import TABLES
    from generator.render import KIT_TABLES

    assert re.search(rf"^site/stationmaster/: \d+ pages and {len(TABLES) + len(KIT_TABLES)} tables agree with content/stationmaster/$", result.out, re.MULTILINE), result.out


def test_scratch_copy_is_clean_and_check_is_quiet(sm: Callable[..., Result], project: Path) -> None:
    result = sm("check")
    assert result.code == 0, result.output
    assert result.located() == []
    assert "diff" not in result.out and "---" not in result.out


def test_page_splitter_round_trips(project: Path) -> None:
    """The test's own block reader sees every block the pages hold."""
    names: list[str] = []
    for page in sorted((project / "site" / "stationmaster").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        prose, blocks = split_page(text)
        names.extend(blocks)
        assert text.count("<!-- generated: ") >= len(blocks)  # more where a page shows one as an example
        assert len(prose) + sum(len(b) for b in blocks.values()) == len(text)
    from generator.stationmaster.tables import TABLES
    from generator.render import KIT_TABLES

    assert sorted(names) == sorted([*TABLES, *KIT_TABLES])


def stop_server(server: subprocess.Popen[bytes] | subprocess.Popen[str], log: IO[str]) -> None:
    """End a test's ``mkdocs serve``: politely, then for good after 20 s."""
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    log.close()
