"""A designer's own sweep as a Markdown page (``stationmaster sweep
--format markdown``): the same charts and differences as a Simulation
page's fixed sweep, laid out by the same code (``generator.sweep_site``)
and the same template (``_sweep.md.j2``), under a title, then each
configuration's score figures as a table.

The charts are inline SVG, so the page reads wherever Markdown shows HTML,
and in this kit's site once it is copied under ``site/`` and given a place
in ``mkdocs.yml``'s nav. Made from the sweep's result alone: equal results
give equal bytes.
"""

from __future__ import annotations

from engine.pack import AnyPack
from engine.sweep.run import SweepResult
from generator.render import environment
from generator.sweep_site import lay_out_sweep
from generator.tableset import table_set

TEMPLATE = "sweep-page.md.j2"
MATRIX_TEMPLATE = "matrix-page.md.j2"


def sweep_page(pack: AnyPack, result: SweepResult, command: str) -> str:
    """The page for ``result``; ``command`` is the one that reproduces it."""
    context = lay_out_sweep(command, result, pack.score_unit)
    return environment(table_set(pack.id).templates).get_template(TEMPLATE).render(title=pack.title, **context)


def matrix_page(pack: AnyPack, result: SweepResult, commands: list[str]) -> str:
    """The page for a matchup matrix (``sweep --matrix``); ``commands`` reproduce it."""
    from generator.matrix_site import lay_out_matrix

    context = lay_out_matrix(commands, result, result.grid.bots)
    return environment(table_set(pack.id).templates).get_template(MATRIX_TEMPLATE).render(title=pack.title, **context)
