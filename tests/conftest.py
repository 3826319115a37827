"""Fixtures every folder of the suite may use: a private cache for the
session, the shipped content and a scratch copy of it, a scratch copy of the
whole project brought up to date once, and two ways to run ``stationmaster``:
in-process (fast, used by almost every test) and in a subprocess (for the few
end-to-end checks and anything that might hang). Helpers a test imports live
in tests/kit/; a pack's game-building fixtures in tests/<pack>/conftest.py."""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from command import cli
from tests.kit import hang_guard
from tests.kit.cli import CliResult, Result, RunCli, call_cli, subprocess_env
from tests.kit.project import PROJECT_ROOT, SHIPPED_CONTENT, copy_project

# The slow tiers (registered in pyproject.toml); ``slow`` is their union.
TIERS = ("subprocess", "browser", "cluster", "fuzz", "sim")
# The signs in a test module's own source that put it in a tier: a new module
# that starts processes, opens a browser, starts a cluster or fuzzes is marked
# without anyone keeping a list. A test that plays many whole games in this
# process says so itself, with ``fuzz`` (random games held to invariants) or
# ``sim`` (games played to measure them).
TIER_SIGNS = {
    "subprocess": re.compile(r"\b(?:subprocess|hang_guard|Popen|mkdocs)\b"),
    "browser": re.compile(r"\bplaywright\b"),
    "cluster": re.compile(r"\bdask\b"),
    "fuzz": re.compile(r"\bhypothesis\b"),
}
# Fixtures that start a process for the test that asks for them.
_STARTS_A_PROCESS = {"run_cli_subprocess"}


def _module_tiers(path: Path) -> set[str]:
    source = path.read_text(encoding="utf-8")
    tiers = {tier for tier, sign in TIER_SIGNS.items() if sign.search(source)}
    if "fuzz" in path.parts:
        tiers.add("fuzz")
    return tiers


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with its slow tiers, and ``slow`` if it has any
    (``make test-fast`` runs the tests that have none)."""
    by_module: dict[Path, set[str]] = {}
    for item in items:
        if item.path not in by_module:
            by_module[item.path] = _module_tiers(item.path)
        tiers = set(by_module[item.path])
        tiers |= {mark.name for mark in item.iter_markers() if mark.name in TIERS}
        if _STARTS_A_PROCESS & set(getattr(item, "fixturenames", ())):
            tiers.add("subprocess")
        for tier in sorted(tiers):
            item.add_marker(tier)
        if tiers:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit's local cache (engine.localcache) in a folder of the test
    session's own, for in-process runs and child processes alike: a test
    never reads a verdict that another run, or the developer, left behind."""
    folder = tmp_path_factory.mktemp("xdg-cache")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    return folder


@pytest.fixture(scope="session", autouse=True)
def private_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where ``play`` keeps a game stopped by Ctrl-C (command.play's
    recovery file), in a folder of the test session's own: no test is
    offered a game the developer left, nor leaves one for them."""
    folder = tmp_path_factory.mktemp("xdg-state")
    os.environ["XDG_STATE_HOME"] = str(folder)
    return folder


@pytest.fixture(scope="session", autouse=True)
def no_screen_size() -> None:
    """No COLUMNS or LINES: pytest-xdist starts its workers with COLUMNS=80
    and LINES=24, and the terminal games fit their screens to those when the
    output is no terminal (``command.fit.screen_size``), so a test would see
    another screen under ``make test`` than when run alone. A test that
    wants a size sets both itself."""
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)


@pytest.fixture(scope="session")
def shipped_content() -> Path:
    """The real content directory of the project (read only!)."""
    assert (SHIPPED_CONTENT / "schema").is_dir(), SHIPPED_CONTENT
    return SHIPPED_CONTENT


@pytest.fixture
def content_copy(tmp_path: Path) -> Path:
    """A private copy of the shipped content at ``tmp_path / "content"``."""
    target = tmp_path / "content"
    shutil.copytree(SHIPPED_CONTENT, target)
    return target


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> RunCli:
    """Run ``command.cli.main(args)`` in this process with ``cwd`` as the
    current directory; returns (exit code, stdout, stderr)."""

    def run(args: Sequence[str], cwd: Path) -> CliResult:
        monkeypatch.chdir(cwd)
        capsys.readouterr()  # forget anything printed before
        try:
            code = cli.main(list(args))
        except SystemExit as exc:  # argparse refuses bad arguments this way
            code = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        return CliResult(code, out, err)

    return run


@pytest.fixture
def run_cli_subprocess() -> Callable[..., CliResult]:
    """Run ``python -m command.cli ARGS`` in ``cwd``; a hang fails the test
    (at the hang guard) instead of blocking the suite."""

    def run(args: Sequence[str], cwd: Path) -> CliResult:
        proc = hang_guard.run([sys.executable, "-m", "command.cli", *args], f"stationmaster {' '.join(args)} to end", cwd=cwd, env=subprocess_env())
        return CliResult(proc.returncode, proc.stdout, proc.stderr)

    return run


@pytest.fixture(scope="session")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project, regenerated once so that it passes ``check``
    (the committed pages can lag behind work in progress on the engine)."""
    root = copy_project(PROJECT_ROOT, tmp_path_factory.mktemp("baseline") / "project")
    result = call_cli(["cards"], root)
    assert result.code == 0, result.output
    result = call_cli(["check"], root)
    assert result.code == 0, result.output
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
