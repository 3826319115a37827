"""Station Master's effect handlers, keyed by the effect ids its content declares."""

from engine.effects.registry import EffectRegistry

REGISTRY = EffectRegistry(modules=("engine.stationmaster.effects.handlers",))
handler = REGISTRY.handler
load_handlers = REGISTRY.load

__all__ = ["REGISTRY", "handler", "load_handlers"]
