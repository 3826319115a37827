"""Where effect handlers are registered. Each handler is a plain function
decorated with ``@handler("effect-id")``; the rules engine calls it through
the registry. Nothing is registered until the rule behind it really works."""
