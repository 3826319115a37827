"""Running ``stationmaster`` from a test and reading what it said: in this
process (fast, what almost every test does) or as a child process (for the
end-to-end checks), and the ``path:line:column: message`` lines of its
text format."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, NamedTuple

from command import cli
from tests.kit.project import PROJECT_ROOT, VENV_BIN

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


Result = CliResult  # the site tests' name for it

# The ``run_cli`` fixture (tests/conftest.py): ``run_cli(args, cwd)``.
RunCli = Callable[[Sequence[str], Path], CliResult]


def call_cli(args: Sequence[str], cwd: Path) -> Result:
    """``command.cli.main(args)`` in this process, in ``cwd``; never exit 3.
    Unlike the ``run_cli`` fixture it needs no fixture, so a session-wide
    fixture (a baseline project) may call it too."""
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


def stationmaster_exe() -> list[str]:
    """The installed ``stationmaster`` script, or the module where there is none."""
    exe = VENV_BIN / "stationmaster"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "command.cli"]


def stop_server(server: subprocess.Popen[bytes] | subprocess.Popen[str], log: IO[str]) -> None:
    """End a test's ``mkdocs serve``: politely, then for good after 20 s."""
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    log.close()
