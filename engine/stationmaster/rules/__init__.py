"""Station Master's rules: the state, the uniform game API, the turn and
every reason an action is refused. Card effects are handlers in
``effects/``, raised on this room's typed events (``events``)."""
