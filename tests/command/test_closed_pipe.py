"""A reader that leaves early (``stationmaster validate | head -1``) changes
nothing but what is seen: the command still exits with its own status (1 if
it found problems, 0 if all was well, 2 if it could not run), quietly, with
no "Exception ignored ... BrokenPipeError" at exit.

Each command runs in a child process whose standard output (and, where said,
standard error) is a pipe with its reading end already closed: every write
to it fails, however much or little the command prints and whenever it
flushes. Python buffers a pipe unless PYTHONUNBUFFERED is set, and the two
fail differently (at exit, or at the first print), so both are tried.
"""

from __future__ import annotations

import os
import runpy
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.kit import hang_guard
from tests.kit.cli import stationmaster_exe, subprocess_env
from tests.kit.project import PROJECT_ROOT, copy_project

# Its module-scoped fixture is built once: the whole module runs on one worker.
pytestmark = pytest.mark.xdist_group("closed-pipe")

BUFFERING = pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])


def _run_into_a_closed_pipe(args: list[str], cwd: Path, *, buffered: bool, stderr_too: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``stationmaster ARGS`` with its output into a pipe nobody reads."""
    env = subprocess_env()
    env.pop("PYTHONUNBUFFERED", None)
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    read, write = os.pipe()
    os.close(read)
    try:
        return hang_guard.run(
            [*stationmaster_exe(), *args], f"stationmaster {' '.join(args)} into a closed pipe to end", cwd=cwd, env=env, stdout=write, stderr=write if stderr_too else subprocess.PIPE
        )
    finally:
        os.close(write)


def _quiet(done: subprocess.CompletedProcess[str]) -> bool:
    return "Exception ignored" not in (done.stderr or "") and "Traceback" not in (done.stderr or "")


@pytest.fixture(scope="module")
def bad_content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of Station Master's content with one problem in it."""
    folder = tmp_path_factory.mktemp("bad") / "stationmaster"
    shutil.copytree(PROJECT_ROOT / "content" / "stationmaster", folder)
    trains = folder / "home-deck" / "trains.yaml"
    text = trains.read_text(encoding="utf-8")
    assert "caboose: false" in text
    trains.write_text(text.replace("caboose: false", "caboose: yes", 1), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def drifted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project copy whose committed page has a hand edit in a generated row."""
    root = copy_project(PROJECT_ROOT, tmp_path_factory.mktemp("drifted") / "project")
    page = root / "site" / "stationmaster" / "home-deck.md"
    text = page.read_text(encoding="utf-8")
    edited = text.replace('<a id="card-straight"></a>Straight', '<a id="card-straight"></a>Straight (edited)', 1)
    assert edited != text
    page.write_text(edited, encoding="utf-8")
    return root


# -- validate ----------------------------------------------------------------------


@BUFFERING
def test_validate_with_problems_still_exits_1(bad_content: Path, buffered: bool) -> None:
    done = _run_into_a_closed_pipe(["validate", str(bad_content)], PROJECT_ROOT, buffered=buffered)
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"1 problem(s) in {bad_content}\n"


def test_validate_with_no_problems_exits_0_quietly() -> None:
    done = _run_into_a_closed_pipe(["validate"], PROJECT_ROOT, buffered=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_validate_that_cannot_run_exits_2_with_both_streams_closed(tmp_path: Path) -> None:
    done = _run_into_a_closed_pipe(["validate", str(tmp_path / "nowhere")], PROJECT_ROOT, buffered=True, stderr_too=True)
    assert done.returncode == 2


def test_validate_with_problems_exits_1_with_both_streams_closed(bad_content: Path) -> None:
    # ``stationmaster validate DIR 2>&1 | head -1``
    done = _run_into_a_closed_pipe(["validate", str(bad_content)], PROJECT_ROOT, buffered=False, stderr_too=True)
    assert done.returncode == 1


# -- check ------------------------------------------------------------------------


def test_check_with_no_problems_exits_0_quietly() -> None:
    done = _run_into_a_closed_pipe(["check"], PROJECT_ROOT, buffered=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


@BUFFERING
def test_check_with_drift_still_exits_1(drifted: Path, buffered: bool) -> None:
    done = _run_into_a_closed_pipe(["check"], drifted, buffered=buffered)
    assert done.returncode == 1, done.stderr
    assert _quiet(done), done.stderr


# -- simulate and export -----------------------------------------------------------


@BUFFERING
def test_simulate_on_content_with_problems_still_exits_1(bad_content: Path, buffered: bool) -> None:
    done = _run_into_a_closed_pipe(["simulate", "--games", "2", "--content", str(bad_content)], PROJECT_ROOT, buffered=buffered)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "the content does not validate\n"


def test_simulate_with_unusable_arguments_exits_2_with_both_streams_closed() -> None:
    done = _run_into_a_closed_pipe(["simulate", "--games", "0"], PROJECT_ROOT, buffered=True, stderr_too=True)
    assert done.returncode == 2


def test_export_that_cannot_load_exits_2_with_both_streams_closed(bad_content: Path) -> None:
    done = _run_into_a_closed_pipe(["export", "--content", str(bad_content)], PROJECT_ROOT, buffered=True, stderr_too=True)
    assert done.returncode == 2


@BUFFERING
@pytest.mark.parametrize("args", [["simulate", "--games", "2"], ["simulate", "--games", "2", "--json"], ["export"]], ids=["simulate", "simulate-json", "export"])
def test_a_report_into_a_closed_pipe_exits_0_quietly(args: list[str], buffered: bool) -> None:
    # These two handled a closed pipe on their own before; now every command
    # shares one way of doing it, and they must still end well.
    done = _run_into_a_closed_pipe(args, PROJECT_ROOT, buffered=buffered)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


@pytest.fixture(scope="module")
def many_problems(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Content with well over a pipe's worth of problems to print (two for
    each of 1,500 generated cards whose ``name`` is misspelt)."""
    folder = tmp_path_factory.mktemp("many") / "stationmaster"
    runpy.run_path(str(PROJECT_ROOT / "bench" / "synthetic.py"))["make"](folder, 1_500)
    for path in (folder / "synthetic").glob("*.yaml"):
        path.write_text(path.read_text(encoding="utf-8").replace("\n  name: ", "\n  nmae: "), encoding="utf-8")
    return folder


def test_a_reader_that_takes_one_line_and_leaves(many_problems: Path) -> None:
    """The case as typed at a shell. The report is far bigger than a pipe
    holds, so ``head`` leaves while the command is still printing: the
    status is still the command's, and it still says how many problems."""
    script = f"set -o pipefail; {' '.join(stationmaster_exe())} validate {many_problems} | head -1"
    done = hang_guard.run(["bash", "-c", script], "validate | head -1 to end", cwd=PROJECT_ROOT, env=subprocess_env())
    assert done.returncode == 1, done.stderr
    assert done.stdout.count("\n") == 1 and "nmae" in done.stdout
    assert done.stderr.endswith(f"problem(s) in {many_problems}\n") and _quiet(done), done.stderr
