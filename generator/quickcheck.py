"""``check`` at the speed of a hash, when nothing changed since it passed.

The full ``check`` loads every pack's content, renders every as-built table
and lints every page. Most runs follow one that passed on exactly the same
files, and that can be told from file hashes alone: every content file,
every page under ``site/``, the kit's code and version, this project folder
and this Python. When the digest of all of them names a verdict that a full
``check`` (or ``cards``) reached before on this machine, ``check`` prints
that verdict (its lines, and the simulation reports it found stale) and
stops.

The verdicts live in the local cache (``engine.localcache``), never in the
checkout: nothing a page holds is a fingerprint of the kit's inputs, so a
code change that renders the same tables changes no page. This module
imports no YAML reader, template engine, schema validator or Markdown
parser. ``STATIONMASTER_CHECK_CACHE=0`` (or ``STATIONMASTER_CACHE=0``)
turns the memory of verdicts off, so every ``check`` runs in full.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass

from engine import localcache
from engine.content import files
from engine.content.cache import files_digest, kit_digest
from engine.packs import find_packs
from engine.sources import folder_digest
from generator.project import Project

_KIND = "checked"
_FORMAT = b"stationmaster-check-2\0"


def enabled() -> bool:
    return localcache.enabled("STATIONMASTER_CHECK_CACHE")


@dataclass(frozen=True)
class Verdict:
    """What a passing full ``check`` printed: its summary lines, and the
    stale reports it listed (rendered problems, in order)."""

    lines: tuple[str, ...]
    stale: tuple[str, ...]


def site_state(project: Project) -> str | None:
    """The digest of everything ``check`` reads in ``project``, or None
    where something is amiss that the full check reports properly (a pack
    folder that names no game, a file that cannot be read)."""
    try:
        _, problems = find_packs(project.content)
    except OSError:
        return None
    content = files_digest(project.content)
    if problems or content is None:
        return None
    digest = hashlib.sha256(_FORMAT)
    digest.update(f"{sys.version}\0{project.root}\0".encode("utf-8", "surrogateescape"))
    for code in ("engine", "generator", "command"):
        digest.update(folder_digest(code))
    digest.update(kit_digest() + content)
    try:
        for path in sorted(project.site.rglob("*.md")):
            digest.update(path.relative_to(project.site).as_posix().encode("utf-8", "surrogateescape") + b"\0")
            digest.update(hashlib.sha256(files.read_bytes(path)).digest())
    except OSError:
        return None
    return digest.hexdigest()


def known_verdict(state: str) -> Verdict | None:
    """The verdict a full check reached on this very state, if one did."""
    if not enabled():
        return None
    kept = localcache.read(_KIND, state)
    if not isinstance(kept, dict):
        return None
    lines, stale = kept.get("lines"), kept.get("stale")
    if not (isinstance(lines, list) and isinstance(stale, list) and all(isinstance(x, str) for x in lines + stale)):
        return None
    return Verdict(tuple(lines), tuple(stale))


def remember_verdict(state: str, verdict: Verdict) -> None:
    """Note that the full check found ``state`` clean (only ever after it did)."""
    if enabled():
        localcache.write(_KIND, state, {"lines": list(verdict.lines), "stale": list(verdict.stale)}, keep=16)
