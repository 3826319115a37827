"""Small pieces of English the terminal games and commands share."""

from __future__ import annotations


def counted(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word for that many: '1 card', '3 cards', '2 coaches'
    (``many`` where adding an s would be wrong)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"
