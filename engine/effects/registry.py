"""The closed registry of effect handlers.

A card's effect is implemented exactly when a handler is registered here for
its effect id. The rules site's Status column is derived from this registry
(see ``engine.status``); nothing in the content says whether an effect works.
Every call to a handler goes through ``Handler.__call__``, which records the
effect id in the active trace, so a scenario test can prove a handler ran.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

HandlerFn = Callable[..., Any]
CheckFn = Callable[..., list[str]]


def _no_refusal(*args: Any, **kwargs: Any) -> list[str]:
    return []


@dataclass(frozen=True)
class Handler:
    """An effect's implementation: ``fn`` carries it out; ``refusals`` lists
    why it cannot be carried out now (checked before ``fn`` ever runs)."""

    effect_id: str
    fn: HandlerFn
    refusals: CheckFn = _no_refusal

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for active in _TRACES:
            active.append(self.effect_id)
        return self.fn(*args, **kwargs)

    @property
    def where(self) -> tuple[str, int]:
        """Source file and line of the handler, for error messages."""
        try:
            lines = inspect.getsourcelines(self.fn)[1]
            return inspect.getsourcefile(self.fn) or "?", lines
        except (OSError, TypeError):  # pragma: no cover - builtins, REPL
            return "?", 0


REGISTRY: dict[str, Handler] = {}
_TRACES: list[list[str]] = []


def handler(effect_id: str, refusals: CheckFn = _no_refusal) -> Callable[[HandlerFn], Handler]:
    """Register ``fn`` as the handler of ``effect_id`` (once per id)."""

    def register(fn: HandlerFn) -> Handler:
        if effect_id in REGISTRY:
            raise RuntimeError(f"effect '{effect_id}' has two handlers")
        made = Handler(effect_id, fn, refusals)
        REGISTRY[effect_id] = made
        return made

    return register


@contextmanager
def trace() -> Iterator[list[str]]:
    """Collect, in order, the effect ids of every handler run inside the block."""
    ran: list[str] = []
    _TRACES.append(ran)
    try:
        yield ran
    finally:
        _TRACES.remove(ran)


def load_handlers() -> dict[str, Handler]:
    """Import every handler module so the registry is complete, then return it."""
    import engine.effects.handlers  # noqa: F401  (registers on import)

    return REGISTRY
