"""CPU seconds of ``mkdocs build`` of the whole rules site (both packs, the
search index with every card, the offline copy of it), median of several
fresh runs, beside the same figure for an earlier revision built the same
way in the same minutes (issue 12 allows at most 1.5 times the site as it
stood before that issue: revision 98f1c50, the default).

The earlier revision is checked out into a scratch git worktree and built
with this checkout's virtual environment, its own code put first on the
import path, so both builds use the same MkDocs and Material.

CPU time (user + system of the child, from ``getrusage``) is steadier than
wall time on a shared machine. Each run builds into a new scratch folder.
Usage: python bench/site_build.py [RUNS] [--root CHECKOUT] [--against REV]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from warm import precompile  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
# Main just before issue 12 (its committed tables fresh, so a build replays
# no simulation).
BEFORE = "98f1c50"
ALLOWED = 1.5


def build_seconds(root: Path, mkdocs: Path, code: Path | None = None) -> float:
    """CPU seconds (user + system) of one ``mkdocs build`` of ``root``
    (``code``: a checkout whose modules come first on the import path)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(prefix="site-bench-") as out:
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        if code is not None:
            env["PYTHONPATH"] = str(code)
        subprocess.run([str(mkdocs), "build", "--quiet", "--site-dir", out], cwd=root, env=env, check=True, capture_output=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_seconds(root: Path, mkdocs: Path, runs: int, code: Path | None = None) -> list[float]:
    precompile(root)
    build_seconds(root, mkdocs, code)  # a first run fills the behaviour digest cache
    return [build_seconds(root, mkdocs, code) for _ in range(runs)]


def _line(what: str, times: list[float]) -> str:
    return f"mkdocs build of {what}: median {statistics.median(times):.2f} CPU s over {len(times)} runs ({', '.join(f'{t:.2f}' for t in times)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=5)
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to build (default: this one)")
    parser.add_argument("--against", default=BEFORE, metavar="REV", help=f"the revision to compare with (default {BEFORE}, before issue 12; '' for none)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    mkdocs = HERE / ".venv" / "bin" / "mkdocs"
    now = median_seconds(root, mkdocs, args.runs)
    print(_line(str(root), now))
    if not args.against:
        return 0
    with tempfile.TemporaryDirectory(prefix="site-bench-rev-") as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "--quiet", str(tree), args.against], check=True)
        try:
            then = median_seconds(tree, mkdocs, args.runs, code=tree)
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], check=False)
    print(_line(f"revision {args.against}", then))
    ratio = statistics.median(now) / statistics.median(then)
    print(f"now {ratio:.2f}x revision {args.against} (allowed {ALLOWED}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
