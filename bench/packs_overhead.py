"""What the second pack costs the commands that cover every pack: a cold
``validate`` and ``check`` with both packs, beside the same commands on a
copy of the project holding Station Master alone (issue 10 asks for at most
1.3 times). CPU seconds of the child process, median of several runs; the
first run of each copy fills its cache (the behaviour digest) and is not counted;
the "no caches" lines run with STATIONMASTER_CACHE=0.

Usage: python bench/packs_overhead.py [--runs N]
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cpu_figures import child_cpu  # noqa: E402
from warm import precompile  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
COPIED = ("command", "engine", "generator", "content", "site", "mkdocs.yml")
SECOND = "trickoftherails"


def project_copy(into: Path, alone: bool) -> Path:
    """A copy of the project's code, content and pages; ``alone`` leaves the
    second pack out (its content, rules, templates and pages)."""
    for name in COPIED:
        source = HERE / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, into / name)
    if alone:
        for part in (f"content/{SECOND}", f"engine/{SECOND}", f"generator/templates/{SECOND}", f"site/{SECOND}"):
            shutil.rmtree(into / part)
    precompile(into)
    return into


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
    figures: dict[tuple[str, str], float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for label, alone in (("Station Master alone", True), ("both packs", False)):
            root = project_copy(Path(scratch) / label.replace(" ", "-"), alone)
            env = {**os.environ, "PYTHONPATH": str(root), "NO_MKDOCS_2_WARNING": "1"}
            uncached = {**env, "STATIONMASTER_CACHE": "0"}
            for command in ("validate", "check"):
                args = [sys.executable, "-m", "command.cli", command]
                child_cpu(args, root, env)  # fills the behaviour digest cache, as any earlier run would have
                figures[label, command] = statistics.median(child_cpu(args, root, env)[0] for _ in range(runs))
                figures[label, command + " (no caches)"] = statistics.median(child_cpu(args, root, uncached)[0] for _ in range(runs))
    print(f"CPU seconds, median of {runs} runs:")
    for command in ("validate", "check", "validate (no caches)", "check (no caches)"):
        solo, both = figures["Station Master alone", command], figures["both packs", command]
        print(f"  {command:<27}  Station Master alone {solo:.3f} s   both packs {both:.3f} s   ratio {both / solo:.2f} (issue 10: at most 1.30)")


if __name__ == "__main__":
    main()
