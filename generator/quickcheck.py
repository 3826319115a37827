"""``check`` at the speed of a hash.

The full ``check`` loads every pack's content, renders every table and lints
every page. Most of the time nothing changed since the last time it passed,
and that can be told from file hashes alone:

- every generated block's stamp (``generator.stamps``) holds: it records the
  fingerprint of the pack's content files, the code and the kit version
  that this checkout computes now, and the block's text still hashes to it,
  so no table can be stale or edited by hand (an expensive table that the
  full check kept as committed, its inputs not to be had here, such as the
  What changed page without the git history, is taken as that check found
  it);
- and this very state (every content file, every page, the kit's code, this
  project folder, this Python) is one a full ``check`` or ``cards`` found
  clean before, as remembered in ``__pycache__/checked`` (``engine.pickled``):
  the stamps say nothing of the prose, whose links and anchors the lint
  reads, and a stamp could be rewritten by hand to fit an edited table,
  which only rendering afresh would catch.

When both hold, ``check`` prints what the full check would and stops; when
either does not, the full check runs and reports as precisely as ever. This
module imports no YAML reader, template engine, schema validator or Markdown
parser. ``STATIONMASTER_CHECK_CACHE=0`` (or ``STATIONMASTER_CACHE=0``)
turns the memory of clean states off, so every ``check`` runs in full.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from engine import pickled
from engine.content import files
from engine.content.cache import files_digest, kit_digest
from engine.packs import find_packs
from engine.sources import folder_digest
from generator.blocks import MarkerError, parse_page
from generator.project import Project
from generator.stamps import block_inputs, holds, pack_inputs

MEMO = Path(__file__).resolve().parent / "__pycache__" / "checked"
KEEP = 16


def enabled() -> bool:
    return pickled.enabled("STATIONMASTER_CHECK_CACHE")


class _AnyTable:
    """Every table name is known here: a block naming no table of its pack
    fails the full check, so its state is never remembered as clean."""

    def __contains__(self, name: object) -> bool:
        return True


@dataclass
class SiteState:
    """What ``check`` reads, as digests: ``inputs`` (every content file, the
    kit's code and version, the project folder, the Python), ``others`` (the
    pages outside every pack's folder), each pack's pages as text, whether
    the blocks whose stamp does not hold, and the lines a passing check prints."""

    inputs: str
    others: str
    pages: dict[str, dict[str, str]] = field(default_factory=dict)
    # (pack, table) of every block whose stamp does not hold ("" for a
    # page whose markers could not be read).
    unheld: set[tuple[str, str]] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)
    # Each pack page's path and the digest of its bytes, as read.
    page_digests: list[bytes] = field(default_factory=list)

    @property
    def key(self) -> str:
        digest = hashlib.sha256(f"{self.inputs}\0{self.others}\0".encode())
        for found in sorted(self.page_digests):
            digest.update(found)
        return digest.hexdigest()


def site_state(project: Project) -> SiteState | None:
    """The state of ``project`` as ``check`` would read it, or None where
    something is amiss that the full check reports properly (a pack folder
    that names no game, a file that cannot be read or decoded)."""
    try:
        folders, problems = find_packs(project.content)
    except OSError:
        return None
    content = files_digest(project.content)
    if problems or content is None:
        return None
    inputs = hashlib.sha256(b"stationmaster-check-1\0")
    inputs.update(f"{sys.version}\0{project.root}\0".encode("utf-8", "surrogateescape"))
    for code in ("engine", "generator", "command"):
        inputs.update(folder_digest(code))
    inputs.update(kit_digest() + content)
    state = SiteState(inputs.hexdigest(), "")
    others = hashlib.sha256()
    pack_dirs = {project.site / folder.id for folder in folders}
    try:
        for path in sorted(project.site.rglob("*.md")):
            if not any(path.is_relative_to(d) for d in pack_dirs):
                others.update(path.relative_to(project.site).as_posix().encode() + b"\0" + files.read_bytes(path) + b"\0")
        state.others = others.hexdigest()
        for folder in folders:
            if not _read_pack(project, folder.id, folder.content, folder.display, state):
                return None
    except (OSError, UnicodeDecodeError):
        return None
    return state


def _read_pack(project: Project, pack_id: str, content: Path, display: str, state: SiteState) -> bool:
    """Read one pack's pages into ``state`` and see whether their stamps hold."""
    site_dir = project.site / pack_id
    pages: dict[str, str] = {}
    for path in sorted(site_dir.rglob("*.md")) if site_dir.is_dir() else []:
        name = path.relative_to(site_dir).as_posix()
        data = files.read_bytes(path)
        pages[name] = data.decode("utf-8")
        state.page_digests.append(f"{pack_id}/{name}\0".encode() + hashlib.sha256(data).digest())
    state.pages[pack_id] = pages
    inputs = pack_inputs(content, pack_id)
    if inputs is None:
        return False
    prefix = os.path.relpath(site_dir) + "/"
    table_page: dict[str, str] = {}
    blocks = []
    for name, text in pages.items():
        try:
            page = parse_page(prefix + name, text, _AnyTable())  # type: ignore[arg-type]
        except MarkerError:
            state.unheld.add((pack_id, ""))
            continue
        for block in page.blocks:
            if block.name in table_page:
                state.unheld.add((pack_id, ""))
            table_page.setdefault(block.name, name)
            blocks.append(block)
    wanted = block_inputs(inputs, table_page)
    state.unheld.update((pack_id, block.name) for block in blocks if not holds(block.body, wanted))
    state.lines.append(f"{prefix}: {len(pages)} pages and {len(table_page)} tables agree with {display}/")
    return True


def known_clean(state: SiteState) -> bool:
    """A full check found this very state clean, and every block's stamp
    holds but those of the tables that check kept as committed."""
    if not enabled():
        return False
    kept = pickled.load(MEMO / f"{state.key}.pickle")
    return isinstance(kept, frozenset) and state.unheld <= kept


def remember_clean(state: SiteState, kept: frozenset[tuple[str, str]]) -> None:
    """Note that the full check found ``state`` clean (only ever after it
    did). ``kept``: the (pack, table) of the expensive tables, which that
    check keeps as committed when their inputs cannot be had here (the What
    changed page without the git history), so their stamp may not hold; a
    cheap table's always must (``cards`` writes it afresh)."""
    if enabled() and state.unheld <= kept:
        pickled.store(MEMO / f"{state.key}.pickle", kept, KEEP)
