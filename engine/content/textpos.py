"""Turning a character offset into the line and column a person reads.

Both readers of content text need it, the YAML reader and the scan of JSON
schema files; it lives apart so that neither pulls in the other (the schema
scan runs on the quick path of ``check``, which must not import a YAML
parser)."""

from __future__ import annotations


def position_of_offset(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset into ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1
