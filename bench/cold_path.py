"""The cold path (issue 21, point 7): what the commands cost with every
cache off (``STATIONMASTER_CACHE=0``), as on a fresh clone or in CI, beside
the same figures for a baseline checkout measured in the same run.

- ``validate`` of 100,000 synthetic cards: CPU seconds and peak memory;
- a full ``check`` of a project with 10,000 synthetic cards (its pages made
  by that checkout's own ``cards``, so it finds nothing to report): CPU
  seconds, its forked render and lint workers included;
- the MkDocs plugin's share of a whole-site ``mkdocs build``: the CPU spent
  importing the plugin (past what MkDocs imports itself) and in its hooks,
  over the CPU of the whole build process.

Each figure is the median of ``--runs`` fresh processes (at least 5 by
default). CPU is user + system from ``getrusage`` (of the child and of the
workers it waited for), steadier than wall time on a shared machine; peak
memory is the child's maximum resident set.

Each checkout's code, content and pages are copied into a scratch folder
and its bytecode compiled there, so neither checkout is written to (not
even a ``__pycache__``) and both start with the same warm bytecode and the
same virtual environment. Importable: a later bench (bench/edit_loop.py)
calls ``validate_figures``, ``check_seconds`` and ``plugin_share`` with a
``Checkout`` of its own.

Usage: python bench/cold_path.py [--root CHECKOUT] [--baseline CHECKOUT] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic  # noqa: E402
from warm import precompile  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
# What a checkout needs to run every command and build its site.
COPIED = ("command", "engine", "generator", "content", "site", "mkdocs.yml", "pyproject.toml")
VALIDATE_CARDS = 100_000
CHECK_CARDS = 10_000

# The targets, caches off.
TARGET_VALIDATE_CPU = 4.0
TARGET_VALIDATE_MIB = 600.0
TARGET_CHECK_CPU = 3.0
TARGET_PLUGIN_SHARE = 0.20

# Run in a fresh process by ``plugin_share``: the plugin's import and every
# hook it defines add their process time up, and the whole build's is read
# at the end. MkDocs' own modules are imported before the clock starts on
# the plugin, so what the plugin's import costs is only what it adds.
_PLUGIN_DRIVER = r"""
import functools, json, resource, sys, time
import jinja2, markdown, mkdocs.commands.build, mkdocs.config, mkdocs.plugins, mkdocs.structure.pages
from mkdocs.__main__ import cli

spent = [0.0]
start = time.process_time()
from generator.mkdocs_plugin import CardTablesPlugin
spent[0] += time.process_time() - start


def timed(function):
    @functools.wraps(function)  # keeps MkDocs' event priority on the hook
    def hook(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - start
    return hook


for name in [n for n in vars(CardTablesPlugin) if n.startswith("on_")]:
    setattr(CardTablesPlugin, name, timed(getattr(CardTablesPlugin, name)))
try:
    cli(["build", "--quiet", "--site-dir", sys.argv[1]])
except SystemExit as exc:
    if exc.code:
        raise
used = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"plugin": spent[0], "total": used.ru_utime + used.ru_stime}))
"""


@dataclass(frozen=True)
class Checkout:
    """A checkout's code, content and pages, copied to ``root`` (its
    bytecode compiled there); ``name`` is what the report calls it."""

    name: str
    root: Path

    def env(self) -> dict[str, str]:
        """The environment its commands run in: its code first on the path,
        every cache off."""
        return {**os.environ, "PYTHONPATH": str(self.root), "STATIONMASTER_CACHE": "0", "NO_MKDOCS_2_WARNING": "1"}


def copy_checkout(source: Path, into: Path, name: str) -> Checkout:
    """A scratch copy of ``source`` at ``into``, ready to measure."""
    into.mkdir(parents=True)
    for part in COPIED:
        found = source / part
        if found.is_dir():
            shutil.copytree(found, into / part, ignore=shutil.ignore_patterns("__pycache__"))
        elif found.is_file():
            shutil.copy2(found, into / part)
    precompile(into)
    return Checkout(name, into)


def _run(args: Sequence[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    """CPU seconds (the child and the workers it waited for) and stdout of
    one run of ``args``, which must exit 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed (exit {done.returncode}) in {cwd}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def _peak_mib(args: Sequence[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """CPU seconds and peak MiB of this one child alone (``wait4``)."""
    with subprocess.Popen(list(args), cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as child:
        _, status, used = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        err = child.stderr.read() if child.stderr else b""
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed (exit {child.returncode}) in {cwd}:\n{err[-2000:].decode(errors='replace')}")
    return used.ru_utime + used.ru_stime, used.ru_maxrss / 1024


def synthetic_content(code: Checkout, into: Path, cards: int) -> Path:
    """A copy of ``code``'s Station Master content with about ``cards``
    synthetic cards more (made from that checkout's own cards)."""
    synthetic.CONTENT = code.root / "content" / "stationmaster"
    try:
        synthetic.make(into, cards)
    finally:
        synthetic.CONTENT = HERE / "content" / "stationmaster"
    return into


def validate_figures(code: Checkout, runs: int, scratch: Path, cards: int = VALIDATE_CARDS) -> tuple[float, float]:
    """Median CPU seconds and median peak MiB of ``validate`` of ``cards``
    synthetic cards, caches off, over ``runs`` fresh processes."""
    content = synthetic_content(code, scratch / f"validate-{code.name}", cards)
    samples = [_peak_mib([PYTHON, "-m", "command.cli", "validate", str(content)], scratch, code.env()) for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def check_project(code: Checkout, into: Path, cards: int) -> Path:
    """A project of ``code``'s pages and content plus ``cards`` synthetic
    Station Master cards, its pages rewritten by ``code``'s own ``cards``."""
    into.mkdir(parents=True)
    shutil.copytree(code.root / "site", into / "site")
    shutil.copy2(code.root / "mkdocs.yml", into / "mkdocs.yml")
    for pack in sorted((code.root / "content").iterdir()):
        if pack.is_dir() and pack.name != "stationmaster":
            shutil.copytree(pack, into / "content" / pack.name)
    synthetic_content(code, into / "content" / "stationmaster", cards)
    _run([PYTHON, "-m", "command.cli", "cards"], into, code.env())
    return into


def check_seconds(code: Checkout, runs: int, scratch: Path, cards: int = CHECK_CARDS) -> float:
    """Median CPU seconds of a full ``check`` (render and lint everything)
    of a project with ``cards`` synthetic cards, caches off."""
    project = check_project(code, scratch / f"check-{code.name}", cards)
    return statistics.median(_run([PYTHON, "-m", "command.cli", "check"], project, code.env())[0] for _ in range(runs))


def plugin_share(code: Checkout, runs: int, scratch: Path) -> float:
    """Median share of a whole-site ``mkdocs build`` (of ``code``'s own
    site, caches off) spent in the stationmaster plugin, from 0 to 1.

    The copy's pages are first written by its own ``cards``, as ``make
    cards`` leaves them: a page stamped by other code would have the build
    replay the simulations behind its tables, which is no cost of the cold
    path."""
    _run([PYTHON, "-m", "command.cli", "cards"], code.root, code.env())
    shares = []
    for run in range(runs):
        out = scratch / f"site-{code.name}-{run}"
        found = json.loads(_run([PYTHON, "-c", _PLUGIN_DRIVER, str(out)], code.root, code.env())[1].strip().splitlines()[-1])
        shares.append(float(found["plugin"]) / float(found["total"]))
        shutil.rmtree(out, ignore_errors=True)
    return statistics.median(shares)


def _row(what: str, now: float, then: float | None, target: str, unit: str) -> str:
    beside = f"{then:8.2f} {unit}" if then is not None else "       -"
    return f"{what:<44} {now:8.2f} {unit}   baseline {beside}   target {target}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout measured (default: this one)")
    parser.add_argument("--baseline", type=Path, default=None, help="a checkout measured the same way beside it (e.g. /work/baseline)")
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per figure (median; default 5)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cold-path-") as tmp:
        scratch = Path(tmp)
        now = copy_checkout(args.root.resolve(), scratch / "now", "now")
        then = copy_checkout(args.baseline.resolve(), scratch / "baseline", "baseline") if args.baseline else None
        both = [now] if then is None else [now, then]
        print(f"caches off (STATIONMASTER_CACHE=0), medians of {args.runs} fresh runs; {args.root} beside {args.baseline or 'no baseline'}")
        validated = [validate_figures(code, args.runs, scratch) for code in both]
        print(_row(f"validate, {VALIDATE_CARDS:,} cards: CPU", validated[0][0], validated[1][0] if then else None, f"<= {TARGET_VALIDATE_CPU:g} s", "s  "), flush=True)
        print(_row(f"validate, {VALIDATE_CARDS:,} cards: peak memory", validated[0][1], validated[1][1] if then else None, f"<= {TARGET_VALIDATE_MIB:g} MiB", "MiB"), flush=True)
        checked = [check_seconds(code, args.runs, scratch) for code in both]
        print(_row(f"full check, {CHECK_CARDS:,} cards: CPU", checked[0], checked[1] if then else None, f"<= {TARGET_CHECK_CPU:g} s", "s  "), flush=True)
        shares = [100 * plugin_share(code, args.runs, scratch) for code in both]
        print(_row("plugin's share of mkdocs build", shares[0], shares[1] if then else None, f"<= {100 * TARGET_PLUGIN_SHARE:g} %", "%  "), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
