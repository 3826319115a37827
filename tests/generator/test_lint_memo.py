"""The lint keeps each chunk's facts between runs (``generator.lint``'s memo,
stored through ``engine.pickled``): a second run reads them back and finds
exactly what the first found, a page edited since is linted afresh, and a
damaged or switched-off memo only costs time."""

from __future__ import annotations

from pathlib import Path

import pytest

import generator.lint as lint_module
from engine.content.problems import Problem
from engine.stationmaster import load_catalog
from generator.lint import lint
from generator.render import read_pages, render_site
from generator.stationmaster.tables import TABLE_SET

BROKEN = "\n| Card | Copies |\n| --- | --- |\n| Straight | 12 |\n"


def run(project: Path) -> list[Problem]:
    catalog = load_catalog(project / "content" / "stationmaster")
    rendered = render_site(catalog, read_pages(project / "site" / "stationmaster"), "site/", tables=TABLE_SET)
    return lint(catalog, rendered, TABLE_SET.tables, "site/stationmaster/")


@pytest.fixture
def memo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "memo"
    monkeypatch.setattr(lint_module, "_MEMO", folder)
    monkeypatch.setenv("STATIONMASTER_CACHE", "1")
    return folder


def test_a_second_run_reads_the_facts_back_and_finds_the_same(project: Path, memo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = project / "site/stationmaster/index.md"
    page.write_text(page.read_text(encoding="utf-8") + BROKEN, encoding="utf-8")
    first = run(project)
    assert any("prints a count" in p.message for p in first)
    assert list(memo.glob("*.pickle"))

    def refuse(chunk: object) -> object:
        raise AssertionError("an unchanged chunk was parsed again")

    monkeypatch.setattr(lint_module, "_lint_chunk", refuse)
    assert run(project) == first


def test_an_edited_page_is_linted_afresh(project: Path, memo: Path) -> None:
    assert run(project) == []
    page = project / "site/stationmaster/index.md"
    page.write_text(page.read_text(encoding="utf-8") + BROKEN, encoding="utf-8")
    assert any("prints a count" in p.message for p in run(project))


def test_a_damaged_memo_is_ignored(project: Path, memo: Path) -> None:
    clean = run(project)
    for entry in memo.glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    assert run(project) == clean


def test_switched_off_it_writes_nothing(project: Path, memo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATIONMASTER_CACHE", "0")
    assert run(project) == []
    assert not memo.exists()
