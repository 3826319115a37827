"""What a hover says: of a card, what the rules site says of it (its name,
Status, where it is dealt, where it comes from, a link to its row); of an
effect id, which cards use it and whether the engine has a handler for it."""

from __future__ import annotations

import importlib
import logging
import os
from pathlib import Path
from typing import Any

from command.lsp import cardfacts
from command.lsp.index import Mention, PackIndex
from engine.effects.registry import EffectRegistry
from engine.pack import AnyPack

log = logging.getLogger(__name__)
# The kind of id the schemas' ``effectId`` names: what a card's effect field holds.
EFFECT_KIND = "effect"


class Facts:
    """The site's rows of a pack's cards, worked out once per catalog."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._rows: dict[str, tuple[Any, dict[str, cardfacts.Row]]] = {}

    def rows(self, pack: AnyPack, catalog: Any) -> dict[str, cardfacts.Row]:
        kept = self._rows.get(pack.id)
        if kept is None or kept[0] is not catalog:
            kept = (catalog, cardfacts.rows(pack, catalog, self.root))
            self._rows[pack.id] = kept
        return kept[1]


def hover_text(mention: Mention, index: PackIndex, pack: AnyPack, catalog: Any, facts: Facts) -> str | None:
    """Markdown for a hover over ``mention``; None when there is nothing to say."""
    if mention.kind == "" and mention.value in catalog.by_id:
        return card_text(catalog.by_id[mention.value], pack, catalog, facts)
    if mention.kind == EFFECT_KIND:
        users = [c for c in catalog.cards if getattr(c, "effect", None) == mention.value]
        return effect_text(mention.value, users, pack)
    declared = index.resolve(mention)
    if declared:
        first = declared[0]
        return f"**{mention.value}**, declared in {_shown(first.span.path)} line {first.span.line + 1}"
    return None


def card_text(card: Any, pack: AnyPack, catalog: Any, facts: Facts) -> str:
    row = facts.rows(pack, catalog).get(card.id)
    status = row.status if row is not None else pack.status(catalog, card)
    lines = [f"**{card.name}** (`{card.id}`, {card.family})", "", f"Status: {cardfacts.status_words(status)}"]
    if row is not None and row.dealt is not None:
        lines.append(f"Dealt: {row.dealt}")
    source = card.source
    lines.append(f"Source: {source.edition}" if source.edition is not None else f"Designed: {source.reason}")
    if row is not None:
        lines += ["", f"[Its row on the rules site]({cardfacts.row_link(facts.root, row.page, card.id)})"]
    return "\n".join(lines)


def effect_text(effect_id: str, users: list[Any], pack: AnyPack) -> str:
    lines = [f"**effect `{effect_id}`**", ""]
    if users:
        lines.append("Used by: " + ", ".join(f"{c.name} (`{c.id}`)" for c in users))
    else:
        lines.append("Used by no card.")
    handler_at = handler(pack, effect_id)
    if handler_at is None:
        lines.append("Handler: none in the registry, so a card naming it is not built yet.")
    else:
        file, line = handler_at
        lines.append(f"Handler: {file} line {line}")
    return "\n".join(lines)


def handler(pack: AnyPack, effect_id: str) -> tuple[str, int] | None:
    """Where the pack's effect registry handles ``effect_id``, if it does."""
    try:
        registry = importlib.import_module(f"engine.{pack.id}.effects").REGISTRY
    except (ImportError, AttributeError):
        return None
    if not isinstance(registry, EffectRegistry):
        return None
    made = registry.load().get(effect_id)
    if made is None:
        return None
    file, line = made.where
    return _shown(file), line


def _shown(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return path
