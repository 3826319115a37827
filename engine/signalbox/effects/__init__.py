"""Signal Box's effect handlers: none yet, since its one card has no effect."""

from engine.effects.registry import EffectRegistry

REGISTRY = EffectRegistry(package=__name__)
on = REGISTRY.on
load_handlers = REGISTRY.load

__all__ = ["REGISTRY", "load_handlers", "on"]
