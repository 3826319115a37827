"""Station Master's effect handlers: one module per effect (or family of
effects with one rule), each subscribing functions to the events of
``engine.stationmaster.rules.events`` for the effect ids the content declares.

Every module in this package is imported by ``load_handlers``: adding an
effect is adding a module here (and a scenario test), nothing else.
"""

from engine.effects.registry import EffectRegistry

REGISTRY = EffectRegistry(package=__name__)
on = REGISTRY.on
load_handlers = REGISTRY.load

__all__ = ["REGISTRY", "load_handlers", "on"]
