"""What a pack's site tables are, for the generator: each table a function
from the pack's catalog to the context its template lays out.

A pack's tables live in ``generator/<id>/tables.py`` as ``TABLE_SET``, beside
its templates in ``generator/templates/<id>/``; ``table_set`` finds them by
the pack's id, so the engine never holds site code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import UsageError
from engine.pack import RuleValue, Status

# The plain words a reader sees beside each status on the site: the engine's
# own words are for whoever edits the content. The one place they are written.
STATUS_WORDS: Mapping[str, str] = {
    "live": "working",
    "dormantSolo": "built, needs rivals",
    "unbuilt": "not built yet",
}
# A table's context: what its template lays out (``rows`` of dicts with an
# ``id`` make each row the home of that card, for links and anchors).
Context = dict[str, Any]


@dataclass(frozen=True)
class TableSet:
    """A pack's generated tables: name to a function from its catalog to the
    template context. ``templates`` is the pack's folder under
    ``generator/templates/`` (its id), holding ``<table>.md.j2`` for each."""

    templates: str
    tables: Mapping[str, Callable[[Any], Context]]
    # Simulation reports: tables made by playing seeded games. They are
    # measurements, made only by ``cards --reports`` (generator.reports),
    # never by the ``check`` or ``cards`` that follow every edit.
    reports: frozenset[str] = frozenset()
    # Tables whose rows mention cards without being where those cards live.
    links_only: frozenset[str] = frozenset()
    # Column headings (regular expressions, matched whole) whose generated
    # numbers are rule figures, not copies in a deck: the lint lets them be.
    numeric_columns: tuple[str, ...] = ()
    # Functions the templates may call, made from the catalog (pictures, say).
    helpers: Callable[[Any], Mapping[str, Callable[..., str]]] = field(default=lambda catalog: {})
    # The words a Dealt heading puts in its brackets for a configuration:
    # (catalog, player count or None when the table does not tell seatings
    # apart, the house rules that matter). The tables head their Dealt
    # columns with them and the export labels its configurations with them.
    dealt_words: Callable[[Any, int | None, Mapping[str, RuleValue]], str] = field(default=lambda catalog, players, rules: plain_dealt_words(players, rules))


def plain_dealt_words(players: int | None, rules: Mapping[str, RuleValue]) -> str:
    """Dealt-heading words for a pack that gives none of its own: the player
    count and each rule as ``rule: value``."""
    parts = [f"{players} player{'s' if players != 1 else ''}"] if players is not None else []
    parts += [f"{k}: {str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items()]
    return ", ".join(parts)


def status_legend(meanings: Mapping[Status, str]) -> Context:
    """The rows of a pack's status legend: each status the pack can give, its
    plain words and what it means in that game (``meanings``, in order)."""
    return {"rows": [{"status": status, "words": STATUS_WORDS[status], "meaning": meaning} for status, meaning in meanings.items()]}


def table_set(pack_id: str) -> TableSet:
    """The site tables of the pack ``pack_id``: ``TABLE_SET`` of ``generator.<id>.tables``;
    UsageError (one line, exit 2) for a pack that has none yet."""
    module = f"generator.{pack_id}.tables"
    try:
        found = importlib.import_module(module).TABLE_SET
    except ModuleNotFoundError as exc:
        if exc.name not in (f"generator.{pack_id}", module):
            raise
        raise UsageError(f"pack '{pack_id}' has no site tables: write generator/{pack_id}/tables.py holding TABLE_SET (see the README's 'Adding a game pack')") from None
    assert isinstance(found, TableSet), f"generator.{pack_id}.tables.TABLE_SET is not a TableSet"
    return found
