"""The ``validate`` fixture of the validate tests (test_validate_*.py).

Every kind of bad input gives exit 1 (or 2 for an unusable command) and a
``path:line:column: message`` the designer can act on, never a traceback,
and never a write into the content directory: the fixture checks the last
two on every run, so each test says only what its input must give. The
content is edited often, so the tests find what they damage by its key or
shape (tests/kit/validate.py), and every expected position is computed from
the damaged text itself."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.kit.cli import CliResult, RunCli
from tests.kit.project import PROJECT_ROOT
from tests.kit.validate import Validate, no_traceback, snapshot


@pytest.fixture
def validate(content_copy: Path, run_cli: RunCli, tmp_path: Path) -> Validate:
    """Run ``stationmaster validate content`` from ``tmp_path`` (or ``cwd``)
    and check the things every run must satisfy."""

    def run(*args: str, target: str = "content", cwd: Path | None = None) -> CliResult:
        before = snapshot(content_copy)
        result = run_cli(["validate", target, *args], cwd or tmp_path)
        assert snapshot(content_copy) == before, "validate changed the content directory"
        no_traceback(result)
        return result

    return run


# -- both packs ---------------------------------------------------------------
# Messages must read alike in every pack: these tests damage a copy of
# either pack's content, kept apart from ``content_copy``.


@pytest.fixture
def pack_copy(tmp_path: Path) -> Callable[[str], Path]:
    """``pack_copy(name)``: a private copy of pack ``name``'s content at
    ``<tmp>/<name>/content``, so that problems read ``content/...``."""

    def copy(name: str) -> Path:
        target = tmp_path / name / "content"
        shutil.copytree(PROJECT_ROOT / "content" / name, target)
        return target

    return copy


@pytest.fixture
def validate_pack(run_cli: RunCli) -> Callable[[Path], CliResult]:
    """``validate_pack(content)``: ``stationmaster validate content`` beside
    a copy made by ``pack_copy``, checked as the ``validate`` fixture checks."""

    def run(content: Path) -> CliResult:
        before = snapshot(content)
        result = run_cli(["validate", "content"], content.parent)
        assert snapshot(content) == before, "validate changed the content directory"
        no_traceback(result)
        return result

    return run
