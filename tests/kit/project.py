"""Where the project lies, and scratch copies of it: the folders a test reads
from, a copy of the parts a command works on, and ways to see (and make) a
change to the files of a copy."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHIPPED_CONTENT = PROJECT_ROOT / "content" / "stationmaster"
TESTS_DIR = PROJECT_ROOT / "tests"
# A frozen copy of Station Master's content, and the tables rendered from it.
FIXTURE_CONTENT = TESTS_DIR / "fixtures" / "content"
GOLDEN_DIR = TESTS_DIR / "golden"
VENV_BIN = PROJECT_ROOT / ".venv" / "bin"


def copy_project(source: Path, target: Path) -> Path:
    """``content/``, ``site/``, ``overrides/`` (the theme's partials the
    build reads) and ``mkdocs.yml`` of ``source`` under ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for name in ("content", "site", "overrides"):
        shutil.copytree(source / name, target / name)
    shutil.copy2(source / "mkdocs.yml", target / "mkdocs.yml")
    return target


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root``: its bytes and mode (new or lost files show too)."""
    found: dict[str, tuple[bytes, int]] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() or path.is_symlink():
            found[path.relative_to(root).as_posix()] = (path.read_bytes(), stat.S_IMODE(path.lstat().st_mode))
    return found


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``path``; fail if not exactly one."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based line number of the ``nth`` line that contains ``needle``."""
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == nth:
                return number
    raise AssertionError(f"{needle!r} not found {nth} time(s)")
