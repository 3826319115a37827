"""Station Master's site tables (``tables``), pictures (``svg``) and the
plans of its simulation reports (``simulation``); the templates they fill
are in ``generator/templates/stationmaster/``."""
