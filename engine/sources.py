"""A digest of the kit's own source files, read once per process.

Caches keyed by "the code that made this" (the catalog cache, the simulation
table's stamp) hash the same folders; reading every module twice in one
``check`` was work done for nothing.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".py", ".j2")


@functools.cache
def folder_digest(folder: str, leave_out: frozenset[str] = frozenset()) -> bytes:
    """The digest of every ``.py`` and ``.j2`` file under ``ROOT / folder``,
    by path and bytes, in path order; sub-folders named (relative to ROOT)
    in ``leave_out`` are skipped."""
    digest = hashlib.sha256()
    skipped = tuple(ROOT / part for part in sorted(leave_out))
    for source in sorted((ROOT / folder).rglob("*")):
        if source.suffix in SUFFIXES and not any(source.is_relative_to(other) for other in skipped):
            digest.update(source.relative_to(ROOT).as_posix().encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.digest()


def _other_packs(pack_id: str) -> frozenset[str]:
    """The folders of every pack but ``pack_id`` (its rules, site tables, templates and terminal game)."""
    return frozenset(
        part
        for found in (ROOT / "engine").glob("*/pack.py")
        if found.parent.name != pack_id
        for part in (f"engine/{found.parent.name}", f"generator/{found.parent.name}", f"generator/templates/{found.parent.name}", f"command/{found.parent.name}")
    )


def pack_code_digest(pack_id: str) -> bytes:
    """The digest of the code one pack's output depends on: the shared
    engine and generator, and that pack's own rules and templates, but not
    another pack's (a change to one game leaves the other's stamps alone)."""
    others = _other_packs(pack_id)
    return folder_digest("engine", others) + folder_digest("generator", others)


_HOLDS_DOCSTRING = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)


def _written(node: object, out: list[str]) -> None:
    """A syntax tree as text that stays the same from one Python to the next
    (appended to ``out``): each node's kind and the fields it sets.
    ``ast.dump`` is not that (Python 3.13 stopped printing empty fields, and
    new versions add fields), and a designer on another Python must not see
    every simulation report called stale. One flat list, no generators: the
    engine is a quarter of a million nodes."""
    if isinstance(node, ast.AST):
        out.append(type(node).__name__)
        for name in node._fields:
            value = getattr(node, name, None)
            if name == "body" and isinstance(node, _HOLDS_DOCSTRING) and value and _is_docstring(value[0]):
                value = value[1:] or [ast.Pass()]  # a docstring says what the code does; it does nothing
            if value is None or value == []:
                continue
            out.append(name)
            _written(value, out)
        out.append(")")
    elif type(node) is list:
        out.append("[")
        for item in node:
            _written(item, out)
        out.append("]")
    else:
        out.append(repr(node))


def written(tree: ast.AST) -> str:
    """``tree`` as ``_written`` spells it, its pieces apart."""
    out: list[str] = []
    _written(tree, out)
    return "\0".join(out)


_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
# Within one process, by the digest of the files' bytes: a render asks once per report.
_BEHAVIOURS: dict[str, str] = {}


_SHAPES: dict[bytes, bytes] = {}  # one parse per module and process, whichever packs ask


def _shape_of(code: bytes) -> bytes:
    """A digest of a module's syntax tree, its docstrings left out."""
    key = hashlib.sha256(code).digest()
    if key not in _SHAPES:
        try:
            shape = written(ast.parse(code)).encode()
        except (SyntaxError, ValueError):
            shape = code  # code that does not parse is taken byte for byte
        _SHAPES[key] = hashlib.sha256(shape).digest()
    return _SHAPES[key]


def behaviour_digest(folder: str, leave_out: frozenset[str] = frozenset()) -> str:
    """A digest of what the code under ``folder`` does, not how it is
    written down: each module's syntax tree without its docstrings (so a
    comment, a docstring or a reflowed line changes nothing), and each
    template's bytes. Parsing every module costs a few tenths of a second,
    so the answer is kept in the local cache under the digest of the
    files' bytes, and parsed again only after an edit."""
    from engine import localcache

    raw = hashlib.sha256(b"behaviour-5\0" + folder_digest(folder, leave_out)).hexdigest()
    if raw in _BEHAVIOURS:
        return _BEHAVIOURS[raw]
    kept = localcache.read("behaviour", raw)
    if isinstance(kept, str) and _HEX_DIGEST.fullmatch(kept):
        _BEHAVIOURS[raw] = kept
        return kept
    digest = hashlib.sha256()
    skipped = tuple(ROOT / part for part in sorted(leave_out))
    for source in sorted((ROOT / folder).rglob("*")):
        if source.suffix not in SUFFIXES or any(source.is_relative_to(other) for other in skipped):
            continue
        data = source.read_bytes()
        if source.suffix == ".py":
            data = _shape_of(data)
        digest.update(source.relative_to(ROOT).as_posix().encode() + b"\0" + data + b"\0")
    found = _BEHAVIOURS[raw] = digest.hexdigest()
    localcache.write("behaviour", raw, found)
    return found


# Modules that move bytes, never a figure: the local cache, bounded JSON
# reading, the --output rule, atomic writes, the Dask transport with its
# unpickler (reports are measured in this process, never on a cluster), and
# the save file's wrapping (a report plays games, it never saves one). A
# fix to one of them must not call every simulation report stale.
PLUMBING = frozenset(
    {
        "engine/atomic.py",
        "engine/jsonfile.py",
        "engine/localcache.py",
        "engine/saves.py",
        "engine/targets.py",
        "engine/sweep/dask_runner.py",
        "engine/sweep/unpickling.py",
    }
)


# The one module of a pack's site code that chooses the games its reports
# play (how many, the seed, the bot, the grid); its tables and pictures
# change no figure.
PLANS = "simulation.py"


def _not_plans(pack_id: str) -> frozenset[str]:
    folder = ROOT / "generator" / pack_id
    return frozenset(f"generator/{pack_id}/{entry.name}" for entry in folder.iterdir() if entry.name != PLANS) if folder.is_dir() else frozenset()


def rules_digest(pack_id: str) -> str:
    """What a pack's games are played by: the shared engine and the pack's
    own rules, bots and simulations (not another pack's), as behaviour;
    with the pack's report plans (``generator/<id>/simulation.py``), which
    choose the games its reports play (how many, the seed, the bot). Content loading is left
    out: what it makes of the files is the catalog, which a report's cards
    digest already stands for, so a faster loader that reads the same cards
    leaves the figures standing; so does the PLUMBING."""
    loading = frozenset(f"engine/{part}" for part in ("content", f"{pack_id}/content"))
    engine = behaviour_digest("engine", _other_packs(pack_id) | loading | PLUMBING)
    site = behaviour_digest(f"generator/{pack_id}", _not_plans(pack_id))
    return hashlib.sha256(f"{engine}\0{site}".encode()).hexdigest()
