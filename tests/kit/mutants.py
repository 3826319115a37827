"""Mutation testing of the packs' rules: does a test notice when a rule breaks?

``make mutants`` (``python -m tests.kit.mutants``) makes one-line mutants of
every module in ``engine/<pack>/rules/`` and ``engine/<pack>/effects/`` (a
comparison turned round, ``and`` for ``or``, a number off by one, ``not``
dropped, a statement that changes the game left out) and runs, against each,
the pack's *rule-level* tests: those that build games and look at them, not
the site's pages, the golden playthroughs, the terminal or the simulation
reports, any of which would catch a broken rule only as a changed snapshot.

Only the tests that run the mutated line are run (a coverage map made once,
with one context per test), so a mutant costs a couple of seconds, and the
work is spread over worker copies of the checkout, each mutated in place.
A mutant is *killed* when a test fails or the run hangs; it *survives* when
every test passes, or when no rule-level test runs its line at all. The
survivors are listed with their place and change, for a person to judge:
some are equivalent (the change cannot alter behaviour) and the rest are
missing tests.

This is a tool run on demand, never part of ``make test``: a full run is
several CPU-minutes for each pack.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tests.kit.project import PROJECT_ROOT

# The rooms of a pack whose modules are mutated.
MUTATED_ROOMS = ("rules", "effects")
# Test files and folders of a pack that are not rule-level: snapshots of
# pages or of whole games, the terminal, the bots and the simulation reports.
NOT_RULE_LEVEL = ("site", "golden", "terminal", "sim", "bots", "simulate", "play_cli", "provenance", "saves", "test_site", "test_bots", "test_golden_playthrough")
# Calls whose only effect is a line of the game's log: leaving one out is
# not a broken rule.
LOG_CALLS = ("log", "append_log", "note")


@dataclass(frozen=True)
class Mutant:
    """One change to one line of one module."""

    path: str  # relative to the checkout
    line: int
    change: str
    source: str  # the whole module, mutated

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


# -- making mutants ----------------------------------------------------------------------------

_COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult}


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """Ids of the nodes no mutant touches: docstrings, annotations, asserts,
    raises and every node under them."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Assert, ast.Raise)):
            skip(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            skip(node.returns)
            for arg in [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs, node.args.vararg, node.args.kwarg]:
                if arg is not None:
                    skip(arg.annotation)
        if isinstance(node, ast.AnnAssign):
            skip(node.annotation)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                skip(first)
    return skipped


def _is_log_call(node: ast.stmt) -> bool:
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
        return False
    func = node.value.func
    if isinstance(func, ast.Name):
        return func.id in LOG_CALLS
    if isinstance(func, ast.Attribute):
        # game.log(...), s.log.append(...), log_lines.append(...)
        if func.attr in LOG_CALLS:
            return True
        return func.attr == "append" and isinstance(func.value, ast.Attribute) and func.value.attr == "log"
    return False


def _changes_state(node: ast.stmt) -> bool:
    """A statement worth leaving out: a call made for its effect, or a write
    to an attribute, an item or a running total (leaving out a plain local
    assignment only ever fails by NameError)."""
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Call) and not _is_log_call(node)
    if isinstance(node, ast.AugAssign):
        return True
    if isinstance(node, ast.Assign):
        return all(isinstance(target, (ast.Attribute, ast.Subscript)) for target in node.targets)
    return False


def _edits(tree: ast.Module) -> Iterator[tuple[ast.AST, str, object]]:
    """(node, change described, what to do) for every one-line mutant of ``tree``."""
    skipped = _skipped_nodes(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                swap = _COMPARE_SWAPS.get(type(op))
                if swap is not None:
                    yield node, f"{type(op).__name__} -> {swap.__name__}", ("compare", index, swap)
        elif isinstance(node, ast.BoolOp):
            other = ast.Or if isinstance(node.op, ast.And) else ast.And
            yield node, f"{type(node.op).__name__} -> {other.__name__}", ("boolop", other)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "not dropped", ("unnot",)
        elif isinstance(node, (ast.BinOp, ast.AugAssign)):
            binswap = _BINOP_SWAPS.get(type(node.op))
            if binswap is not None:
                yield node, f"{type(node.op).__name__} -> {binswap.__name__}", ("binop", binswap)
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            yield node, f"{node.value} -> {not node.value}", ("const", not node.value)
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, f"{node.value} -> {node.value + 1}", ("const", node.value + 1)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.For, ast.While, ast.If, ast.With, ast.Try)):
            for field in ("body", "orelse", "finalbody"):
                body = getattr(node, field, None)
                if not isinstance(body, list):
                    continue
                for position, statement in enumerate(body):
                    if id(statement) not in skipped and _changes_state(statement) and statement.lineno == statement.end_lineno:
                        yield statement, "statement left out", ("drop", node, field, position)


def _apply(node: ast.AST, edit: object) -> None:
    assert isinstance(edit, tuple)
    kind = edit[0]
    if kind == "compare":
        assert isinstance(node, ast.Compare)
        node.ops[edit[1]] = edit[2]()
    elif kind == "boolop":
        assert isinstance(node, ast.BoolOp)
        node.op = edit[1]()
    elif kind == "binop":
        assert isinstance(node, (ast.BinOp, ast.AugAssign))
        node.op = edit[1]()
    elif kind == "const":
        assert isinstance(node, ast.Constant)
        node.value = edit[1]
    elif kind == "drop":
        parent, field, position = edit[1], edit[2], edit[3]
        getattr(parent, field)[position] = ast.Pass(lineno=node.lineno, col_offset=0)  # type: ignore[attr-defined]


def _unnot(tree: ast.Module, target: ast.UnaryOp) -> None:
    class Drop(ast.NodeTransformer):
        def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
            self.generic_visit(node)
            return node.operand if node is target else node

    Drop().visit(tree)


def mutants_of(path: Path, root: Path = PROJECT_ROOT) -> list[Mutant]:
    """Every mutant of the module at ``path``, in line order."""
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(root).as_posix()
    found: list[Mutant] = []
    plan = list(_edits(ast.parse(text)))
    for number, (node, change, _) in enumerate(plan):
        tree = ast.parse(text)  # a fresh tree a mutant: find the same node again by its place in the walk
        fresh_node, _, fresh_edit = list(_edits(tree))[number]
        if isinstance(fresh_edit, tuple) and fresh_edit[0] == "unnot":
            assert isinstance(fresh_node, ast.UnaryOp)
            _unnot(tree, fresh_node)
        else:
            _apply(fresh_node, fresh_edit)
        line = getattr(node, "lineno", 0)
        found.append(Mutant(rel, line, change, ast.unparse(ast.fix_missing_locations(tree)) + "\n"))
    return sorted(found, key=lambda m: (m.line, m.change))


# -- which tests to run -----------------------------------------------------------------------


def pack_ids(root: Path = PROJECT_ROOT) -> list[str]:
    return sorted(path.parent.name for path in (root / "engine").glob("*/pack.py"))


def targets(pack: str, root: Path = PROJECT_ROOT) -> list[Path]:
    return sorted(path for room in MUTATED_ROOMS for path in (root / "engine" / pack / room).glob("*.py") if path.name != "__init__.py" or path.stat().st_size > 200)


def rule_tests(pack: str, root: Path = PROJECT_ROOT) -> list[str]:
    """The pack's rule-level test files, relative to the checkout."""
    folder = root / "tests" / pack
    found = []
    for path in sorted(folder.rglob("test_*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        if any(word in part for part in parts for word in NOT_RULE_LEVEL):
            continue
        found.append(path.relative_to(root).as_posix())
    return found


def coverage_map(pack: str, copy: Path) -> dict[str, dict[int, list[str]]]:
    """For each mutated module, for each line, the tests (``file::name``) that run it."""
    data_file = copy / ".mutants-coverage"
    rcfile = copy / ".mutants-coveragerc"
    sources = ", ".join(f"engine/{pack}/{room}" for room in MUTATED_ROOMS)
    # One context a test function: which tests run which line.
    rcfile.write_text(f"[run]\ndata_file = {data_file}\nsource = {sources}\ndynamic_context = test_function\n", encoding="utf-8")
    command = [sys.executable, "-m", "coverage", "run", f"--rcfile={rcfile}", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *rule_tests(pack, copy)]
    rc = subprocess.run(command, cwd=copy, env=_env(copy), capture_output=True, text=True)
    if rc.returncode != 0:
        raise SystemExit(f"the rule-level tests of {pack} do not pass unmutated:\n{rc.stdout[-3000:]}{rc.stderr[-2000:]}")
    from coverage import CoverageData

    data = CoverageData(basename=str(data_file))
    data.read()
    found: dict[str, dict[int, list[str]]] = {}
    for measured in data.measured_files():
        rel = Path(measured).resolve().relative_to(copy.resolve()).as_posix()
        by_line = data.contexts_by_lineno(measured)
        found[rel] = {line: sorted({_node_id(context) for context in contexts if context}) for line, contexts in by_line.items()}
    return found


def _node_id(context: str) -> str:
    """``tests.a.test_b.TestC.test_d`` (coverage's test_function context) as ``tests/a/test_b.py::TestC::test_d``."""
    parts = context.split(".")
    for cut in range(len(parts), 0, -1):
        if parts[cut - 1].startswith("test_"):
            module = "/".join(parts[:cut]) + ".py"
            if (PROJECT_ROOT / module).is_file():
                return "::".join([module, *parts[cut:]])
    return context


def _env(copy: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PYTEST_"))}
    env["PYTHONPATH"] = str(copy)
    env["STATIONMASTER_CACHE"] = "0"
    # A mutant is written over the module in place, often within the second
    # the last one was and at the same size: Python's bytecode cache, checked
    # by mtime and size, could run the module before the change. No pyc is
    # written in a worker copy, and none is left there to read.
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


# -- running them -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    mutant: Mutant
    outcome: str  # killed, survived, uncovered
    tests: int


def _copy_checkout(into: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=PROJECT_ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = PROJECT_ROOT / rel
        if source.is_file():
            target = into / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into


def _judge(mutant: Mutant, copy: Path, tests: Sequence[str], limit: float) -> Verdict:
    if not tests:
        return Verdict(mutant, "uncovered", 0)
    target = copy / mutant.path
    original = target.read_bytes()
    target.write_text(mutant.source, encoding="utf-8")
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:xdist", *tests], cwd=copy, env=_env(copy), capture_output=True, timeout=limit)
        outcome = "survived" if proc.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        outcome = "killed"  # a rule that hangs is a broken rule a test noticed
    finally:
        target.write_bytes(original)
    return Verdict(mutant, outcome, len(tests))


def _run_pack(pack: str, copies: Sequence[Path], only: str | None, limit: float, sample: int) -> list[Verdict]:
    lines = coverage_map(pack, copies[0])
    mutants = [m for path in targets(pack, copies[0]) for m in mutants_of(path, copies[0]) if only is None or only in m.path][::sample]
    print(f"{pack}: {len(mutants)} mutants, against {len(rule_tests(pack, copies[0]))} rule-level test files", flush=True)
    free: queue.Queue[Path] = queue.Queue()
    for copy in copies:
        free.put(copy)

    def judge(mutant: Mutant) -> Verdict:
        copy = free.get()  # a copy no other mutant is using
        try:
            return _judge(mutant, copy, lines.get(mutant.path, {}).get(mutant.line, []), limit)
        finally:
            free.put(copy)

    with ThreadPoolExecutor(len(copies)) as pool:
        return list(pool.map(judge, mutants))


def run(packs: Sequence[str], workers: int, only: str | None, limit: float, sample: int = 1) -> list[Verdict]:
    verdicts: list[Verdict] = []
    with tempfile.TemporaryDirectory(prefix="mutants-") as scratch:
        copies = [_copy_checkout(Path(scratch) / f"copy{n}") for n in range(workers)]
        for pack in packs:
            verdicts += _run_pack(pack, copies, only, limit, sample)
    return verdicts


def report(verdicts: Sequence[Verdict]) -> str:
    lines: list[str] = []
    by_pack: dict[str, list[Verdict]] = {}
    for verdict in verdicts:
        by_pack.setdefault(verdict.mutant.path.split("/")[1], []).append(verdict)
    for pack, found in by_pack.items():
        killed = sum(1 for v in found if v.outcome == "killed")
        lines.append(f"{pack}: {killed} of {len(found)} mutants killed ({100 * killed / len(found):.1f}%)")
        for verdict in found:
            if verdict.outcome != "killed":
                lines.append(f"  {verdict.outcome:9} {verdict.mutant.where}: {verdict.mutant.change}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make mutants", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--pack", action="append", help="a pack id (default: every pack)")
    parser.add_argument("--only", help="mutate only modules whose path holds this text")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--limit", type=float, default=120.0, help="seconds a mutant's tests may take before it counts as a hang")
    parser.add_argument("--sample", type=int, default=1, help="run every Nth mutant only, in line order (a quicker, still even, estimate)")
    parser.add_argument("--json", type=Path, help="also write every verdict to this file")
    parser.add_argument("--list", action="store_true", help="list the mutants and the rule-level tests, run nothing")
    args = parser.parse_args(argv)
    packs = args.pack or pack_ids()
    if args.list:
        for pack in packs:
            for path in targets(pack):
                for mutant in mutants_of(path):
                    print(f"{mutant.where}: {mutant.change}")
            print("\n".join(rule_tests(pack)))
        return 0
    verdicts = run(packs, max(1, args.workers), args.only, args.limit, max(1, args.sample))
    print(report(verdicts))
    if args.json:
        args.json.write_text(json.dumps([{"where": v.mutant.where, "change": v.mutant.change, "outcome": v.outcome, "tests": v.tests} for v in verdicts], indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
