"""Go to definition, find references and the outline, over a pack's index."""

from __future__ import annotations

from command.lsp.index import FileIndex, Mention, PackIndex, Record, Span


def definition(index: PackIndex, mention: Mention) -> list[Span]:
    """Where the record a mention names is declared (itself, for a declaration)."""
    if mention.declares:
        return [mention.span]
    return [d.span for d in index.resolve(mention)]


def references(index: PackIndex, mention: Mention, with_declaration: bool) -> list[Span]:
    """Every place the record is named, across the pack's files."""
    return [m.span for m in index.same_id(mention) if with_declaration or not m.declares]


def outline(found: FileIndex | None) -> list[Record]:
    """One entry per record of a file, in file order."""
    return list(found.records) if found is not None else []
