"""The shared effect machinery: a registry of handlers per pack, and traces."""

from engine.effects.registry import EffectRegistry, Handler, trace

__all__ = ["EffectRegistry", "Handler", "trace"]
