"""Trick of the Rails' site tables (``tables``), lane pictures (``svg``,
``lanes``) and the worked scoring example (``worked``); the templates
they fill are in ``generator/templates/trickoftherails/``."""
