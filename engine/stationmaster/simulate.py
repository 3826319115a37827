"""Many seeded Station Master games played by bots, and what they say about
the cards and, with rivals, about the seats and the attacks.

``simulate(catalog, games=..., seed=..., workers=..., bot=..., house_rules=...)``
plays ``games`` whole solitaire games and returns a :class:`Report`;
``players=N`` seats N players, each played by ``bot``, and ``seats=(...)``
names a bot for each seat instead. Game ``i``
(counted from 0) is created with the seed ``game_seed(seed, i)``, that is
``seed * 1_000_003 + i``, so any one game of a report can be replayed alone.
The games are played in chunks over ``workers`` processes and merged back in
game order (``engine.pool``): the same seed gives the same report, byte for
byte, whatever the number of workers.

The parts live in their own modules: the bots in ``bots``, one game and its
per-card tally in ``runner`` (which says what is counted), the report in
``report``; the names they export are also importable from here. This module
also says what the rules site's simulation table shows for this game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from engine.errors import ConfigurationError
from engine.pack import Progress
from engine.pool import MAX_GAMES, MAX_SEED, MAX_WORKERS, SEED_STRIDE, check_chunk, check_run, game_seed, play_chunks
from engine.seat_figures import bots_label, seat_bots
from engine.simulation_table import Option, Seating, SiteSimulation, build_seated_context, build_simulation_context, card_rows, never_played, seated_context
from engine.simulation_table import simulation_context as _cached_context
from engine.stationmaster.bots import BOT_FUNCTIONS, BOTS, Bot, greedy_bot, greedy_value, random_bot
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.houserules import HouseRuleValue, configurations, defaults, resolve
from engine.stationmaster.report import HISTOGRAM_BINS, CardStats, Distribution, Report
from engine.stationmaster.runner import MAX_ACTIONS_PER_GAME, ChunkResult, Games, GameResult, Tally, add_tally, load_games, play_chunk, play_game

__all__ = [
    "BOTS", "BOT_FUNCTIONS", "Bot", "CardStats", "Distribution", "GameResult", "HISTOGRAM_BINS", "MAX_ACTIONS_PER_GAME",
    "MAX_GAMES", "MAX_SEED", "MAX_WORKERS", "Progress", "Report", "SEED_STRIDE", "SITE_BOT", "SITE_GAMES", "SITE_RULE",
    "SITE_SEATINGS", "SITE_SEED", "SITE_TOP", "Tally", "game_seed", "greedy_bot", "greedy_value", "play_game", "random_bot", "play_games", "report_games", "simulate",
    "simulation_context", "simulation_rivals_context", "site_simulation",
]


def simulate(
    catalog: Catalog,
    games: int,
    seed: int = 0,
    workers: int = 1,
    bot: str = "random",
    house_rules: Mapping[str, HouseRuleValue] | None = None,
    progress: Progress | None = None,
    *,
    content_dir: str | Path | None = None,
    players: int | None = None,
    seats: Sequence[str] | None = None,
) -> Report:
    """Play ``games`` games and report on them: ``players`` seats (1 unless
    said, up to the game's most), each played by ``bot``; or one seat for
    each bot ``seats`` names, seat 0 first (``players``, if given too, must
    be as many).

    ``progress(done, total)`` is called as games finish (from this process).
    With ``workers`` above 1 the games run in that many processes (forked, so
    they share the catalog; where a platform cannot fork, ``content_dir`` must
    name the content the catalog was loaded from, and each worker loads it).
    ConfigurationError for a bad argument or house rule, an unknown bot, a
    count of players the game cannot seat, or seats that disagree with it.
    """
    check_run(games, seed, workers)
    merged = _Merged(catalog, games, seed, _seat_bots(catalog, bot, players, seats), resolve(catalog, dict(house_rules or {})), progress)
    load = None
    if content_dir is not None:
        from functools import partial

        load = partial(load_games, str(content_dir), catalog.fingerprint, seed, merged.table, merged.rules)
    play_chunks(play_chunk, Games(catalog, seed, merged.table, merged.rules), games, workers, merged.merge, load_state=load)
    return merged.report()


class _Merged:
    """A simulation's chunks merged in game order, and the report made of
    them: one place for it, whether the chunks came from ``engine.pool`` or
    from a cluster (``play_games`` and ``report_games``)."""

    def __init__(self, catalog: Catalog, games: int, seed: int, table: tuple[str, ...], rules: dict[str, HouseRuleValue], progress: Progress | None) -> None:
        self.catalog, self.games, self.seed, self.table, self.rules, self.progress = catalog, games, seed, table, rules, progress
        self.seat_scores: list[tuple[int, ...]] = []
        self.actions: list[int] = []
        self.turns: list[int] = []
        self.tally: Tally = {}
        self.attacks: Tally = {}

    def merge(self, result: ChunkResult) -> None:
        for scores, n, t in result[0]:
            self.seat_scores.append(scores)
            self.actions.append(n)
            self.turns.append(t)
        add_tally(self.tally, result[1])
        add_tally(self.attacks, result[2])
        if self.progress is not None:
            self.progress(len(self.seat_scores), self.games)

    def report(self) -> Report:
        if len(self.seat_scores) != self.games:
            raise ConfigurationError(f"{len(self.seat_scores)} game(s) merged for a simulation of {self.games}")
        pooled = [score for scores in self.seat_scores for score in scores]
        return Report.build(
            self.catalog, games=self.games, seed=self.seed, bot=bots_label(self.table), house_rules=self.rules, scores=pooled, actions=self.actions,
            turns=self.turns, tally=self.tally, seats=self.table, seat_scores=self.seat_scores, attacks=self.attacks,
        )


def play_games(
    catalog: Catalog, seed: int, start: int, stop: int, bot: str = "random", house_rules: Mapping[str, HouseRuleValue] | None = None, *, players: int | None = None
) -> ChunkResult:
    """Games ``start .. stop-1`` of the simulation ``simulate`` plays with
    these arguments, as one chunk: what a cluster's worker hands back
    (it pickles), for ``report_games`` to merge in game order."""
    check_chunk(seed, start, stop)
    table = _seat_bots(catalog, bot, players, None)
    return play_chunk(Games(catalog, seed, table, resolve(catalog, dict(house_rules or {}))), start, stop)


def report_games(
    catalog: Catalog,
    games: int,
    seed: int,
    bot: str,
    house_rules: Mapping[str, HouseRuleValue] | None,
    chunks: Iterable[ChunkResult],
    *,
    players: int | None = None,
) -> Report:
    """The report ``simulate`` gives, made of ``play_games`` chunks covering
    games ``0 .. games-1`` handed in game order."""
    check_run(games, seed, 1)
    merged = _Merged(catalog, games, seed, _seat_bots(catalog, bot, players, None), resolve(catalog, dict(house_rules or {})), None)
    for chunk in chunks:
        merged.merge(chunk)
    return merged.report()


def _seat_bots(catalog: Catalog, bot: str, players: object, seats: Sequence[str] | None) -> tuple[str, ...]:
    """The bot of each seat, or ConfigurationError saying what is wrong."""
    from engine.stationmaster.game import check_players

    if players is not None:
        check_players(catalog, players)
    table = seat_bots(bot, seats, players, BOTS, 1)
    check_players(catalog, len(table))
    return table


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
        return simulate(catalog, games=plan.games, seed=plan.seed, workers=1, bot=plan.bot, house_rules=option.house_rules)

    return run


def _why_unplayed(catalog: Catalog) -> Callable[[str], str | None]:
    from engine.stationmaster.dead_draws import unplayed_because

    return lambda card_id: unplayed_because(catalog, catalog.by_id[card_id])


def simulation_context(catalog: Catalog) -> dict[str, Any]:
    """The ``simulation`` table's context (``engine.simulation_table``),
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
    from engine.stationmaster.deck import is_dealt

    why = _why_unplayed(catalog)

    def lay_out(seating: Seating) -> dict[str, Any]:
        report = simulate(catalog, games=seating.games, seed=seating.seed, workers=1, bot=seating.bot, players=seating.players)
        figures = report.seat_figures
        assert figures is not None, "a game with rivals reports its seats"
        games = report.games
        data = figures.to_dict()
        seats = [
            {"seat": s["seat"], "mean": f"{s['meanScore']:.1f}", "wins": s["wins"], "shared": s["sharedWins"], "won_percent": round(s["winPercent"])}
            for s in data["seats"]
        ]
        attacks = [
            {"card": a.id, "name": a.name, "per_game": f"{a.played / games:.1f}", "played": a.played, "answered": a.answered, "answered_percent": round(100 * a.answered / a.played) if a.played else None}
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


def simulation_rivals_context(catalog: Catalog) -> dict[str, Any]:
    """The ``simulation-rivals`` table's context: each of SITE_SEATINGS
    played and laid out, cached per content fingerprint."""
    return seated_context(catalog, SITE_SEATINGS, _lay_out_seating(catalog))


def _simulation_rivals_context(catalog: Catalog) -> dict[str, Any]:
    """The same, computed afresh."""
    return build_seated_context(SITE_SEATINGS, _lay_out_seating(catalog))
