"""A closed registry of effect handlers, one per game pack.

A card's effect is implemented exactly when its pack registers a handler for
the effect id. The rules site's Status column is derived from the registry;
nothing in the content says whether an effect works. Every call to a handler
goes through ``Handler.__call__``, which records the effect id in each active
trace, so a scenario test can prove a handler ran.
"""

from __future__ import annotations

import importlib
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


_TRACES: list[list[str]] = []


class EffectRegistry(dict[str, Handler]):
    """Effect id to handler, for one pack. ``modules`` are the pack's handler
    modules; importing one registers its handlers (see ``load``)."""

    def __init__(self, modules: tuple[str, ...]) -> None:
        super().__init__()
        self.modules = modules
        self._loaded = False

    def handler(self, effect_id: str, refusals: CheckFn = _no_refusal) -> Callable[[HandlerFn], Handler]:
        """Register ``fn`` as the handler of ``effect_id`` (once per id)."""

        def register(fn: HandlerFn) -> Handler:
            if effect_id in self:
                raise RuntimeError(f"effect '{effect_id}' has two handlers")
            made = Handler(effect_id, fn, refusals)
            self[effect_id] = made
            return made

        return register

    def load(self) -> EffectRegistry:
        """Import every handler module once, so the registry is complete."""
        if not self._loaded:
            self._loaded = True
            for name in self.modules:
                importlib.import_module(name)
        return self


@contextmanager
def trace() -> Iterator[list[str]]:
    """Collect, in order, the effect ids of every handler run inside the block."""
    ran: list[str] = []
    _TRACES.append(ran)
    try:
        yield ran
    finally:
        _TRACES.remove(ran)
