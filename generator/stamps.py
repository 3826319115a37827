"""The line that ends every generated block: a checksum of the block's own
text, as cog keeps one, and for a simulation report what it was measured on.

An as-built table (what the content, the effect registry and the deck
builder say) ends with::

    <!-- checksum <sha256 of the block's text above it> -->

A simulation report (figures from playing seeded games) ends with::

    <!-- measured cards <c> rules <r> layout <l> checksum <sha256> -->

where ``c``, ``r`` and ``l`` are short digests of the cards as the engine
read them, the engine code that played the games and the code that laid
the figures out (``generator.reports``). The checksum only tells a hand
edit from the generator's own text: nothing about the inputs is committed
for an as-built table, so a page changes when, and only when, what a reader
sees changes. Fingerprints that make ``check`` faster live in the local
cache (``engine.localcache``), never here.

This module imports nothing heavy: the quick ``check`` runs on it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

_DIGEST = "[0-9a-f]{16}"
STAMP = re.compile(rf"^<!-- (?:measured cards ({_DIGEST}) rules ({_DIGEST}) layout ({_DIGEST}) )?checksum ([0-9a-f]{{64}}) -->$", re.MULTILINE)


def sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


@dataclass(frozen=True)
class Measured:
    """What a report's figures were measured on, as short digests."""

    cards: str
    rules: str
    layout: str


@dataclass(frozen=True)
class Stamped:
    """A block's body taken apart: its text, the checksum its stamp records
    (None for a block without one) and, for a report, what it was measured on."""

    text: str
    checksum: str | None
    measured: Measured | None = None

    @property
    def matches_its_stamp(self) -> bool:
        """The text is the one the stamp was written for (no hand edit since)."""
        return self.checksum is not None and sha(self.text) == self.checksum


def split_stamp(body: str) -> Stamped:
    stamp = STAMP.search(body)
    if stamp is None:
        return Stamped(body, None)
    cards, rules, layout, checksum = stamp.groups()
    measured = Measured(cards, rules, layout) if cards is not None else None
    return Stamped(body[: stamp.start()], checksum, measured)


def stamped(text: str, measured: Measured | None = None) -> str:
    """``text`` followed by its stamp line."""
    on = f"measured cards {measured.cards} rules {measured.rules} layout {measured.layout} " if measured else ""
    return f"{text}<!-- {on}checksum {sha(text)} -->\n"


def is_whole(body: str) -> bool:
    """The block is exactly a text and the stamp written for it, with
    nothing after the stamp: what the generator writes, untouched."""
    found = split_stamp(body)
    return found.checksum is not None and body == stamped(found.text, found.measured)
