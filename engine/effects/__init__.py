"""The shared effect machinery: typed events, a registry of handlers per pack, and traces."""

from engine.effects.registry import EffectRegistry, Event, Handler, Subscription, trace

__all__ = ["EffectRegistry", "Event", "Handler", "Subscription", "trace"]
