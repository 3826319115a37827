"""The designer's edit loop, measured: one card's number changed, then
``check`` and ``cards``; a comment added to engine modules; and how soon
``mkdocs serve`` shows the re-rendered table after a save.

Every CPU figure is the median of ``--runs`` fresh-process runs (user +
system of the child and anything it forked), each on a new edit (a value
the content has not held before, so no cache has seen it), beside the same
figure for an earlier revision checked out into a scratch worktree
(``--against``; by default today's main before issue 21) measured in the
same run. The ``serve`` figure is wall time, save to first page served
with the new value: it is what a designer waits for.

Targets (issue 21): ``check`` <= 1.0 CPU-s and ``cards`` <= 1.5 CPU-s after
one card's number changed, either pack; serve <= 3 s; a comment in any
engine module makes ``check`` exit 0 and changes no file under ``site/``.

Usage: python bench/edit_loop.py [--runs N] [--against REV|''] [--modules N|all] [--no-serve]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from warm import precompile  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "118fb4f"  # main before issue 21: every edit replayed the simulations


@dataclass(frozen=True)
class Edit:
    """One card's number, changed in a new way on each run: run ``i``
    rewrites ``field`` on the line of card ``cards[i]`` by ``step``."""

    pack: str
    path: str
    cards: tuple[str, ...]
    field: str
    step: int


EDITS = (
    # A count, which no page prints: only the simulation reports go stale.
    Edit("stationmaster", "content/stationmaster/home-deck/facilities.yaml", ("coal-mine", "grocers-warehouse", "power-plant", "stockyard", "fuel-dealer", "meat-packer", "packing-sheds"), "count", 1),
    # A station value, which the components page prints (each one of 10, 20, 30, 40).
    Edit("trickoftherails", "content/trickoftherails/railway.yaml", tuple(f"b-and-o-{n}" for n in (10, 9, 8, 7, 6, 5, 4)), "stationValue", -10),
)


def _apply(project: Path, edit: Edit, run: int) -> None:
    """Change ``edit.field`` of card ``edit.cards[run]``, wherever its id is
    written (an inline mapping on one line, or a block of lines)."""
    path = project / edit.path
    text = path.read_text(encoding="utf-8")
    card = edit.cards[run % len(edit.cards)]
    start = text.index(f"id: {card}")
    found = re.compile(rf"\b{edit.field}: (\d+)").search(text, start)
    assert found is not None, f"{edit.path}: no {edit.field} after {card}"
    value = int(found.group(1)) + edit.step
    if value <= 0 or (edit.field == "stationValue" and value > 40):
        value = int(found.group(1)) - edit.step
    path.write_text(text[: found.start(1)] + str(value) + text[found.end(1) :], encoding="utf-8")


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def cpu_of(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    before = _children_cpu()
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    return _children_cpu() - before, done.returncode


def project_copy(code: Path, into: Path) -> Path:
    project = into / "project"
    for name in ("content", "site"):
        shutil.copytree(code / name, project / name)
    shutil.copy(code / "mkdocs.yml", project / "mkdocs.yml")
    return project


@dataclass
class Loop:
    check: float
    cards: float
    check_codes: list[int]


def edit_loop(code: Path, edit: Edit, runs: int, tmp: Path) -> Loop:
    """Median CPU of ``check`` then ``cards`` after ``edit``, on fresh copies."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    exe = [sys.executable, "-m", "command.cli"]
    clean = project_copy(code, tmp / f"clean-{code.name}-{edit.pack}")
    subprocess.run([*exe, "cards"], cwd=clean, env=env, capture_output=True)  # the pages as this code writes them
    subprocess.run([*exe, "check"], cwd=clean, env=env, capture_output=True)
    checks, cards, codes = [], [], []
    for run in range(runs):
        work = tmp / f"run-{code.name}-{edit.pack}-{run}"
        shutil.copytree(clean, work)
        _apply(work, edit, run)
        seconds, status = cpu_of([*exe, "check"], work, env)
        checks.append(seconds)
        codes.append(status)
        cards.append(cpu_of([*exe, "cards"], work, env)[0])
        shutil.rmtree(work)
    return Loop(statistics.median(checks), statistics.median(cards), codes)


def comment_sweep(code: Path, modules: int | None, tmp: Path) -> tuple[int, int, list[str]]:
    """Add a comment to engine modules, one at a time, in a copy of the code:
    how many were tried, how many left ``check`` at exit 0 and ``site/``
    unchanged after ``cards``, and which did not."""
    copy = tmp / "code"
    for folder in ("engine", "generator", "command"):
        shutil.copytree(code / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(code / "pyproject.toml", copy / "pyproject.toml")
    project = project_copy(code, copy)
    env = {**os.environ, "PYTHONPATH": str(copy)}
    exe = [sys.executable, "-m", "command.cli"]
    subprocess.run([*exe, "cards"], cwd=project, env=env, capture_output=True)
    every = sorted((copy / "engine").rglob("*.py"))
    chosen = every if modules is None else every[:: max(1, len(every) // max(1, modules))][:modules]
    failed: list[str] = []
    for module in chosen:
        site = {p: p.read_bytes() for p in (project / "site").rglob("*") if p.is_file()}
        original = module.read_bytes()
        module.write_bytes(original + b"\n# a designer's note\n")
        checked = subprocess.run([*exe, "check"], cwd=project, env=env, capture_output=True)
        subprocess.run([*exe, "cards"], cwd=project, env=env, capture_output=True)
        after = {p: p.read_bytes() for p in (project / "site").rglob("*") if p.is_file()}
        module.write_bytes(original)
        if checked.returncode != 0 or after != site:
            failed.append(module.relative_to(copy).as_posix())
            for path, data in site.items():
                path.write_bytes(data)
    return len(chosen), len(chosen) - len(failed), failed


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve_delay(code: Path, tmp: Path, saves: int, limit: float = 180.0) -> list[float]:
    """Seconds from saving B&O 10's station value to ``mkdocs serve``
    serving the components page that shows it (``limit`` when it never does)."""
    project = project_copy(code, tmp / f"serve-{code.name}")
    mkdocs = Path(sys.executable).with_name("mkdocs")
    env = {**os.environ, "PYTHONPATH": str(code), "NO_MKDOCS_2_WARNING": "1"}
    port = _free_port()
    server = subprocess.Popen([str(mkdocs), "serve", "-a", f"127.0.0.1:{port}"], cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/trickoftherails/components.html"

    def page() -> str:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                return str(answer.read().decode("utf-8", "replace"))
        except OSError:
            return ""

    delays: list[float] = []
    try:
        deadline = time.monotonic() + limit
        while "card-b-and-o-10" not in page() and time.monotonic() < deadline:
            time.sleep(0.2)
        edit = EDITS[1]
        for run in range(saves):
            time.sleep(1.5)  # let the watcher settle after the last rebuild
            _apply(project, edit, run)
            card = edit.cards[run]
            shown = re.search(rf"id: {card},.*?stationValue: (\d+)", (project / edit.path).read_text(encoding="utf-8"))
            assert shown is not None
            wanted = re.compile(rf'card-{card}"></a>{shown.group(1)}\b')
            saved = time.monotonic()
            while not wanted.search(page()) and time.monotonic() - saved < limit:
                time.sleep(0.05)
            delays.append(time.monotonic() - saved)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return delays


def _checkout(rev: str, into: Path) -> Path:
    tree = into / "before"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), rev], check=True)
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", default=BEFORE, metavar="REV", help=f"revision to measure beside (default {BEFORE}; '' for none)")
    parser.add_argument("--modules", default="12", help="engine modules to add a comment to ('all' for every one)")
    parser.add_argument("--no-serve", action="store_true", help="skip the mkdocs serve figure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        # A private cache folder: the figures are those of a designer's machine, not this one's leftovers.
        os.environ["XDG_CACHE_HOME"] = str(tmp / "cache")
        codes = {"now": ROOT}
        if args.against:
            codes["before"] = _checkout(args.against, tmp)
        try:
            for code in codes.values():
                precompile(code)
            for edit in EDITS:
                loops = {label: edit_loop(code, edit, args.runs, tmp) for label, code in codes.items()}
                for label, loop in loops.items():
                    print(
                        f"{edit.pack}, one number edited ({edit.path}), {label}: check {loop.check:.2f} CPU-s (exits {sorted(set(loop.check_codes))}), cards {loop.cards:.2f} CPU-s; medians of {args.runs}"
                    )
                print("  targets: check <= 1.0, cards <= 1.5 CPU-s")
            modules = None if args.modules == "all" else int(args.modules)
            tried, passed, failed = comment_sweep(ROOT, modules, tmp)
            print(f"a comment added to {tried} engine modules, one at a time: {passed} left check at exit 0 and site/ unchanged" + (f"; failed: {', '.join(failed)}" if failed else ""))
            if not args.no_serve:
                for label, code in codes.items():
                    delays = serve_delay(code, tmp, 3)
                    print(
                        f"mkdocs serve, save to re-rendered table, {label}: median {statistics.median(delays):.2f} s wall over {len(delays)} saves ({', '.join(f'{d:.2f}' for d in delays)}); target <= 3 s"
                    )
        finally:
            if "before" in codes:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(codes["before"])], check=False)


if __name__ == "__main__":
    main()
