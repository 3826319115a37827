"""Many seeded games of Trick of the Rails played by bots, and what a
designer wants to know of them (``engine.trickoftherails.sim.report``).

Game ``i`` is seeded ``game_seed(seed, i)`` and the games are merged in game
order (``engine.sim.pool``), so the report is the same for any number of
workers. The parts live in their own modules: the bots in ``bots``, one
game and what is kept of it in ``runner``, the figures in ``report``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial

from engine.errors import ConfigurationError
from engine.pack import Progress, SimulationRequest
from engine.sim.pool import check_chunk, check_run, game_seed, play_chunks
from engine.sim.seat_figures import bots_label, seat_bots
from engine.trickoftherails.bots import BOTS
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.houserules import HouseRuleValue, resolve
from engine.trickoftherails.sim import plain as plain_chunks
from engine.trickoftherails.sim.report import Report
from engine.trickoftherails.sim.runner import GameRecord, play_game

__all__ = ["Plan", "Report", "chunk_from_plain", "chunk_to_plain", "play_games", "report_games", "simulate"]


@dataclass(frozen=True)
class Plan:
    """What playing any chunk of a simulation's games needs: a worker's state."""

    catalog: Catalog
    players: int
    seed: int
    seats: tuple[str, ...]
    rules: Mapping[str, HouseRuleValue]


def play_chunk(plan: Plan, start: int, stop: int) -> list[GameRecord]:
    return [play_game(plan.catalog, plan.players, game_seed(plan.seed, index), plan.seats, plan.rules) for index in range(start, stop)]


def load_plan(content_dir: str, fingerprint: str, players: int, seed: int, seats: tuple[str, ...], rules: dict[str, HouseRuleValue]) -> Plan:
    """A worker's state where it cannot be inherited (no fork): the content
    loaded again, and refused if it is not what the simulation started from."""
    from engine.trickoftherails import load_catalog

    catalog = load_catalog(content_dir)
    if catalog.fingerprint != fingerprint:
        raise RuntimeError(f"the content under {content_dir} changed while the simulation started")
    return Plan(catalog, players, seed, seats, rules)


def _check_players(catalog: Catalog, players: object) -> int:
    if not isinstance(players, int) or isinstance(players, bool) or players not in catalog.hands:
        raise ConfigurationError(f"Trick of the Rails is played by {', '.join(map(str, catalog.player_counts))} players, not {players!r}")
    return players


def simulate(catalog: Catalog, request: SimulationRequest, progress: Progress | None = None) -> Report:
    """Play the request's games with ``bot`` in every seat, or the bot
    ``seats`` names in each seat, and report on them (``players`` defaults
    to the fewest the game is played by, or to as many seats as ``seats``
    names). ConfigurationError for a bad argument, bot, player count or
    house rule."""
    games, seed = request.games, request.seed
    check_run(games, seed, request.workers)
    plan = _plan(catalog, request)
    report = Report(catalog, plan.players, seed, bots_label(plan.seats), dict(plan.rules), plan.seats)

    def merge(records: list[GameRecord]) -> None:
        for record in records:
            report.add(record)
        if progress is not None:
            progress(report.games, games)

    load = None if request.content_dir is None else partial(load_plan, str(request.content_dir), catalog.fingerprint, plan.players, seed, plan.seats, dict(plan.rules))
    play_chunks(play_chunk, plan, games, request.workers, merge, load_state=load)
    return report


def _plan(catalog: Catalog, request: SimulationRequest) -> Plan:
    """The seats, the player count and the house rules of a simulation (the
    first bot where the request names none), or ConfigurationError saying
    which is wrong."""
    if request.players is not None:
        _check_players(catalog, request.players)
    table = seat_bots(BOTS[0] if request.bot is None else request.bot, request.seats, request.players, BOTS, catalog.player_counts[0])
    count = _check_players(catalog, len(table))
    return Plan(catalog, count, request.seed, table, resolve(catalog, dict(request.house_rules), count))


def play_games(catalog: Catalog, request: SimulationRequest, start: int, stop: int) -> list[GameRecord]:
    """Games ``start .. stop-1`` of the simulation ``simulate`` plays for
    ``request``, as one chunk: what a cluster's worker hands back (it
    pickles), for ``report_games`` to merge in game order."""
    check_chunk(request.seed, start, stop)
    return play_chunk(_plan(catalog, request), start, stop)


def chunk_to_plain(chunk: list[GameRecord]) -> object:
    """A ``play_games`` chunk as plain values, for a worker to hand back."""
    return plain_chunks.chunk_to_plain(chunk)


def chunk_from_plain(catalog: Catalog, request: SimulationRequest, start: int, stop: int, plain: object) -> list[GameRecord]:
    """Games ``start .. stop-1`` of ``request`` from their plain values;
    ``engine.sim.plain.BadChunk`` if they are not what playing them gives."""
    check_chunk(request.seed, start, stop)
    return plain_chunks.chunk_from_plain(catalog, _plan(catalog, request).players, stop - start, plain)


def report_games(catalog: Catalog, request: SimulationRequest, chunks: Iterable[list[GameRecord]]) -> Report:
    """The report ``simulate`` gives, made of ``play_games`` chunks covering
    games ``0 .. games-1`` handed in game order."""
    games = request.games
    check_run(games, request.seed, 1)
    plan = _plan(catalog, request)
    report = Report(catalog, plan.players, request.seed, bots_label(plan.seats), dict(plan.rules), plan.seats)
    for records in chunks:
        for record in records:
            report.add(record)
    if report.games != games:
        raise ConfigurationError(f"{report.games} game(s) merged for a simulation of {games}")
    return report
