"""Completion of ids where a reference is typed: the field under the cursor
is found from the line (and the lines above it, for a list item or a map's
key), and offered the records that field names elsewhere in the pack."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from command.lsp.index import Mention, PackIndex

_KEY = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z_][\w-]*)\s*:(?:\s|$)")
# The key whose value ends the text: ``key: va``, ``key: [a, b``, ``{id: x, key: va``.
_LAST_KEY = re.compile(r"([A-Za-z_][\w-]*)\s*:\s*(?:\[[^\]]*)?[A-Za-z0-9._-]*$")
_ID_CHARS = re.compile(r"[A-Za-z0-9._-]*$")


@dataclass(frozen=True)
class Offer:
    label: str
    detail: str
    start: int  # where the word being typed starts on the line
    end: int


def _field_at(lines: list[str], line: int, character: int, fields: Collection[str]) -> str | None:
    """The reference field whose value is being typed at the cursor: the
    line's own key (``lockouts: [a, b|``), else the key of the nearest line
    above that holds it (a list item ``- b|``, a map's ``a: b|``)."""
    text = lines[line][:character]
    own = _LAST_KEY.search(text)
    if own is not None and own.group(1) in fields:
        return own.group(1)
    indent = len(text) - len(text.lstrip())
    item = text.lstrip().startswith("-")
    for above in range(line - 1, -1, -1):
        prior = lines[above]
        if not prior.strip() or prior.lstrip().startswith("#"):
            continue
        depth = len(prior) - len(prior.lstrip())
        if depth < indent or (depth == indent and item and not prior.lstrip().startswith("-")):
            key = _KEY.match(prior)
            return key.group(2) if key is not None and key.group(2) in fields else None
    return None


def offers(index: PackIndex, family: str | None, lines: list[str], line: int, character: int) -> list[Offer]:
    if family is None or line >= len(lines):
        return []
    fields = index.fields.get(family, {})
    name = _field_at(lines, line, character, fields)
    if name is None:
        return []
    kind = fields[name][0]
    wanted = index.targets.get((family, name))
    if not wanted:
        return []  # no value of this field names a record anywhere: not a reference in fact
    typed = _ID_CHARS.search(lines[line][:character])
    start = typed.start() if typed else character
    rest = re.match(r"[A-Za-z0-9._-]*", lines[line][character:])
    end = character + (rest.end() if rest else 0)
    seen: set[str] = set()
    result: list[Offer] = []
    for declared in _candidates(index, kind, wanted):
        if declared.value not in seen:
            seen.add(declared.value)
            result.append(Offer(declared.value, _detail(index, declared), start, end))
    return result


def _candidates(index: PackIndex, kind: str, families: set[str]) -> list[Mention]:
    """The records of those families, of the field's kind where the pack declares any of it."""
    of_kind = bool(index.declarations(kind))
    return [d for d in index.declarations() if d.family in families and (d.kind == kind or not of_kind)]


def _detail(index: PackIndex, declared: Mention) -> str:
    found = index.files.get(declared.span.path)
    record = next((r for r in found.records if r.id_span == declared.span), None) if found else None
    return f"{record.name} ({record.family})" if record is not None and record.name else declared.family
