"""Effect handlers, keyed by the effect ids declared in ``content/effects.yaml``."""

from engine.effects.registry import REGISTRY, Handler, handler, trace

__all__ = ["REGISTRY", "Handler", "handler", "trace"]
