"""The catalog cache: a clean load is read back for the same content, code
and folder; anything else loads afresh, and problems are always found anew."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.content import cache
from engine.errors import ContentError
from engine.stationmaster import load_catalog


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setattr(cache, "FOLDER", folder)
    monkeypatch.setenv("STATIONMASTER_CATALOG_CACHE", "1")
    return folder


def _refuse_to_read(*args: object, **kwargs: object) -> None:
    raise AssertionError("the content was read again instead of the cached catalog")


def test_a_second_load_is_read_back(cache_dir: Path, content_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_catalog(content_copy)
    assert len(list(cache_dir.glob("*.pickle"))) == 1
    import engine.stationmaster.content.catalog as reader

    monkeypatch.setattr(reader, "read_catalog", _refuse_to_read)
    second = load_catalog(content_copy)
    assert second == first and second.fingerprint == first.fingerprint
    assert [c.origin for c in second.cards] == [c.origin for c in first.cards]


def test_changed_content_loads_afresh(cache_dir: Path, content_copy: Path) -> None:
    load_catalog(content_copy)
    game = content_copy / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("title: Station Master", "title: Station Master Two"), encoding="utf-8")
    assert load_catalog(content_copy).game.title == "Station Master Two"
    assert len(list(cache_dir.glob("*.pickle"))) == 2


def test_content_with_problems_is_never_kept(cache_dir: Path, content_copy: Path) -> None:
    game = content_copy / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("  handLimit: 3", "  handLimit: many"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ContentError) as caught:
            load_catalog(content_copy)
        assert any("handLimit" in p.message for p in caught.value.problems)
    assert not list(cache_dir.glob("*.pickle"))


def test_a_damaged_entry_is_loaded_afresh_and_replaced(cache_dir: Path, content_copy: Path) -> None:
    good = load_catalog(content_copy)
    (entry,) = cache_dir.glob("*.pickle")
    entry.write_bytes(b"\x80\x05not a pickle")
    assert load_catalog(content_copy) == good
    assert entry.read_bytes() != b"\x80\x05not a pickle"


def test_a_cache_folder_that_cannot_be_made_only_costs_time(tmp_path: Path, content_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setattr(cache, "FOLDER", blocker / "cache")
    monkeypatch.setenv("STATIONMASTER_CATALOG_CACHE", "1")
    assert load_catalog(content_copy).cards


def test_it_can_be_turned_off(cache_dir: Path, content_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATIONMASTER_CATALOG_CACHE", "0")
    load_catalog(content_copy)
    assert not cache_dir.exists()


def test_problem_places_follow_the_current_folder(cache_dir: Path, content_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Origins are shown relative to where the command runs, so each folder
    has its own entry."""
    monkeypatch.chdir(content_copy.parent)
    here = load_catalog(Path("content"))
    monkeypatch.chdir(content_copy)
    there = load_catalog(Path("."))
    assert here.cards[0].origin.file.startswith("content" + os.sep)
    assert not there.cards[0].origin.file.startswith("content" + os.sep)
    assert len(list(cache_dir.glob("*.pickle"))) == 2


def test_a_change_to_the_engine_loads_afresh(cache_dir: Path, content_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load_catalog(content_copy)
    monkeypatch.setattr(cache, "_source_digest", lambda: b"other engine source")
    load_catalog(content_copy)
    assert len(list(cache_dir.glob("*.pickle"))) == 2


def test_only_the_newest_entries_are_kept(cache_dir: Path, content_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "KEEP", 2)
    for n in range(4):
        monkeypatch.setattr(cache, "_source_digest", lambda n=n: f"engine {n}".encode())
        load_catalog(content_copy)
    assert len(list(cache_dir.glob("*.pickle"))) == 2
    assert not list(cache_dir.glob(".catalog.*"))
