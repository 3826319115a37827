"""The baseline every site test builds on: the real repository passes
``check``, a scratch copy of it (the ``project`` fixture of tests/conftest.py)
is clean and ``check`` is quiet on it, and the tests' own page reader
(tests/kit/pages.py) sees every block the pages hold."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.kit.cli import Result, call_cli
from tests.kit.pages import split_page
from tests.kit.project import PROJECT_ROOT, snapshot


def test_real_repository_passes_check() -> None:
    """The committed pages agree with the committed content and engine."""
    before = snapshot(PROJECT_ROOT / "site" / "stationmaster") | {"c/" + k: v for k, v in snapshot(PROJECT_ROOT / "content" / "stationmaster").items()}
    result = call_cli(["check"], PROJECT_ROOT)
    after = snapshot(PROJECT_ROOT / "site" / "stationmaster") | {"c/" + k: v for k, v in snapshot(PROJECT_ROOT / "content" / "stationmaster").items()}
    assert before == after, "check wrote into the repository"
    assert result.code == 0, result.output
    from generator.render import KIT_TABLES
    from generator.stationmaster.tables import TABLES

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
    from generator.render import KIT_TABLES
    from generator.stationmaster.tables import TABLES

    assert sorted(names) == sorted([*TABLES, *KIT_TABLES])
