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


# Words a gathered line's common part does not end on: 'Play Straight at'
# reads better as 'Play Straight: at (1, 0); at (2, 0)'.
_LINKS = frozenset({"the", "a", "an", "onto", "at", "to", "on", "from", "behind", "starting", "heading", "of", "into", "with"})


def common_ends(texts: list[str]) -> tuple[list[str], list[str]]:
    """The words every one of ``texts`` begins with, and those every one
    ends with, leaving at least one word of each text between them."""
    words = [text.split(" ") for text in texts]
    head: list[str] = []
    for column in zip(*words):
        if any(word != column[0] for word in column):
            break
        head.append(column[0])
    while head and head[-1] in _LINKS:
        head.pop()
    while head and any(len(w) <= len(head) for w in words):
        head.pop()
    tail: list[str] = []
    for column in zip(*(reversed(w[len(head) :]) for w in words)):
        if any(word != column[0] for word in column) or any(len(w) <= len(head) + len(tail) + 1 for w in words):
            break
        tail.insert(0, column[0])
    return head, tail


def gathered_words(texts: list[str]) -> tuple[str, list[str]]:
    """What ``texts`` share, as a pattern with '...' where they differ
    ('Switch: X5 (train 1) sets out its ... at (2, 0)'), and each text's own
    words, a trailing comma dropped."""
    head, tail = common_ends(texts)
    shared = " ".join([*head, "...", *tail]) if tail else " ".join(head)
    own = [" ".join(text.split(" ")[len(head) : len(text.split(" ")) - len(tail)]).rstrip(",") for text in texts]
    return shared, own
