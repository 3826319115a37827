"""Property tests: damage one real content file at random and load it.

Whatever the damage, the kit's pack loader either returns a Catalog or raises
ContentError whose every problem is located inside the content directory,
and ``stationmaster validate`` never exits 3 nor prints a traceback.

Runs are derandomized (a fixed sequence of examples per test) so CI is
stable; each test is bounded to a few seconds.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from command import cli
from engine.content.problems import Problem, render_all
from engine.errors import ContentError
from engine.packs import load_packs
from engine.stationmaster.content.model import Catalog
from tests.kit.fuzz import multiplier
from tests.kit.project import SHIPPED_CONTENT

# Every file of the shipped content, read once: {relative path: bytes}.
ORIGINAL: dict[str, bytes] = {p.relative_to(SHIPPED_CONTENT).as_posix(): p.read_bytes() for p in sorted(SHIPPED_CONTENT.rglob("*")) if p.is_file()}
YAML_FILES = sorted(name for name in ORIGINAL if name.endswith(".yaml"))

# Values a designer (or a bad merge) might leave where a scalar was.
POOL = [
    "-1",
    "0",
    "99999",
    "1e400",
    ".nan",
    "9" * 5000,
    "0x" + "f" * 60,
    "yes",
    "no",
    "on",
    "off",
    "~",
    "null",
    '""',
    "''",
    "x" * 700,
    '"' + "y" * 700 + '"',
    "[]",
    "{}",
    "[[[[]]]]",
    "{a: {b: {c: {}}}}",
    "!!python/object:os.system",
    '!!python/object/apply:os.system ["touch PWNED"]',
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "&a [1, 2]",
    "*a",
    "*undefined",
    "&x [*x]",
    "|",
    ">-",
    "- a",
    "a: b",
    "'unterminated",
    '"unterminated',
    "[unclosed",
    "{",
    "\t",
    "#",
    "%",
    "@",
    "`",
    "\u2028",
    "\x85",
    "\x00",
    "\x01",
    "\ufeff",
    "é",
    "𝕏",
    "\ud7ff",
]

SETTINGS = settings(
    max_examples=75 * multiplier(),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_VALUE = st.one_of(st.sampled_from(POOL), st.text(max_size=40), st.integers(min_value=-(10**50), max_value=10**50).map(str))


# ---------------------------------------------------------------- mutations


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _pick(draw: st.DrawFn, lines: list[bytes]) -> int:
    return draw(st.integers(min_value=0, max_value=max(0, len(lines) - 1)))


def delete_line(draw: st.DrawFn, data: bytes) -> bytes:
    lines = _lines(data)
    del lines[_pick(draw, lines)]
    return b"\n".join(lines)


def duplicate_line(draw: st.DrawFn, data: bytes) -> bytes:
    lines = _lines(data)
    i = _pick(draw, lines)
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def swap_lines(draw: st.DrawFn, data: bytes) -> bytes:
    lines = _lines(data)
    i, j = _pick(draw, lines), _pick(draw, lines)
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def replace_value(draw: st.DrawFn, data: bytes) -> bytes:
    """Swap the value after some ``key:`` (or a ``- `` item) for one from the pool."""
    lines = _lines(data)
    spots = [i for i, line in enumerate(lines) if b": " in line or line.lstrip().startswith(b"- ")]
    if not spots:
        return data
    i = draw(st.sampled_from(spots))
    line = lines[i]
    cut = line.index(b": ") + 2 if b": " in line else line.index(b"- ") + 2
    lines[i] = line[:cut] + draw(_VALUE).encode("utf-8", "surrogatepass")
    return b"\n".join(lines)


def replace_flow_item(draw: st.DrawFn, data: bytes) -> bytes:
    """Change one item of a one-line ``[a, b]`` list (an id reference, say)."""
    lines = _lines(data)
    spots = [i for i, line in enumerate(lines) if b"[" in line and line.rstrip().endswith(b"]")]
    if not spots:
        return data
    i = draw(st.sampled_from(spots))
    head, _, rest = lines[i].partition(b"[")
    items = rest.rstrip()[:-1].split(b", ")
    k = draw(st.integers(min_value=0, max_value=len(items) - 1))
    items[k] = draw(st.sampled_from([items[k][:-1], items[k] + b"s", b"nowhere", items[k].upper(), b""]))
    lines[i] = head + b"[" + b", ".join(items) + b"]"
    return b"\n".join(lines)


def insert_tab(draw: st.DrawFn, data: bytes) -> bytes:
    lines = _lines(data)
    i = _pick(draw, lines)
    at = draw(st.integers(min_value=0, max_value=len(lines[i])))
    lines[i] = lines[i][:at] + b"\t" + lines[i][at:]
    return b"\n".join(lines)


def reindent(draw: st.DrawFn, data: bytes) -> bytes:
    lines = _lines(data)
    i = _pick(draw, lines)
    by = draw(st.integers(min_value=-4, max_value=4))
    lines[i] = b" " * by + lines[i] if by > 0 else lines[i][min(-by, len(lines[i]) - len(lines[i].lstrip(b" "))) :]
    return b"\n".join(lines)


def truncate(draw: st.DrawFn, data: bytes) -> bytes:
    return data[: draw(st.integers(min_value=0, max_value=len(data)))]


def insert_text(draw: st.DrawFn, data: bytes) -> bytes:
    at = draw(st.integers(min_value=0, max_value=len(data)))
    return data[:at] + draw(_VALUE).encode("utf-8", "surrogatepass") + data[at:]


def flip_byte(draw: st.DrawFn, data: bytes) -> bytes:
    if not data:
        return data
    at = draw(st.integers(min_value=0, max_value=len(data) - 1))
    return data[:at] + bytes([draw(st.integers(min_value=0, max_value=255))]) + data[at + 1 :]


MUTATIONS: list[Callable[[st.DrawFn, bytes], bytes]] = [
    delete_line,
    duplicate_line,
    swap_lines,
    replace_value,
    replace_value,
    replace_flow_item,
    insert_tab,
    reindent,
    truncate,
    insert_text,
    flip_byte,
]


@st.composite
def damaged_content(draw: st.DrawFn) -> tuple[str, bytes, list[str]]:
    """One content file, hit by one to three random mutations."""
    name = draw(st.sampled_from(YAML_FILES))
    data = ORIGINAL[name]
    # Mostly spare the schema line: damage there stops the reading early,
    # so the parser and the schema checks would see far fewer examples.
    header = b""
    if draw(st.integers(min_value=0, max_value=4)) != 4:
        header, _, data = data.partition(b"\n")
        header += b"\n"
    applied = []
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        mutation = draw(st.sampled_from(MUTATIONS))
        data = mutation(draw, data)
        applied.append(mutation.__name__)
    return name, header + data, applied


# ---------------------------------------------------------------- helpers


@contextlib.contextmanager
def scratch_content(name: str, data: bytes) -> Iterator[Path]:
    """A fresh copy of the content with ``name`` replaced; cwd is the copy's parent."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, original in ORIGINAL.items():
            path = root / "content" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data if rel == name else original)
        with contextlib.chdir(root):
            yield root


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def check_problem(root: Path, problem: Problem) -> None:
    content = (root / "content").resolve()
    assert isinstance(problem, Problem)
    assert isinstance(problem.path, str) and problem.path, problem
    assert not os.path.isabs(problem.path), f"path not relative to the cwd: {problem}"
    where = (root / problem.path).resolve()
    assert where == content or where.is_relative_to(content), f"outside the content dir: {problem}"
    assert isinstance(problem.line, int) and isinstance(problem.column, int)
    if problem.line == 0:
        # Only a problem with the directory itself has no place in a file.
        assert problem.column == 0 and where.is_dir(), problem
    else:
        assert problem.line >= 1 and problem.column >= 1, problem
        assert where.is_file(), problem
    assert isinstance(problem.message, str) and problem.message.strip(), problem


def load(root: Path) -> Catalog | ContentError:
    """What the kit makes of the folder: found as a pack (its game.yaml names
    it), then loaded by that pack's rules, exactly as ``validate`` does."""
    loaded, problems = load_packs(Path("content"))
    if problems:
        return ContentError(sorted(problems))
    catalog = loaded[0].catalog
    assert isinstance(catalog, Catalog)
    return catalog


# ---------------------------------------------------------------- properties


@SETTINGS
@given(damaged_content())
def test_damaged_content_loads_or_gives_located_problems(case: tuple[str, bytes, list[str]]) -> None:
    name, data, applied = case
    with scratch_content(name, data) as root:
        before = tree(root)
        outcome = load(root)  # any exception other than ContentError fails here
        event("catalog" if isinstance(outcome, Catalog) else "problems: " + outcome.problems[0].message[:25])
        if isinstance(outcome, ContentError):
            assert outcome.problems, f"{applied}: ContentError without a problem"
            for problem in outcome.problems:
                check_problem(root, problem)
            _positions_exist(name, data, applied, outcome.problems)
            assert list(outcome.problems) == sorted(outcome.problems)
            # All three renderings work on whatever the problems hold.
            for fmt in ("text", "github", "json"):
                assert render_all(outcome.problems, fmt)
        else:
            assert isinstance(outcome, Catalog), f"{applied}: {outcome!r}"
            assert outcome.cards

        # The command agrees with the loader and never reports a bug of its own.
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["validate", "content", "--format", "json"])
        assert code == (1 if isinstance(outcome, ContentError) else 0), f"{applied}: exit {code}\n{err.getvalue()}"
        assert "Traceback" not in out.getvalue() + err.getvalue()
        reported = json.loads(out.getvalue())
        expected = [p.as_json() for p in outcome.problems] if isinstance(outcome, ContentError) else []
        assert reported == expected

        assert tree(root) == before, "loading changed the content directory"
        assert not (root / "PWNED").exists()


@settings(SETTINGS, max_examples=30 * multiplier())
@given(damaged_content())
def test_loading_is_deterministic(case: tuple[str, bytes, list[str]]) -> None:
    name, data, _ = case
    with scratch_content(name, data) as root:
        first, second = load(root), load(root)
    if isinstance(first, ContentError):
        assert isinstance(second, ContentError) and first.problems == second.problems
    else:
        assert isinstance(second, Catalog) and first.fingerprint == second.fingerprint and first.cards == second.cards


def _file_lines(data: bytes) -> list[str]:
    text = data.decode("utf-8", "replace")
    return text[1:].split("\n") if text.startswith("\ufeff") else text.split("\n")


def _positions_exist(name: str, data: bytes, applied: list[str], problems: Sequence[Problem]) -> None:
    """Stronger than the brief: every line:column is one an editor can jump to."""
    files = {f"content/{rel}": _file_lines(data if rel == name else ORIGINAL[rel]) for rel in ORIGINAL}
    for problem in problems:
        if problem.line == 0:
            continue
        lines = files[problem.path]
        assert problem.line <= len(lines), f"{applied}: {problem.render()} but the file has {len(lines)} lines"
        assert problem.column <= len(lines[problem.line - 1]) + 1, f"{applied}: {problem.render()} is past the end of its line"


def test_unmutated_content_loads(shipped_content: Path) -> None:
    with scratch_content(YAML_FILES[0], ORIGINAL[YAML_FILES[0]]) as root:
        outcome = load(root)
    assert isinstance(outcome, Catalog), outcome
    assert {c.family for c in outcome.cards} >= {"trains", "offices", "facilities"}
