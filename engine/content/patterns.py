"""Schema ``pattern`` keywords, run by RE2: a matcher whose time grows with
the text, never exponentially.

Python's ``re`` backtracks: ``^(a|a)+$`` against 34 letters and a stray
character tries every way of splitting them, more than a day of work, and a
schema is content anyone may edit. RE2 refuses what it cannot run in linear
time (backreferences, look-arounds); such a pattern is a schema fault,
reported at its place before any content is checked by it. RE2's ``$`` is
the end of the text, as in a JSON Schema (ECMA-262) pattern, so no trailing
line break slips past it as it would past Python's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import re2  # type: ignore[import-untyped]  # google-re2 ships no type information

_OPTIONS = re2.Options()
# A pattern RE2 refuses is told to the schema's author as a located fault;
# RE2 would also write it to stderr on its own.
_OPTIONS.log_errors = False


class PatternError(ValueError):
    """A pattern RE2 cannot run; ``reason`` says why, in RE2's words."""

    def __init__(self, pattern: str, reason: str) -> None:
        super().__init__(reason)
        self.pattern = pattern
        self.reason = reason


# Schemas written for Python's re ended patterns with this look-ahead, so
# that $ would not match before a final line break; RE2's $ means exactly
# that already. Earlier editions of the content (which the changelog loads)
# still hold it.
_PYTHON_END = "$(?!\\n)"


@functools.lru_cache(maxsize=512)
def _compiled(pattern: str) -> Any:
    try:
        return re2.compile(pattern.replace(_PYTHON_END, "$"), _OPTIONS)
    except re2.error as exc:
        words = exc.args[0] if exc.args else str(exc)
        reason = words.decode("utf-8", "replace") if isinstance(words, bytes) else str(words)
        raise PatternError(pattern, reason) from None
    except (TypeError, ValueError) as exc:  # a NUL or a lone surrogate in the text
        raise PatternError(pattern, str(exc)) from None


def searcher(pattern: str) -> Callable[[str], object]:
    """``pattern``'s search, as ``re.compile(pattern).search`` would be;
    PatternError when RE2 cannot run it."""
    compiled = _compiled(pattern)

    def found(text: str) -> object:
        try:
            return compiled.search(text)
        except UnicodeEncodeError:
            # A lone surrogate (written as an escape) has no UTF-8 for RE2:
            # it is searched as U+FFFD, which it stands in for on any page.
            return compiled.search(text.encode("utf-8", "replace").decode("utf-8"))

    return found


def check(pattern: str) -> None:
    """Nothing when RE2 can run ``pattern``; PatternError otherwise."""
    _compiled(pattern)


def search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``."""
    return searcher(pattern)(text) is not None
