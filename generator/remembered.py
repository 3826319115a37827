"""Tables worked out from a whole played game, remembered for the process.

A table that plays a seeded game (the worked example, the walkthrough) is a
pure function of the content it is given and of its arguments. ``serve``
rebuilds, the tests and one ``check`` (two tables from the same game) ask
for it again with content that did not change; the content's fingerprint
(a digest of what it was loaded from) says when it did. Nothing is kept on
disk: a process starts with nothing remembered. A catalog changed in memory
(``dataclasses.replace``) keeps the fingerprint of what it was loaded from,
so such a catalog must not be handed to a function remembered here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar


class _Fingerprinted(Protocol):
    @property
    def fingerprint(self) -> str: ...


C = TypeVar("C", bound=_Fingerprinted)
P = ParamSpec("P")
R = TypeVar("R")

# Enough for every table of both packs, and a few contents in turn.
_LIMIT = 64


def by_content(function: Callable[Concatenate[C, P], R]) -> Callable[Concatenate[C, P], R]:
    """``function(catalog, *args)``, worked out once for each content
    fingerprint and arguments (which must be hashable)."""
    known: dict[tuple[object, ...], R] = {}

    def remembered(catalog: C, /, *args: P.args, **kwargs: P.kwargs) -> R:
        key = (catalog.fingerprint, args, tuple(sorted(kwargs.items())))
        if key not in known:
            if len(known) >= _LIMIT:
                known.clear()
            known[key] = function(catalog, *args, **kwargs)
        return known[key]

    functools.update_wrapper(remembered, function)
    return remembered
