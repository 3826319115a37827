"""Provenance, for any game: where a card or a rule value comes from.

Either a published edition of the rules prints it (``source: <edition id>``,
an id the pack declares once), or the kit designed it to fill a gap the
published rules leave (``source: {designed: <one-line reason>}``). The
schemas make ``source`` required; the pack's loader checks that an edition id
is one it declares.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from engine.content.schemas import did_you_mean


@dataclass(frozen=True, slots=True)
class Source:
    """A published edition's id, or the reason a value was designed (exactly one)."""

    edition: str | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if (self.edition is None) == (self.reason is None):
            raise ValueError("a Source is an edition id or a designed reason, not both or neither")

    @property
    def designed(self) -> bool:
        return self.reason is not None

    @classmethod
    def from_yaml(cls, raw: Any) -> Source:
        """From schema-checked YAML: an edition id, or ``{designed: reason}``."""
        if cls is not Source:
            return cls(edition=raw) if isinstance(raw, str) else cls(reason=" ".join(str(raw["designed"]).split()))
        # Nearly every card cites one of a few editions or repeats a reason
        # its family shares: one immutable Source each, not one per card
        # (100,000 of them cost 0.1 CPU-s to make, and memory to hold).
        return _edition(raw) if isinstance(raw, str) else _designed(str(raw["designed"]))


@functools.lru_cache(maxsize=4096)
def _edition(edition: str) -> Source:
    return Source(edition=edition)


@functools.lru_cache(maxsize=4096)
def _designed(written: str) -> Source:
    return Source(reason=" ".join(written.split()))


@dataclass(frozen=True, slots=True)
class PublishedEdition:
    """An edition of the rules content may cite: its id, what it is, and
    which of the project's source documents (``seed``, a file-name prefix) holds it."""

    id: str
    title: str
    version: str
    seed: str
    date: str | None = None


def editions_from_yaml(raw: Mapping[str, Any]) -> dict[str, PublishedEdition]:
    """The declared editions, keyed by id, from a schema-checked mapping."""
    return {key: PublishedEdition(id=key, title=value["title"], version=value["version"], seed=value["seed"], date=value.get("date")) for key, value in raw.items()}


def undeclared(source: Source, declared: Collection[str]) -> str | None:
    """Why ``source`` cannot be used (its edition is not declared), or None."""
    if source.edition is None or source.edition in declared:
        return None
    return unknown_edition(source.edition, declared)


def unknown_edition(edition: str, declared: Collection[str]) -> str:
    """The words, in every pack, for a source naming an edition the pack
    does not declare: the likely one meant, and the ones declared."""
    known = ", ".join(declared) or "none"
    return f"'{edition}' is not a declared edition{did_you_mean(edition, list(declared))}; game.yaml's sourceEditions declare: {known}"
