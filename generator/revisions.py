"""The content as it was at a git revision, read through the real loader.

``git archive`` writes the revision's content folder into a temporary
directory, so the working tree, the index and the checked-out branch are
never touched. What git cannot give (no git, not a repository, a revision
the clone does not have) is a ``HistoryUnavailable``: the changelog command
reports it in one line, and the site keeps the page it made before.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.errors import UsageError
from generator.render import InputsUnavailable

WORKING_TREE = "the working tree"


class HistoryUnavailable(UsageError, InputsUnavailable):
    """Git cannot show the revision asked for, here."""


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=120)
    except FileNotFoundError:
        raise HistoryUnavailable("git is not installed, so no revision can be read") from None
    except subprocess.TimeoutExpired:
        raise HistoryUnavailable(f"git took too long to answer in {root}") from None


def repository_root(start: Path) -> Path:
    done = _git(start, "rev-parse", "--show-toplevel")
    if done.returncode != 0:
        raise HistoryUnavailable(f"{os.path.relpath(start)} is not in a git repository, so it has no revisions to compare")
    return Path(os.fsdecode(done.stdout.strip()))


def resolve(root: Path, revision: str) -> str:
    """The full commit id ``revision`` names; HistoryUnavailable if there is none here."""
    done = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    if done.returncode == 0 and not revision.startswith("-"):
        return done.stdout.decode().strip()
    shallow = _git(root, "rev-parse", "--is-shallow-repository").stdout.strip() == b"true"
    hint = " (this clone is shallow: `git fetch --unshallow` brings the rest of the history)" if shallow else ""
    raise HistoryUnavailable(f"no revision {revision!r} in this repository{hint}")


def short(commit: str) -> str:
    return commit[:12]


@contextmanager
def content_at(root: Path, commit: str, folder: Path) -> Iterator[tuple[Path, Path]]:
    """A temporary copy of ``folder`` (a path inside the repository at
    ``root``) as it was at ``commit``, and the copy's own root, where its
    paths read as the repository's; the copy may not exist if the revision
    had no such folder. Removed on leaving."""
    inside = folder.resolve().relative_to(root.resolve()).as_posix()
    done = _git(root, "archive", "--format=tar", commit, "--", inside)
    with tempfile.TemporaryDirectory(prefix="stationmaster-rev-") as tmp:
        if done.returncode == 0:
            with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
                # git writes only paths inside the folder asked for; the data
                # filter refuses anything else all the same where Python has it.
                if hasattr(tarfile, "data_filter"):
                    archive.extractall(tmp, filter="data")
                else:  # pragma: no cover - Python before 3.11.4
                    archive.extractall(tmp)
        yield Path(tmp) / inside, Path(tmp)
