"""How long `stationmaster validate` takes, interpreter start included.

Prints the median of several fresh-process runs for the shipped content and
for synthetic content of 1,000, 10,000 and 100,000 extra cards: wall seconds,
and CPU seconds (user + system of the child, from ``resource.getrusage``),
which a machine shared with other work does not inflate. Targets (this
2-core machine): shipped < 0.3 s, 10,000 < 3 s, 100,000 < 30 s.
Usage: python bench/validate_speed.py [--quick]
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import CONTENT, make  # noqa: E402
from warm import precompile  # noqa: E402

EXE = [sys.executable, "-m", "command.cli", "validate"]


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(directory: Path, runs: int) -> tuple[float, float]:
    """Median wall and median CPU seconds of ``runs`` fresh runs."""
    samples, cpu = [], []
    for _ in range(runs):
        start, used = time.perf_counter(), _children_cpu()
        done = subprocess.run([*EXE, str(directory)], capture_output=True, text=True)
        samples.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - used)
        if done.returncode != 0:
            raise SystemExit(f"validate failed on {directory}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return statistics.median(samples), statistics.median(cpu)


def main() -> None:
    precompile()
    quick = "--quick" in sys.argv
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    wall, cpu = timed(CONTENT, 7)
    print(f"shipped content: {wall:.3f} s, {cpu:.3f} CPU s (medians of 7)")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            target = Path(tmp) / f"c{size}"
            size = make(target, size)
            runs = 3 if size >= 100_000 else 5
            seconds, cpu = timed(target, runs)
            print(f"{size:>7,} synthetic cards: {seconds:.3f} s, {cpu:.3f} CPU s (medians of {runs}), {cpu / size * 1e6:.1f} CPU us per card")


if __name__ == "__main__":
    main()
