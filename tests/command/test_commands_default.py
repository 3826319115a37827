"""Every command that worked before game packs still works as it was typed:
run from the project root with no content folder named, each finds the
shipped pack."""

from __future__ import annotations

import sys

import pytest

from tests.kit import hang_guard
from tests.kit.cli import subprocess_env
from tests.kit.project import PROJECT_ROOT


@pytest.mark.parametrize(
    "args, stdin, expect",
    [
        (["play", "--seed", "7"], "quit\n", "=== Day 1 of 3, Stage 1 of 12"),
        (["simulate", "--games", "2", "--seed", "1"], "", "games"),
        (["validate"], "", "content/stationmaster: ok"),
        (["check"], "", "agree with content/stationmaster/"),
    ],
    ids=["play", "simulate", "validate", "check"],
)
def test_a_command_with_its_defaults_finds_the_shipped_pack(args: list[str], stdin: str, expect: str) -> None:
    done = hang_guard.run([sys.executable, "-m", "command.cli", *args], f"stationmaster {' '.join(args)} to end", cwd=PROJECT_ROOT, env=subprocess_env(), input=stdin)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert expect in done.stdout, done.stdout[-2000:]
    assert "Traceback" not in done.stderr
