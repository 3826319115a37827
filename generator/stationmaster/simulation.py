"""Station Master's simulation reports on the rules site: which seeded games
each one plays (the plans) and how their figures become table rows.

The games themselves are the engine's (``engine.stationmaster.sim``); this
module only chooses them and lays them out, so it lives with the pack's
other site tables. Of the pack's site code only this module counts as what a
report measured (``engine.sources.rules_digest``): a change to a table or a
picture leaves the figures standing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.sim.intervals import wilson
from engine.stationmaster.bots import LADDER
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.houserules import configurations, defaults
from engine.stationmaster.sim.report import Report
from engine.stationmaster.sim.simulate import simulate
from generator.matrix_site import MatrixPlan
from generator.simulation_table import Option, Seating, SiteSimulation, build_seated_context, build_simulation_context, cached_context, card_rows, never_played, seated_context
from generator.simulation_table import simulation_context as _cached_context
from generator.sweep_site import SitePlan

# -- the rules site's table --------------------------------------------------------------

SITE_GAMES: Final = 40
SITE_SEED: Final = 2026
SITE_TOP: Final = 15
# The office a district starts with changes the whole game, so the table
# shows one simulation per starting office.
SITE_RULE: Final = "startingOffice"
# The greedy bot builds what it draws where random play mostly cannot, so its
# dead-draw rates say something about the cards, not about the bot.
SITE_BOT: Final = "greedy"


def site_simulation(catalog: Catalog) -> SiteSimulation:
    """The ``simulation`` table's plan: for each option of the startingOffice
    house rule (the others at their defaults), SITE_GAMES games seeded
    SITE_SEED played by SITE_BOT, and the SITE_TOP cards with the highest
    dead-draw rate. The same figures as
    ``stationmaster simulate --games 40 --seed 2026 --bot greedy --house-rule startingOffice=...``."""
    base = defaults(catalog)
    rule = catalog.house_rule(SITE_RULE)
    options = []
    for config in configurations(catalog):
        if any(config[k] != base[k] for k in base if k != SITE_RULE):
            continue
        value = config[SITE_RULE]
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        name = catalog.by_id[value].name if isinstance(value, str) and value in catalog.by_id else shown
        options.append(Option(shown, name, value == rule.default, {SITE_RULE: value}))
    return SiteSimulation(SITE_GAMES, SITE_SEED, SITE_BOT, SITE_TOP, rule.id, rule.name, tuple(options))


def _site_run(catalog: Catalog, plan: SiteSimulation) -> Callable[[Option], Report]:
    def run(option: Option) -> Report:
        return simulate(catalog, plan.request(option))

    return run


def _why_unplayed(catalog: Catalog) -> Callable[[str], str | None]:
    from engine.stationmaster.rules.dead_draws import unplayed_because

    return lambda card_id: unplayed_because(catalog, catalog.by_id[card_id])


def simulation_context(catalog: Catalog) -> dict[str, Any]:
    """The ``simulation`` table's context (``generator.simulation_table``),
    cached per content fingerprint."""
    plan = site_simulation(catalog)
    return _cached_context(catalog, plan, _site_run(catalog, plan), _why_unplayed(catalog))


def _simulation_context(catalog: Catalog) -> dict[str, Any]:
    """The same, computed afresh."""
    plan = site_simulation(catalog)
    return build_simulation_context(plan, _site_run(catalog, plan), _why_unplayed(catalog))


# -- the rules site's table of games with rivals ---------------------------------------

# Games with rivals deal the opponent-directed cards. Two and three seats
# show how the attacks go as the table fills; the greedy bot aims at the
# leader and answers what it can. Few games, to keep a cold build quick:
# a 3-player greedy game takes about as long as three solitaire ones.
SITE_SEATINGS: Final = (Seating(2, 20, SITE_SEED, SITE_BOT), Seating(3, 20, SITE_SEED, SITE_BOT))


def _lay_out_seating(catalog: Catalog) -> Callable[[Seating], dict[str, Any]]:
    from engine.stationmaster.rules.deck import is_dealt

    why = _why_unplayed(catalog)

    def lay_out(seating: Seating) -> dict[str, Any]:
        report = simulate(catalog, seating.request)
        figures = report.seat_figures
        assert figures is not None, "a game with rivals reports its seats"
        games = report.games
        data = figures.to_dict()
        seats = [
            {
                "seat": s["seat"], "mean": f"{s['meanScore']:.1f}", "mean_span": _span(s["meanScoreInterval"], ""), "wins": s["wins"], "shared": s["sharedWins"],
                "won_percent": round(s["winPercent"]), "won_span": _span(s["winInterval"], "%"),
            }
            for s in data["seats"]
        ]  # fmt: skip
        attacks = [
            {
                "card": a.id,
                "name": a.name,
                "per_game": f"{a.played / games:.1f}",
                "played": a.played,
                "answered": a.answered,
                "answered_percent": round(100 * a.answered / a.played) if a.played else None,
                "answered_span": _span([100 * bound for bound in wilson(a.answered, a.played).rounded()], "%") if a.played else None,
            }
            for a in report.attacks.values()
        ]
        answers = [{"card": a.id, "name": a.name, "answered": a.answered} for a in report.answers.values()]
        # The cards only a table with rivals deals: what the solitaire tables cannot show.
        rivals_only = {c.id for c in catalog.cards if is_dealt(catalog, c, report.house_rules, seating.players) and not is_dealt(catalog, c, report.house_rules, 1)}
        rows = [r for r in card_rows(report, games) if r["card"] in rivals_only]
        return {
            "seats": seats,
            "shared_games": data["sharedWinGames"],
            "margin": f"{data['leadOverRunnerUp']['mean']:.1f}",
            "winning_score": f"{data['winningScore']['mean']:.1f}",
            "attacks": attacks,
            "answers": answers,
            "rows": rows,
            "never_played": never_played(rows, why),
        }

    return lay_out


def _span(bounds: list[float], unit: str) -> str:
    return f"{bounds[0]:.0f}\N{EN DASH}{bounds[1]:.0f}{unit}" if unit == "%" else f"{bounds[0]:.1f}\N{EN DASH}{bounds[1]:.1f}"


def simulation_rivals_context(catalog: Catalog) -> dict[str, Any]:
    """The ``simulation-rivals`` table's context: each of SITE_SEATINGS
    played and laid out, cached per content fingerprint."""
    return seated_context(catalog, SITE_SEATINGS, _lay_out_seating(catalog))


def _simulation_rivals_context(catalog: Catalog) -> dict[str, Any]:
    """The same, computed afresh."""
    return build_seated_context(SITE_SEATINGS, _lay_out_seating(catalog))


# -- the rules site's sweep -----------------------------------------------------------

# The Simulation page's sweep: which Office a district opens on, solitaire
# and with a rival, greedy in every seat. Sixty games a cell keep the
# medians steady while adding only seconds to a cold build.
SITE_SWEEP: Final = SitePlan(rules=("startingOffice=depot,whistle-post",), players=(1, 2), bots=("greedy",), games=60, seed=2026)


def simulation_sweep(catalog: Catalog) -> dict[str, Any]:
    from engine.stationmaster.pack import PACK
    from generator.sweep_site import sweep_context

    return cached_context(catalog, repr(SITE_SWEEP), lambda: sweep_context(PACK, catalog, SITE_SWEEP))


# -- the rules site's skill ladder -----------------------------------------------------

# The Simulation page's skill ladder: every rung of the bots' LADDER at two
# players, as steps (each rung in one seat against the rung below it) on
# 300 deals, each dealt from both seats (paired-8's edge over greedy is a
# few points: 200 deals left it at the edge of chance in bench/ladder.py),
# and each rung against itself on 100 games for the cards' figures rung by
# rung. The search rungs make this the dearest report the kit measures
# (about two CPU-hours; bench/matrix.py prints the figure): a paired-8 game
# costs about 5 CPU-seconds, a deep-6 one about 8, so rungs two steps apart
# do not meet.
SITE_MATRIX: Final = MatrixPlan(rungs=LADDER, players=(2,), games=300, seed=SITE_SEED, steps=True, self_play_games=100)


def simulation_matrix(catalog: Catalog) -> dict[str, Any]:
    from engine.stationmaster.pack import PACK
    from generator.matrix_site import matrix_context

    return cached_context(catalog, repr(SITE_MATRIX), lambda: matrix_context(PACK, catalog, SITE_MATRIX))
