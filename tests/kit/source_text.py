"""The string constants of a module's source, for the tests that hold code
to "no card fact written twice": a card's id or name in a literal is a fact
the content should own."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from engine.packs import known_pack_ids
from tests.kit.project import PROJECT_ROOT


def literals(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every string constant that is not a docstring."""
    tree = ast.parse(source)
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def pack_code(pack_id: str) -> list[Path]:
    """The Python modules that may speak of pack ``pack_id``'s cards: its own
    folders in the engine, generator and command layers, and the shared
    generator and command code; another pack's folders are its own business."""
    others = [PROJECT_ROOT / layer / other for layer in ("engine", "generator", "command") for other in known_pack_ids() if other != pack_id]
    folders = [PROJECT_ROOT / "engine" / pack_id, PROJECT_ROOT / "generator", PROJECT_ROOT / "command"]
    return sorted(path for folder in folders for path in folder.rglob("*.py") if not any(path.is_relative_to(other) for other in others))
