"""What the browser tests share (``tests/generator/test_browser*.py``): where
Chromium and MkDocs are, and the skip that says how to get them, which CI
turns into a failure."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest

from tests.kit.project import PROJECT_ROOT

# Debian's Chromium; STATIONMASTER_CHROMIUM names another Chromium-based browser
# (GitHub's Ubuntu runners have Chrome instead).
CHROMIUM = Path(os.environ.get("STATIONMASTER_CHROMIUM", "/usr/bin/chromium"))
MKDOCS = PROJECT_ROOT / ".venv" / "bin" / "mkdocs"


def unavailable(why: str) -> NoReturn:
    """Skip, saying how to run these tests; under CI a skip is a failure."""
    message = f"browser tests not run: {why}"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set, so this fails instead of skipping)", pytrace=False)
    pytest.skip(message)
