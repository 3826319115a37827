"""How long `stationmaster check` takes, interpreter start included.

Prints the median of several fresh-process runs: the shipped project, then a
copy whose content has 10,000 and 100,000 extra synthetic cards (its pages are
regenerated with `stationmaster cards` first, so `check` finds no drift and
does its full work). Targets on this 2-core machine: shipped < 0.5 s,
10,000 cards < 4 s, 100,000 cards < 40 s.
Usage: python bench/check_speed.py [--quick]
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from warm import precompile  # noqa: E402
from synthetic import ROOT, make  # noqa: E402

EXE = [sys.executable, "-m", "command.cli"]


def timed(project: Path, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([*EXE, "check"], cwd=project, capture_output=True, text=True)
        samples.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"check failed in {project}:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    return statistics.median(samples)


def project_with(tmp: Path, size: int) -> tuple[Path, int]:
    project = tmp / f"p{size}"
    project.mkdir()
    shutil.copytree(ROOT / "site", project / "site")
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    written = make(project / "content" / "stationmaster", size)
    subprocess.run([*EXE, "cards"], cwd=project, capture_output=True, check=True)
    return project, written


def main() -> None:
    precompile()
    quick = "--quick" in sys.argv
    print(f"shipped project: {timed(ROOT, 7):.3f} s (median of 7)")
    sizes = [10_000] if quick else [10_000, 100_000]
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            project, written = project_with(Path(tmp), size)
            runs = 3 if size >= 100_000 else 5
            seconds = timed(project, runs)
            print(f"{written:>7,} synthetic cards: {seconds:.3f} s (median of {runs}), {seconds / written * 1e6:.1f} us per card")


if __name__ == "__main__":
    main()
