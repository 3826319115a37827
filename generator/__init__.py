"""The rules-site generator: renders the as-built card tables from the content
and the engine, into marked blocks of the hand-written pages under ``site/``."""
