"""How long `stationmaster validate` takes on one very long list.

A card's ``carTypes`` is a list the schema marks ``uniqueItems``. Here the
shipped content is copied and its first facility's list is replaced by N
distinct items, of one of two kinds:

- ``words``: distinct words (each an unknown car type, so each is reported);
- ``mappings``: distinct small mappings (each the wrong kind of value).

Either way every item is compared for repeats, by the fast check and then by
jsonschema while it explains the failure, and every item is reported. The
content does not validate, so exit status 1 is what a run should end with.
Prints, for each size, the median wall and CPU seconds (user + system of the
child) over several fresh-process runs.

Usage: python bench/list_speed.py [--sizes 1000,10000,100000] [--kinds words,mappings] [--runs N]
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import CONTENT  # noqa: E402
from warm import precompile  # noqa: E402

EXE = [sys.executable, "-m", "command.cli", "validate"]
FIRST_LIST = "    carTypes: [reefer]\n"


def _option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def make(target: Path, size: int, kind: str) -> None:
    """The shipped content with one list of ``size`` distinct items."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(CONTENT, target)
    path = target / "home-deck" / "facilities.yaml"
    text = path.read_text(encoding="utf-8")
    if FIRST_LIST not in text:
        raise SystemExit(f"{path}: no '{FIRST_LIST.strip()}' line to replace")
    if kind == "words":
        items = "".join(f"      - car-{i}\n" for i in range(size))
    else:
        items = "".join(f"      - {{car: {i}}}\n" for i in range(size))
    path.write_text(text.replace(FIRST_LIST, "    carTypes:\n" + items, 1), encoding="utf-8")


def timed(directory: Path, runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([*EXE, str(directory)], capture_output=True, text=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        if done.returncode != 1 or "carTypes" not in done.stdout:
            raise SystemExit(f"validate should report the long list (exit 1), got {done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    precompile()
    sizes = [int(s) for s in _option("--sizes", "1000,10000,100000").split(",")]
    kinds = _option("--kinds", "words,mappings").split(",")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            for size in sizes:
                target = Path(tmp) / f"{kind}{size}"
                make(target, size, kind)
                runs = int(_option("--runs", "3" if size >= 100_000 else "5"))
                wall, cpu = timed(target, runs)
                print(f"one list of {size:>7,} {kind:<8}: {wall:7.3f} s wall, {cpu:7.3f} s CPU (medians of {runs})", flush=True)


if __name__ == "__main__":
    main()
