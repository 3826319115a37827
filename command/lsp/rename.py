"""Renaming an id: every mention of the record in the pack, as one edit;
refused, with the reason, for a new id that is taken or malformed."""

from __future__ import annotations

from command.lsp.index import Mention, PackIndex, Span
from engine.content import patterns


class RenameRefused(Exception):
    """Why a rename cannot be done, in words for the editor to show."""


def rename_spans(index: PackIndex, mention: Mention, new_id: str, handled_at: tuple[str, int] | None = None) -> list[Span]:
    """Every place to write ``new_id``. ``handled_at`` is where the engine's
    code handles the id (an effect's handler): content alone cannot rename that."""
    if new_id == mention.value:
        return []
    if handled_at is not None:
        file, line = handled_at
        raise RenameRefused(f"'{mention.value}' is named by the engine's handler too ({file}:{line}); rename it there and in the content together")
    pattern = index.patterns.get(mention.kind)
    if pattern is not None and not patterns.search(pattern, new_id):
        raise RenameRefused(f"'{new_id}' is not an id the schema allows (it must match {pattern})")
    targets = [mention] if mention.declares else index.resolve(mention)
    if not targets:
        raise RenameRefused(f"'{mention.value}' names no record in this pack, so there is nothing to rename")
    kinds = {t.kind for t in targets}
    taken = next((d for d in index.declarations() if d.value == new_id and d.kind in kinds), None)
    if taken is not None:
        where = f"{taken.span.path}:{taken.span.line + 1}:{taken.span.start + 1}"
        raise RenameRefused(f"'{new_id}' is already an id in this pack ({where}); ids are unique within the pack")
    return [m.span for m in index.same_id(mention)]
