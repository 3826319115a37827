"""A closed registry of effect handlers, one per game pack, keyed by event.

A game's core raises named events (a card is played, a train stands at an
Office ...); each ``Event`` carries, as its type parameter, the Protocol its
handlers satisfy, so mypy checks both the handler and every call the core
makes. A handler module subscribes a function to an event for one effect id
(``registry.on(EVENT, "effect-id")``); the core looks up the effect a card
carries in its content and asks the registry for that effect's handler.

A card's effect is implemented exactly when its pack subscribes a handler for
the effect id: the rules site's Status column is derived from the registry.
Every call to a handler of a traced event records the effect id in each
active ``trace``, so a scenario test can prove a handler ran; events that only
judge (refusals, questions) are not traced, since judging does nothing.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, cast

from engine.content.problems import Origin, Problem

F = TypeVar("F", bound=Callable[..., Any])


class Event(Generic[F]):
    """A named hook point whose handlers have the signature ``F`` (a Protocol).

    ``traced`` events do something (their runs are recorded by ``trace``);
    untraced ones only answer a question the core asks."""

    def __init__(self, name: str, *, traced: bool = True) -> None:
        self.name = name
        self.traced = traced

    def __repr__(self) -> str:
        return f"Event({self.name!r})"


@dataclass(frozen=True)
class Subscription:
    """One function subscribed to one event for one effect; ``kind`` is what
    the handler module declares it acts for (an action class, say), so the
    core can find the effect without naming it."""

    effect_id: str
    event: str
    fn: Callable[..., Any]
    call: Callable[..., Any]
    kind: object = None


@dataclass
class Handler:
    """Everything one effect subscribes, event name to subscription."""

    effect_id: str
    subscriptions: dict[str, Subscription] = field(default_factory=dict)

    @property
    def where(self) -> tuple[str, int]:
        """Source file and line of the effect's first handler, for error messages."""
        for sub in self.subscriptions.values():
            try:
                lines = inspect.getsourcelines(sub.fn)[1]
                return inspect.getsourcefile(sub.fn) or "?", lines
            except (OSError, TypeError):  # pragma: no cover - builtins, REPL
                return "?", 0
        return "?", 0


_TRACES: list[list[str]] = []


def _traced(effect_id: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        for active in _TRACES:
            active.append(effect_id)
        return fn(*args, **kwargs)

    return call


class EffectRegistry(dict[str, Handler]):
    """Effect id to its handlers, for one pack.

    ``package`` is the pack's handler package: ``load`` imports every module
    in it, so adding a handler module is the only edit a new effect needs."""

    def __init__(self, package: str) -> None:
        super().__init__()
        self.package = package
        self._loaded = False
        # Counts the changes, so a caller that keeps answers (a game keeps
        # which cards are spent by an action) knows when they went stale.
        self.generation = 0

    def _changed(self) -> None:
        self.generation += 1

    # Every way the mapping changes counts as a change (tests swap handlers
    # in and out with these).
    def __setitem__(self, key: str, value: Handler) -> None:
        self._changed()
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._changed()
        super().__delitem__(key)

    def clear(self) -> None:
        self._changed()
        super().clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._changed()
        super().update(*args, **kwargs)

    def pop(self, *args: Any) -> Any:
        self._changed()
        return super().pop(*args)

    def setdefault(self, key: str, default: Handler) -> Handler:
        self._changed()
        return super().setdefault(key, default)

    def on(self, event: Event[F], effect_id: str, *, kind: object = None) -> Callable[[F], F]:
        """Subscribe ``fn`` to ``event`` for ``effect_id`` (once per pair)."""

        def register(fn: F) -> F:
            made = self.setdefault(effect_id, Handler(effect_id))
            if event.name in made.subscriptions:
                raise RuntimeError(f"effect '{effect_id}' has two handlers for event '{event.name}'")
            call = _traced(effect_id, fn) if event.traced else fn
            made.subscriptions[event.name] = Subscription(effect_id, event.name, fn, call, kind)
            self._changed()
            return fn

        return register

    def get_handler(self, event: Event[F], effect_id: str | None) -> F | None:
        """The handler ``effect_id`` subscribes to ``event``, or None."""
        made = self.get(effect_id) if effect_id is not None else None
        sub = made.subscriptions.get(event.name) if made is not None else None
        return cast("F", sub.call) if sub is not None else None

    def subscribed(self, event: Event[Any]) -> frozenset[str]:
        """The effect ids with a handler for ``event``: a core that scans many
        cards asks this once rather than looking each card's effect up."""
        return frozenset(effect_id for effect_id, made in self.items() if event.name in made.subscriptions)

    def kind(self, event: Event[Any], effect_id: str | None) -> object:
        """What the effect's handler for ``event`` declared it acts for."""
        made = self.get(effect_id) if effect_id is not None else None
        sub = made.subscriptions.get(event.name) if made is not None else None
        return sub.kind if sub is not None else None

    def load(self) -> EffectRegistry:
        """Import every handler module of the package once, so the registry is complete."""
        if not self._loaded:
            self._loaded = True
            package = importlib.import_module(self.package)
            for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
                if not module.name.startswith("_"):
                    importlib.import_module(f"{self.package}.{module.name}")
        return self


@contextmanager
def trace() -> Iterator[list[str]]:
    """Collect, in order, the effect ids of every traced handler run inside the block."""
    ran: list[str] = []
    _TRACES.append(ran)
    try:
        yield ran
    finally:
        _TRACES.remove(ran)


class Declared(Protocol):
    """An effect as a pack's content declares it: where it was written."""

    @property
    def origin(self) -> Origin: ...


def undeclared_handlers(registry: EffectRegistry, declared: Mapping[str, Declared]) -> list[Problem]:
    """A handler for an effect the content does not declare is an error, as a
    card naming an undeclared effect is: both are typos waiting to hide."""
    problems = []
    declared_in = next(iter(declared.values())).origin.file if declared else "effects.yaml"
    for effect_id, made in sorted(registry.load().items()):
        if effect_id not in declared:
            path, line = made.where
            problems.append(Problem(path, line, 1, f"engine handler for effect '{effect_id}', which {declared_in} does not declare"))
    return problems
