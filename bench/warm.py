"""Putting the machine in the state a timing assumes.

Python normally caches each module's bytecode beside it on first import, so
every later run starts from the cache. This sandbox sets
PYTHONDONTWRITEBYTECODE=1, which stops that: without this step every timed run
would compile the kit's own modules afresh (about 50 ms a run here), a cost a
normal machine pays once. ``compileall`` writes the cache whatever that
variable says, and Python still ignores an entry whose source has changed.
"""

from __future__ import annotations

import compileall
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def precompile(root: Path = ROOT) -> None:
    for folder in ("command", "engine", "generator"):
        if (root / folder).is_dir():
            compileall.compile_dir(str(root / folder), quiet=1)
