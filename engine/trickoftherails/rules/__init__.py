"""Trick of the Rails' rules: the deal, tricks, the lane, scoring and every
reason an action is refused. Card effects are handlers in ``effects/``,
raised on this room's typed events (``events``)."""
