"""Small pieces of English the terminal games and commands share."""

from __future__ import annotations

from collections.abc import Sequence


def counted(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word for that many: '1 card', '3 cards', '2 coaches'
    (``many`` where adding an s would be wrong)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def key_spans(keys: Sequence[str]) -> list[str]:
    """Keys in order, each run of three or more that count up by one said as
    'from to last', the same way in every game: ['1', '2', '9', ..., '20', 'd']
    -> ['1', '2', '9 to 20', 'd']; a run of lettered keys keeps its letter
    ('d1 to d3')."""
    parts: list[str] = []
    run: list[tuple[str, int, str]] = []

    def flush() -> None:
        if len(run) >= 3:
            parts.append(f"{run[0][2]} to {run[-1][2]}")
        else:
            parts.extend(key for *_, key in run)
        run.clear()

    for key in keys:
        prefix = key.rstrip("0123456789")
        digits = key[len(prefix) :]
        if not digits:
            flush()
            parts.append(key)
            continue
        number = int(digits)
        if not (run and run[-1][0] == prefix and run[-1][1] + 1 == number):
            flush()
        run.append((prefix, number, key))
    flush()
    return parts


def or_words(items: Sequence[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"
