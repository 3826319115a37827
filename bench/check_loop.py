"""What ``stationmaster check`` costs a designer in the edit loop: run on a
project nothing changed in since the last run, and run right after one
card's number was edited.

Each checkout measured (``--root``, and ``--against`` for a before-and-after
figure in the same run) has its code, content and pages copied into a
scratch clone sharing its git history (the "What changed" page is made from
it) with its bytecode compiled there, so neither checkout is written to (not
even a cache inside it) and both start from the same warm bytecode. Every run uses a private, empty user cache folder
(``XDG_CACHE_HOME``) that the warm-up run fills, as on a designer's
machine after their first ``check``.

Every figure is the median of ``--runs`` fresh processes, in CPU seconds
(user + system of the child and of any workers it forked, read with
``resource.getrusage``): steadier than wall time on a shared machine.

- ``unchanged``: ``check`` again on the same files (after one warm-up run);
- ``edited``: ``check`` after one card's number changed, a value the content
  has not held before on each run, so no cache has seen it (the project
  checked once unedited first, as the designer's last run was). The edit is a
  count no page prints (Station Master) or a station value the components
  page prints (Trick of the Rails: ``check`` then exits 1, the page drifts).

Target (issue 21): ``check`` <= 1.0 CPU-s after one card's number changed.

Usage: python bench/check_loop.py [--root CHECKOUT] [--against CHECKOUT|REV] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from edit_loop import EDITS, Edit, _apply  # noqa: E402
from warm import precompile  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
COPIED = ("command", "engine", "generator", "content", "site", "mkdocs.yml", "pyproject.toml")


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _cpu(cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    before = _children_cpu()
    done = subprocess.run([sys.executable, "-m", "command.cli", "check"], cwd=cwd, env=env, capture_output=True, text=True)
    return _children_cpu() - before, done.returncode


def _copy(checkout: Path, into: Path) -> Path:
    """The checkout's code, content and pages, copied without any cache
    folder it holds, its bytecode compiled; inside a clone sharing the
    checkout's git history where it has one, as a designer's clone does
    (the "What changed" page is made from the content's editions, read
    from that history)."""
    cloned = subprocess.run(["git", "clone", "--quiet", "--shared", "--no-checkout", str(checkout), str(into)], capture_output=True)
    if cloned.returncode != 0:
        into.mkdir(parents=True)
    for name in COPIED:
        source = checkout / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy(source, into / name)
    precompile(into)
    return into


def _figures(code: Path, runs: int, scratch: Path) -> dict[str, tuple[float, list[int]]]:
    env = {**os.environ, "PYTHONPATH": str(code), "XDG_CACHE_HOME": str(scratch / f"cache-{code.name}")}
    env.pop("STATIONMASTER_CACHE", None)
    _cpu(code, env)  # the warm-up run that fills the caches
    samples = [_cpu(code, env) for _ in range(runs)]
    found = {"unchanged": (statistics.median(s for s, _ in samples), sorted({c for _, c in samples}))}
    for edit in EDITS:
        found[f"edited ({edit.pack})"] = _edited(code, edit, runs, env, scratch)
    return found


def _edited(code: Path, edit: Edit, runs: int, env: dict[str, str], scratch: Path) -> tuple[float, list[int]]:
    """Median CPU of ``check`` right after ``edit``, each run on a new
    value, in the code's own folder (the edit undone after each run)."""
    seconds, codes = [], []
    path = code / edit.path
    original = path.read_bytes()
    try:
        for run in range(runs):
            path.write_bytes(original)
            _cpu(code, env)  # checked once unedited, as the designer's last run was
            _apply(code, edit, run)
            spent, status = _cpu(code, env)
            seconds.append(spent)
            codes.append(status)
    finally:
        path.write_bytes(original)
    return statistics.median(seconds), sorted(set(codes))


def _checkout_of(against: str, scratch: Path) -> tuple[Path, bool]:
    """A folder holding ``against``: itself if it is one, else a detached
    worktree of that revision (True: to be removed afterwards)."""
    if Path(against).is_dir():
        return Path(against).resolve(), False
    tree = scratch / "against-tree"
    subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "--quiet", str(tree), against], check=True)
    return tree, True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose code is measured (default: this one)")
    parser.add_argument("--against", default="", metavar="CHECKOUT|REV", help="another checkout or revision measured beside it")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        checkouts = {"now": args.root.resolve()}
        worktree = None
        if args.against:
            checkouts["before"], made = _checkout_of(args.against, scratch)
            worktree = checkouts["before"] if made else None
        try:
            codes = {label: _copy(checkout, scratch / label) for label, checkout in checkouts.items()}
            for label, code in codes.items():
                for name, (seconds, exits) in _figures(code, args.runs, scratch).items():
                    print(f"check, {name}, {label} ({checkouts[label]}): {seconds:.2f} CPU-s, exits {exits}; median of {args.runs}")
            print("target: check <= 1.0 CPU-s after one card's number changed")
        finally:
            if worktree is not None:
                subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(worktree)], check=False)


if __name__ == "__main__":
    main()
