"""The user's cache folder (``engine.localcache``): used only when it is the
user's own and private, written 0600/0700 whole, and an entry that does not
read back exactly as written is ignored, never trusted; and the behaviour
digest, the one cache kept, is worked out afresh past any such entry."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from engine import localcache, sources

KEY = "ab" * 32


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache home of this test's own; the kit's folder inside it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("STATIONMASTER_CACHE", raising=False)
    return tmp_path / "xdg" / "stationmaster"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_a_value_is_written_private_and_read_back(cache: Path) -> None:
    localcache.write("behaviour", KEY, {"n": [1, "two"]})
    assert localcache.read("behaviour", KEY) == {"n": [1, "two"]}
    entry = cache / "behaviour" / f"{KEY}.json"
    assert (_mode(cache), _mode(cache / "behaviour"), _mode(entry)) == (0o700, 0o700, 0o600)
    assert json.loads(entry.read_text(encoding="utf-8"))["format"] == localcache.FORMAT
    os.environ["STATIONMASTER_CACHE"] = "0"
    try:
        assert localcache.read("behaviour", KEY) is None
        localcache.write("behaviour", "cd" * 32, "x")
    finally:
        del os.environ["STATIONMASTER_CACHE"]
    assert not (cache / "behaviour" / f"{'cd' * 32}.json").exists()


def test_a_folder_made_under_a_loose_umask_is_still_private(cache: Path) -> None:
    old = os.umask(0)
    try:
        localcache.write("behaviour", KEY, 1)
    finally:
        os.umask(old)
    assert (_mode(cache), _mode(cache / "behaviour"), _mode(cache / "behaviour" / f"{KEY}.json")) == (0o700, 0o700, 0o600)


@pytest.mark.parametrize("where", ["top", "kind"])
@pytest.mark.parametrize("mode", [0o770, 0o707, 0o730, 0o703, 0o777])
def test_a_folder_others_may_write_in_is_not_used(cache: Path, where: str, mode: int) -> None:
    localcache.write("behaviour", KEY, "kept")
    folder = cache if where == "top" else cache / "behaviour"
    folder.chmod(mode)
    assert localcache.read("behaviour", KEY) is None
    localcache.write("behaviour", "cd" * 32, "new")
    assert not (cache / "behaviour" / f"{'cd' * 32}.json").exists(), "written into a folder that is not private"
    assert _mode(folder) == mode, "the folder's mode was changed behind the user's back"


@pytest.mark.parametrize("where", ["top", "kind"])
@pytest.mark.parametrize("mode", [0o755, 0o711, 0o750])
def test_a_folder_others_may_only_read_is_still_used(cache: Path, where: str, mode: int) -> None:
    # A folder made 0755 by an older kit, or by hand with the usual umask,
    # must not turn every cache off for good in silence.
    localcache.write("behaviour", KEY, "kept")
    folder = cache if where == "top" else cache / "behaviour"
    folder.chmod(mode)
    assert localcache.read("behaviour", KEY) == "kept"
    localcache.write("behaviour", "cd" * 32, "new")
    assert localcache.read("behaviour", "cd" * 32) == "new"
    assert _mode(folder) == mode, "the folder's mode was changed behind the user's back"


def test_a_folder_of_another_owner_is_not_used(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    localcache.write("behaviour", KEY, "kept")
    me = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: me + 1)  # the folder, private as it is, is now someone else's
    assert localcache.read("behaviour", KEY) is None
    localcache.write("behaviour", "cd" * 32, "new")
    assert not (cache / "behaviour" / f"{'cd' * 32}.json").exists()


@pytest.mark.skipif(os.getuid() != 0, reason="only root can give a folder to another user")
def test_a_folder_truly_owned_by_another_user_is_not_used(cache: Path) -> None:
    localcache.write("behaviour", KEY, "kept")
    os.chown(cache, 65534, 65534)
    assert localcache.read("behaviour", KEY) is None
    localcache.write("behaviour", "cd" * 32, "new")
    assert not (cache / "behaviour" / f"{'cd' * 32}.json").exists()


def test_a_cache_home_that_is_a_link_or_a_file_is_not_used(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "behaviour").mkdir(mode=0o700, parents=True)
    elsewhere.chmod(0o700)
    cache.parent.mkdir(parents=True)
    cache.symlink_to(elsewhere)
    localcache.write("behaviour", KEY, "kept")
    assert not list((elsewhere / "behaviour").iterdir())
    assert localcache.read("behaviour", KEY) is None
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    localcache.write("behaviour", KEY, "x")  # only costs time
    assert localcache.read("behaviour", KEY) is None


def _planted(cache: Path, data: bytes, mode: int = 0o600) -> Path:
    localcache.write("behaviour", "ee" * 32, "made the folders")
    entry = cache / "behaviour" / f"{KEY}.json"
    entry.write_bytes(data)
    entry.chmod(mode)
    return entry


def _envelope(**changed: object) -> bytes:
    fields: dict[str, object] = {"format": localcache.FORMAT, "kind": "behaviour", "key": KEY, "value": "planted"}
    fields.update(changed)
    return json.dumps(fields).encode()


DAMAGED = {
    "a pickle": b"\x80\x05\x95not json at all",
    "a bare value, as old entries were": b'"planted"',
    "nested too deep": b"[" * 100_000,
    "a number too long to read": b"1" * 5000,
    "not UTF-8": b"\xff\xfe",
    "for another kind": _envelope(kind="checked"),
    "for another key": _envelope(key="cd" * 32),
    "in another format": _envelope(format="stationmaster-cache-0"),
    "with a field more": _envelope(extra=1),
    "too large to read": _envelope(value="x" * (localcache.MAX_ENTRY + 1)),
}


def test_an_entry_that_does_not_read_back_as_written_is_ignored(cache: Path) -> None:
    taken = []
    for what, data in DAMAGED.items():
        _planted(cache, data)
        if localcache.read("behaviour", KEY) is not None:
            taken.append(what)
    assert not taken, f"entries taken at their word: {taken}"


def test_an_entry_others_could_have_written_a_link_or_a_fifo_is_ignored_at_once(cache: Path, tmp_path: Path) -> None:
    entry = _planted(cache, _envelope(), mode=0o666)
    assert localcache.read("behaviour", KEY) is None
    entry.chmod(0o620)
    assert localcache.read("behaviour", KEY) is None
    entry.chmod(0o644)  # others may read it, as a umask of 022 leaves it
    assert localcache.read("behaviour", KEY) == "planted"
    entry.chmod(0o600)
    assert localcache.read("behaviour", KEY) == "planted"
    entry.unlink()
    target = tmp_path / "target.json"
    target.write_bytes(_envelope())
    target.chmod(0o600)
    entry.symlink_to(target)
    assert localcache.read("behaviour", KEY) is None
    entry.unlink()
    os.mkfifo(entry, 0o600)
    found: list[object] = ["not done"]
    reader = threading.Thread(target=lambda: found.__setitem__(0, localcache.read("behaviour", KEY)), daemon=True)
    reader.start()
    reader.join(5)
    assert found == [None], "reading a FIFO entry blocked"


@pytest.mark.parametrize("kind, key", [("../escape", KEY), ("behaviour", "../../x"), ("behaviour", "short"), ("Behaviour", KEY)])
def test_names_that_are_not_a_kind_and_a_digest_are_never_used(cache: Path, kind: str, key: str) -> None:
    localcache.write(kind, key, "x")
    assert localcache.read(kind, key) is None
    assert not cache.exists()


def test_only_the_newest_entries_are_kept_and_abandoned_temporaries_go(cache: Path) -> None:
    for n in range(5):
        localcache.write("behaviour", f"{n:064x}", n, keep=2)
        os.utime(cache / "behaviour" / f"{n:064x}.json", (n, n))
    stale = cache / "behaviour" / ".left-by-a-killed-run.tmp"
    stale.write_bytes(b"half")
    os.utime(stale, (0, 0))
    localcache.write("behaviour", "ff" * 32, "last", keep=2)
    assert sorted(p.name for p in (cache / "behaviour").iterdir()) == sorted([f"{4:064x}.json", f"{'ff' * 32}.json"])


def test_the_behaviour_digest_is_worked_out_afresh_past_a_damaged_entry(cache: Path) -> None:
    sources._BEHAVIOURS.clear()
    truth = sources.behaviour_digest("generator/stationmaster")
    (entry,) = (cache / "behaviour").glob("*.json")
    # The old bare value, a pickle, and well-formed entries holding no digest.
    for damaged in (json.dumps("f" * 64).encode(), b"\x80\x05not json", _envelope(key=entry.stem, value="not a digest"), _envelope(key=entry.stem, value="F" * 64)):
        entry.write_bytes(damaged)
        sources._BEHAVIOURS.clear()
        assert sources.behaviour_digest("generator/stationmaster") == truth
