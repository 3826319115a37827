"""What a Dask LocalCluster costs while it waits: the CPU spent by the
sweep's own process (the scheduler, the nanny and the client live there) and
by a worker process while one task sleeps for SECONDS, with Dask's defaults
and with the settings a sweep starts its cluster with (``QUIET_CLUSTER`` in
engine/sweep/dask_runner.py). What the cluster spends idle it also spends
while a worker plays, taken from the games: as a share of a CPU, these are
the distributed path's running overhead. Start-up is printed as well.

Idle time rather than a run of games, because it does not depend on how fast
games go on a shared, noisy machine: these figures repeat to within a few
hundredths. Median of RUNS runs.
Usage: python bench/dask_idle.py [SECONDS] [RUNS]
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
from collections.abc import Mapping


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def _nap(seconds: float) -> float:
    """Run on the worker: the CPU its process spent while this task slept."""
    before = _cpu()
    time.sleep(seconds)
    return _cpu() - before


def _once(settings: Mapping[str, object], seconds: float) -> tuple[float, float, float]:
    from engine.sweep.dask_runner import cluster_client

    start = _cpu()
    with cluster_client("local", 1, settings) as client:
        started = _cpu() - start
        before = _cpu()
        worker = client.submit(_nap, seconds, pure=False).result()
        own = _cpu() - before
    return started, own / seconds, worker / seconds


def main() -> None:
    from engine.sweep.dask_runner import QUIET_CLUSTER

    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(f"Dask LocalCluster of 1 worker, idle for {seconds:g} s; median of {runs} runs")
    print(f"  {'settings':<30} {'start-up, own CPU-s':>20} {'sweep process':>14} {'worker':>8}")
    for name, settings in (("Dask's defaults", {}), ("the sweep's (QUIET_CLUSTER)", QUIET_CLUSTER)):
        figures = [_once(settings, seconds) for _ in range(runs)]
        started, own, worker = (statistics.median(f[i] for f in figures) for i in range(3))
        print(f"  {name:<30} {started:20.2f} {100 * own:13.1f}% {100 * worker:7.1f}%")


if __name__ == "__main__":
    main()
