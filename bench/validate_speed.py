"""How long `stationmaster validate` takes, interpreter start included.

Prints the median of several fresh-process runs for the shipped content and
for synthetic content of 1,000, 10,000 and 100,000 extra cards. Targets (this
2-core machine): shipped < 0.3 s, 10,000 < 3 s, 100,000 < 30 s.
Usage: python bench/validate_speed.py [--quick]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from warm import precompile  # noqa: E402
from synthetic import CONTENT, make  # noqa: E402

EXE = [sys.executable, "-m", "command.cli", "validate"]


def timed(directory: Path, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([*EXE, str(directory)], capture_output=True, text=True)
        samples.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"validate failed on {directory}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return statistics.median(samples)


def main() -> None:
    precompile()
    quick = "--quick" in sys.argv
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    print(f"shipped content: {timed(CONTENT, 7):.3f} s (median of 7)")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            target = Path(tmp) / f"c{size}"
            size = make(target, size)
            runs = 3 if size >= 100_000 else 5
            seconds = timed(target, runs)
            print(f"{size:>7,} synthetic cards: {seconds:.3f} s (median of {runs}), {seconds / size * 1e6:.1f} us per card")


if __name__ == "__main__":
    main()
