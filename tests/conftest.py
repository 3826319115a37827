"""Shared fixtures: a scratch copy of the shipped content and two ways to run
``stationmaster``: in-process (fast, used by almost every test) and in a
subprocess (for the few end-to-end checks and anything that might hang)."""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import pytest

import hang_guard
from command import cli

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHIPPED_CONTENT = PROJECT_ROOT / "content" / "stationmaster"

# ``path:line:column: message`` as the text format prints one problem.
PROBLEM_LINE = re.compile(r"^(?P<path>[^\n]+?):(?P<line>[0-9]+):(?P<column>[0-9]+): (?P<message>.*)$")


class Located(NamedTuple):
    path: str
    line: int
    column: int
    message: str


class CliResult(NamedTuple):
    """What one run of the command gave: unpacks as ``code, out, err``."""

    code: int
    out: str
    err: str

    @property
    def output(self) -> str:
        return self.out + self.err

    @property
    def problems(self) -> list[Located]:
        """Every ``path:line:column: message`` line of stdout (text format)."""
        found = []
        for line in self.out.splitlines():
            m = PROBLEM_LINE.match(line)
            if m:
                found.append(Located(m["path"], int(m["line"]), int(m["column"]), m["message"]))
        return found

    def located(self) -> list[tuple[str, int, int, str]]:
        """``problems`` as plain tuples, for comparing with literals."""
        return [tuple(p) for p in self.problems]  # type: ignore[misc]


RunCli = Callable[[Sequence[str], Path], CliResult]


# What makes a test module slow: it starts processes (the command, MkDocs, a
# browser, a Dask cluster) or fuzzes. Read from each module's own source, so
# a new slow module is marked without anyone keeping a list.
_SLOW_SIGNS = re.compile(r"\b(?:subprocess|hang_guard|Popen|playwright|dask|mkdocs|hypothesis)\b")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of a slow module ``slow`` (``make test-fast`` leaves them out)."""
    slow: dict[Path, bool] = {}
    for item in items:
        path = item.path
        if path not in slow:
            slow[path] = "fuzz" in path.name or bool(_SLOW_SIGNS.search(path.read_text(encoding="utf-8")))
        if slow[path]:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit's local cache (engine.localcache) in a folder of the test
    session's own, for in-process runs and child processes alike: a test
    never reads a verdict that another run, or the developer, left behind."""
    folder = tmp_path_factory.mktemp("xdg-cache")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    return folder


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


def subprocess_env(**extra: str) -> dict[str, str]:
    """The environment for running the kit in a child process: this checkout
    first on the path (not whatever the editable install points at), no git
    variables leaking in from a hook, no MkDocs 2 banner."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PROJECT_ROOT), env.get("PYTHONPATH", "")) if p)
    env.pop("PYTHONWARNINGS", None)
    env["NO_MKDOCS_2_WARNING"] = "1"
    env.update(extra)
    return env


@pytest.fixture
def run_cli_subprocess() -> Callable[..., CliResult]:
    """Run ``python -m command.cli ARGS`` in ``cwd``; a hang fails the test
    (at the hang guard) instead of blocking the suite."""

    def run(args: Sequence[str], cwd: Path) -> CliResult:
        proc = hang_guard.run([sys.executable, "-m", "command.cli", *args], f"stationmaster {' '.join(args)} to end", cwd=cwd, env=subprocess_env())
        return CliResult(proc.returncode, proc.stdout, proc.stderr)

    return run
