"""Trick of the Rails' simulation reports on the rules site: which seeded
games its sweep and its skill ladder play. Only this module of the pack's site code counts as
"what the report measured" (``engine.sources.rules_digest``): a change to a
table or a picture leaves the figures standing.
"""

from __future__ import annotations

from typing import Any, Final

from engine.trickoftherails.bots import LADDER
from engine.trickoftherails.content.model import Catalog
from generator.matrix_site import MatrixPlan
from generator.simulation_table import cached_context
from generator.sweep_site import SitePlan

# The Simulation page's sweep: the greedy bot at every table size the game
# seats, every house rule at its default. Greedy tries its placements on
# copies of the game, so thirty games a cell keep a cold build quick.
SITE_SWEEP: Final = SitePlan(rules=(), players=(3, 4, 5), bots=("greedy",), games=30, seed=2026)


def simulation_sweep(catalog: Catalog) -> dict[str, Any]:
    from engine.trickoftherails.pack import PACK
    from generator.sweep_site import sweep_context

    return cached_context(catalog, repr(SITE_SWEEP), lambda: sweep_context(PACK, catalog, SITE_SWEEP))


# The Simulation page's skill ladder: every rung of the bots' LADDER at
# three and four players, as steps (each rung in one seat against the rung
# below it in every other) on 400 deals, each dealt once with the upper rung
# in every seat (at three players 200 deals left the search rungs' steps
# within chance in bench/ladder.py), and each rung against itself on 100
# games for the companies' share values and the cards' figures rung by
# rung. About an hour of CPU (bench/matrix.py): a pimc-48 seat costs about
# a second a game, so rungs two steps apart do not meet.
SITE_MATRIX: Final = MatrixPlan(rungs=LADDER, players=(3, 4), games=400, seed=2026, steps=True, self_play_games=100)


def simulation_matrix(catalog: Catalog) -> dict[str, Any]:
    from engine.trickoftherails.pack import PACK
    from generator.matrix_site import matrix_context

    return cached_context(catalog, repr(SITE_MATRIX), lambda: matrix_context(PACK, catalog, SITE_MATRIX))
