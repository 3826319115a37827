"""Trick of the Rails' simulation report on the rules site: which seeded
games its sweep and its matchup matrix play. Only this module of the pack's site code counts as
"what the report measured" (``engine.sources.rules_digest``): a change to a
table or a picture leaves the figures standing.
"""

from __future__ import annotations

from typing import Any, Final

from engine.trickoftherails.bots import LADDER, SEARCH_RUNGS
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


# The Simulation page's matchup matrix: the bots' ladder (LADDER, weakest
# first) at three and four players, forty games a seating (each pair of
# rungs is played in every seating, so an entry stands on 120 or 160 games).
# The rungs the page's matrix plays: the search rungs are left off. Each of
# their games costs seconds where greedy's costs a tenth, and over some 200
# paired games (bench/ladder.py) none has yet beaten greedy by more than
# chance, so a page matrix of them would cost minutes to say "no better".
SITE_RUNGS: Final = tuple(rung for rung in LADDER if rung not in SEARCH_RUNGS)
SITE_MATRIX: Final = MatrixPlan(rungs=SITE_RUNGS, players=(3, 4), games=40, seed=2026)


def simulation_matrix(catalog: Catalog) -> dict[str, Any]:
    from engine.trickoftherails.pack import PACK
    from generator.matrix_site import matrix_context

    return cached_context(catalog, repr(SITE_MATRIX), lambda: matrix_context(PACK, catalog, SITE_MATRIX))
