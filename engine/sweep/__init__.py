"""Configuration sweeps for any game pack: a grid of house rules x player
counts x bots, the same games in every cell, and what changed between them.

The parts, each in its own module: the grid and its cells (``grid``), what
is kept of one cell's simulation (``figures``), the cache of finished cells
(``store``), the thing that plays cells (``runner``: the process pool now,
a cluster later, behind one small interface), the differences worth a
designer's attention (``differences``), the whole run (``run``) and its text
and JSON (``render``). Nothing here names a game: a pack is reached only
through ``engine.pack.GamePack`` (held as ``AnyPack``).
"""
