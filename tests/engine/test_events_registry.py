"""The shared event mechanism (engine/effects/registry.py), on its own:
typed events, one handler per effect and event, traces of the events that
act (not of those that only judge), and a package whose every module is a
handler module."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Protocol

import pytest

from engine.effects.registry import EffectRegistry, Event, trace


class Greets(Protocol):
    def __call__(self, name: str) -> str: ...


class Judges(Protocol):
    def __call__(self, name: str) -> list[str]: ...


GREETED: Event[Greets] = Event("greeted")
JUDGED: Event[Judges] = Event("judged", traced=False)


def test_a_handler_is_found_by_event_and_effect_and_traced_when_it_acts() -> None:
    registry = EffectRegistry("no.such.package")

    @registry.on(GREETED, "hello", kind=str)
    def hello(name: str) -> str:
        return f"hello {name}"

    @registry.on(JUDGED, "hello")
    def judge(name: str) -> list[str]:
        return [] if name else ["no name"]

    greet = registry.get_handler(GREETED, "hello")
    refuse = registry.get_handler(JUDGED, "hello")
    assert greet is not None and refuse is not None
    with trace() as ran:
        assert refuse("") == ["no name"]
        assert greet("you") == "hello you"
    assert ran == ["hello"]
    assert registry.kind(GREETED, "hello") is str and registry.kind(JUDGED, "hello") is None
    assert registry.get_handler(GREETED, "other") is None and registry.get_handler(GREETED, None) is None
    assert "hello" in registry and registry["hello"].where[1] > 0


def test_an_effect_has_one_handler_per_event() -> None:
    registry = EffectRegistry("no.such.package")
    registry.on(GREETED, "hello")(lambda name: name)
    with pytest.raises(RuntimeError, match="two handlers"):
        registry.on(GREETED, "hello")(lambda name: name)


def test_load_imports_every_module_of_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "demo_effects"
    package.mkdir()
    (package / "__init__.py").write_text("from engine.effects.registry import EffectRegistry\nREGISTRY = EffectRegistry(__name__)\n", encoding="utf-8")
    for name in ("alpha", "beta"):
        (package / f"{name}.py").write_text(f"from {__name__} import GREETED\nfrom demo_effects import REGISTRY\nREGISTRY.on(GREETED, '{name}')(lambda name: name)\n", encoding="utf-8")
    (package / "_private.py").write_text("raise AssertionError('a private module is not a handler module')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        from demo_effects import REGISTRY  # type: ignore[import-not-found]

        assert sorted(REGISTRY.load()) == ["alpha", "beta"]
    finally:
        for module in [m for m in sys.modules if m.startswith("demo_effects")]:
            del sys.modules[module]


def test_subscribed_names_the_effects_with_a_handler_for_an_event() -> None:
    from engine.effects.registry import EffectRegistry, Event

    registry = EffectRegistry(package="nowhere")
    first: Event[Any] = Event("first")
    second: Event[Any] = Event("second")
    registry.on(first, "a")(lambda: None)
    registry.on(second, "b")(lambda: None)
    registry.on(first, "c")(lambda: None)
    assert registry.subscribed(first) == {"a", "c"}
    assert registry.subscribed(second) == {"b"}
