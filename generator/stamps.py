"""The stamp at the end of every generated block, and the fingerprint it records.

A block ends with one line, an HTML comment the site never shows::

    <!-- inputs <fingerprint> body <sha256 of the block's text above it> -->

The fingerprint covers everything a pack's blocks are computed from: the
pack's content files (its schemas among them) byte for byte, the source of
the shared engine and generator and of that pack's rules and templates, the
kit's ``pyproject.toml`` (its version and the libraries it pins), and which
page each table is placed on (rows link to each other across pages). It is
computed from file hashes alone, so ``check`` can tell that a block is
current without loading the content or rendering anything, and a block
whose text no longer hashes to its stamp was edited by hand.

This module imports nothing heavy (no YAML reader, template engine or
Markdown parser): it is what the quick ``check`` runs on.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.content.cache import files_digest, kit_digest
from engine.sources import pack_code_digest

STAMP = re.compile(r"^<!-- inputs ([0-9a-f]{64}) body ([0-9a-f]{64}) -->$", re.MULTILINE)
# Bumped when what the fingerprint covers changes, so old stamps never match.
_FORMAT = b"stationmaster-stamp-2\0"


def sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


@dataclass(frozen=True)
class Stamped:
    """A block's body taken apart: its text, and what the stamp at its end
    records (None for a block without one)."""

    text: str
    inputs: str | None
    body: str | None

    @property
    def matches_its_stamp(self) -> bool:
        """The text is the one the stamp was written for (no hand edit since)."""
        return self.body is not None and sha(self.text) == self.body


def split_stamp(body: str) -> Stamped:
    stamp = STAMP.search(body)
    if stamp is None:
        return Stamped(body, None, None)
    return Stamped(body[: stamp.start()], stamp.group(1), stamp.group(2))


def stamped(text: str, inputs: str) -> str:
    """``text`` followed by its stamp line."""
    return f"{text}<!-- inputs {inputs} body {sha(text)} -->\n"


_LAST_LINE = re.compile(r"<!-- inputs ([0-9a-f]{64}) body ([0-9a-f]{64}) -->\n")


def holds(body: str, inputs: str) -> bool:
    """The block ends with a stamp of ``inputs`` and its text is the one the
    stamp was written for: nothing it is computed from, and nothing in it,
    changed since it was generated. The stamp must be the last line (a line
    after it would not be covered by the hash); only that line is read, and
    the text hashed once, so a table of 100,000 rows costs one hash."""
    start = body.rfind("\n", 0, len(body) - 1) + 1
    last = _LAST_LINE.fullmatch(body, start)
    return last is not None and last.group(1) == inputs and sha(body[:start]) == last.group(2)


def pack_inputs(content_dir: Path, pack_id: str) -> str | None:
    """The digest of everything one pack's tables are computed from, except
    where they are placed (``block_inputs`` adds that); None when a content
    file cannot be read (the full check then says which)."""
    content = files_digest(content_dir)
    if content is None:
        return None
    digest = hashlib.sha256(_FORMAT)
    digest.update(kit_digest())
    digest.update(pack_code_digest(pack_id))
    digest.update(content)
    return digest.hexdigest()


def block_inputs(pack: str, table_page: Mapping[str, str]) -> str:
    """The fingerprint every block of a pack is stamped with: the pack's
    inputs and the page each table is on (a row's link to a card names the
    page that card's row is on)."""
    digest = hashlib.sha256(pack.encode())
    digest.update(repr(sorted(table_page.items())).encode())
    return digest.hexdigest()
