"""Trick of the Rails' effect handlers: one module per effect, each
subscribing functions to the events of ``engine.trickoftherails.rules.events``
for the effect ids the content declares. ``load_handlers`` imports them all."""

from engine.effects.registry import EffectRegistry

REGISTRY = EffectRegistry(package=__name__)
on = REGISTRY.on
load_handlers = REGISTRY.load

__all__ = ["REGISTRY", "load_handlers", "on"]
