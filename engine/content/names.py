"""Names a reader must be able to tell apart: every card's ``name`` and
every other display name (``title``) in a pack's content.

A name is put in Unicode's composed form (NFC) where it is read, so that
"é" typed two ways is one name on every page. It is then refused when it
shows nothing (empty, or only spaces and fillers), when it holds a
character that shows nothing (U+200B ZERO WIDTH SPACE, U+00AD SOFT HYPHEN,
U+180E MONGOLIAN VOWEL SEPARATOR...), when another card of the pack has the
same name, and when it only looks like another card's name (a Cyrillic "е"
for a Latin "e"), by Unicode's confusables skeleton (UTS #39).
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.content.problems import Pointer

NAME_FIELDS = ("name", "title")

# Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15): a
# renderer draws nothing for these. Python's unicodedata does not carry it.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Blank yet not default-ignorable: drawn as an empty cell.
_BLANK = frozenset("\u2800\u3000")
# Categories that draw nothing a reader can name: controls, format
# characters, unassigned code points, surrogates, private use, and the line
# and paragraph separators.
_UNSEEN_CATEGORIES = frozenset(("Cc", "Cf", "Cn", "Cs", "Co", "Zl", "Zp"))


def character(char: str) -> str:
    """``char`` as a reader can look it up: U+200B ZERO WIDTH SPACE."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'an unnamed character')}"


def default_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)


def invisible(char: str) -> bool:
    """Whether ``char`` shows nothing of its own (a space does show: a gap)."""
    return default_ignorable(char) or char in _BLANK or unicodedata.category(char) in _UNSEEN_CATEGORIES


@functools.cache
def _confusables() -> dict[int, str]:
    raw = json.loads((Path(__file__).resolve().parent / "unicode" / "confusables.json").read_text(encoding="utf-8"))
    return {int(key, 16): "".join(chr(int(part, 16)) for part in value.split()) for key, value in raw["mapping"].items()}


def skeleton(text: str) -> str:
    """UTS #39's skeleton: two names with one skeleton look alike."""
    mapped = unicodedata.normalize("NFD", text).translate(_confusables())
    return unicodedata.normalize("NFD", mapped)


@dataclass(frozen=True)
class Named:
    """One display name in a document: where it is, what it names, its text."""

    pointer: Pointer
    field: str
    record: str | None  # the record's id, when the name is a record's
    text: str


def named(value: Any) -> Iterator[Named]:
    """Every display name in a document: top-level ones, and those of the
    records in its top-level lists (cards, companies...)."""
    if not isinstance(value, dict):
        return
    for key in NAME_FIELDS:
        if isinstance(value.get(key), str):
            yield Named((key,), key, None, value[key])
    for list_key, records in value.items():
        if not isinstance(records, list):
            continue
        for index, record in enumerate(records):
            if not isinstance(record, dict):
                continue
            record_id = record.get("id") if isinstance(record.get("id"), str) else None
            for key in NAME_FIELDS:
                if isinstance(record.get(key), str):
                    yield Named((list_key, index, key), key, record_id, record[key])


def normalise(value: Any, found: Named) -> str:
    """Put ``found`` in NFC in the document; the NFC text."""
    text = unicodedata.normalize("NFC", found.text)
    if text != found.text:
        holder = value
        for step in found.pointer[:-1]:
            holder = holder[step]
        holder[found.pointer[-1]] = text
    return text


def unreadable(text: str) -> str | None:
    """Why a name (in NFC) cannot be read for what it is, or None."""
    if not text:
        return "is empty; write the name as printed"
    hidden = [c for c in text if invisible(c)]
    if all(c.isspace() or invisible(c) for c in text):
        shown = ", ".join(dict.fromkeys(character(c) for c in text))
        return f"shows no character (it holds only {shown}); write the name as printed"
    if hidden:
        shown = ", ".join(dict.fromkeys(character(c) for c in hidden))
        return f"holds {shown}, which shows nothing on a page; remove it"
    return None


def difference(text: str, other: str) -> str:
    """The characters that make ``text`` differ from ``other``, named."""
    extra = [c for c in dict.fromkeys(text) if c not in other]
    return ", ".join(character(c) for c in extra[:3]) or "the same letters"
