"""Many seeded Station Master games played by bots, and what they say about
the cards and, with rivals, about the seats and the attacks.

``simulate(catalog, SimulationRequest(games, seed, workers, bot, house_rules))``
plays ``games`` whole solitaire games and returns a :class:`Report`;
``players=N`` seats N players, each played by ``bot``, and ``seats=(...)``
names a bot for each seat instead. Game ``i``
(counted from 0) is created with the seed ``game_seed(seed, i)``, that is
``seed * 1_000_003 + i``, so any one game of a report can be replayed alone.
The games are played in chunks over ``workers`` processes and merged back in
game order (``engine.sim.pool``): the same seed gives the same report, byte for
byte, whatever the number of workers.

The parts live in their own modules: the bots in ``bots``, one game and its
per-card tally in ``runner`` (which says what is counted), the report in
``report``; the names they export are also importable from here. What the
rules site's simulation tables show is the generator's (``generator.stationmaster.simulation``).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import ConfigurationError
from engine.pack import Progress, SimulationRequest
from engine.sim.pool import MAX_GAMES, MAX_SEED, MAX_WORKERS, SEED_STRIDE, check_chunk, check_run, game_seed, play_chunks
from engine.sim.seat_figures import bots_label, seat_bots
from engine.stationmaster.bots import BOT_FUNCTIONS, BOTS, Bot, greedy_bot, greedy_value, random_bot
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.houserules import HouseRuleValue, resolve
from engine.stationmaster.sim import plain as plain_chunks
from engine.stationmaster.sim.report import HISTOGRAM_BINS, CardStats, Distribution, Report
from engine.stationmaster.sim.runner import MAX_ACTIONS_PER_GAME, ChunkResult, GameResult, Games, Tally, add_tally, load_games, play_chunk, play_game

__all__ = [
    "BOTS",
    "BOT_FUNCTIONS",
    "Bot",
    "CardStats",
    "Distribution",
    "GameResult",
    "HISTOGRAM_BINS",
    "MAX_ACTIONS_PER_GAME",
    "MAX_GAMES",
    "MAX_SEED",
    "MAX_WORKERS",
    "Progress",
    "Report",
    "SEED_STRIDE",
    "Tally",
    "game_seed",
    "greedy_bot",
    "greedy_value",
    "play_game",
    "random_bot",
    "chunk_from_plain",
    "chunk_to_plain",
    "play_games",
    "report_games",
    "simulate",
]


def simulate(catalog: Catalog, request: SimulationRequest, progress: Progress | None = None) -> Report:
    """Play the request's games and report on them: ``players`` seats (1
    unless said, up to the game's most), each played by ``bot``; or one seat
    for each bot ``seats`` names, seat 0 first (``players``, if given too,
    must be as many).

    ``progress(done, total)`` is called as games finish (from this process).
    With ``workers`` above 1 the games run in that many processes (forked, so
    they share the catalog; where a platform cannot fork, ``content_dir`` must
    name the content the catalog was loaded from, and each worker loads it).
    ConfigurationError for a bad argument or house rule, an unknown bot, a
    count of players the game cannot seat, or seats that disagree with it.
    """
    games, seed = request.games, request.seed
    check_run(games, seed, request.workers)
    merged = _Merged(catalog, games, seed, _seat_bots(catalog, request), resolve(catalog, dict(request.house_rules)), progress)
    load = None
    if request.content_dir is not None:
        from functools import partial

        load = partial(load_games, str(request.content_dir), catalog.fingerprint, seed, merged.table, merged.rules)
    play_chunks(play_chunk, Games(catalog, seed, merged.table, merged.rules), games, request.workers, merged.merge, load_state=load)
    return merged.report()


class _Merged:
    """A simulation's chunks merged in game order, and the report made of
    them: one place for it, whether the chunks came from ``engine.sim.pool`` or
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
            self.catalog,
            games=self.games,
            seed=self.seed,
            bot=bots_label(self.table),
            house_rules=self.rules,
            scores=pooled,
            actions=self.actions,
            turns=self.turns,
            tally=self.tally,
            seats=self.table,
            seat_scores=self.seat_scores,
            attacks=self.attacks,
        )


def play_games(catalog: Catalog, request: SimulationRequest, start: int, stop: int) -> ChunkResult:
    """Games ``start .. stop-1`` of the simulation ``simulate`` plays for
    ``request``, as one chunk: what a cluster's worker hands back (it
    pickles), for ``report_games`` to merge in game order."""
    check_chunk(request.seed, start, stop)
    table = _seat_bots(catalog, request)
    return play_chunk(Games(catalog, request.seed, table, resolve(catalog, dict(request.house_rules))), start, stop)


def chunk_to_plain(chunk: ChunkResult) -> object:
    """A ``play_games`` chunk as plain values, for a worker to hand back."""
    return plain_chunks.chunk_to_plain(chunk)


def chunk_from_plain(catalog: Catalog, request: SimulationRequest, start: int, stop: int, plain: object) -> ChunkResult:
    """Games ``start .. stop-1`` of ``request`` from their plain values;
    ``engine.sim.plain.BadChunk`` if they are not what playing them gives."""
    check_chunk(request.seed, start, stop)
    return plain_chunks.chunk_from_plain(catalog, len(_seat_bots(catalog, request)), stop - start, plain)


def report_games(catalog: Catalog, request: SimulationRequest, chunks: Iterable[ChunkResult]) -> Report:
    """The report ``simulate`` gives, made of ``play_games`` chunks covering
    games ``0 .. games-1`` handed in game order."""
    check_run(request.games, request.seed, 1)
    merged = _Merged(catalog, request.games, request.seed, _seat_bots(catalog, request), resolve(catalog, dict(request.house_rules)), None)
    for chunk in chunks:
        merged.merge(chunk)
    return merged.report()


def _seat_bots(catalog: Catalog, request: SimulationRequest) -> tuple[str, ...]:
    """The bot of each seat (the first bot where the request names none),
    or ConfigurationError saying what is wrong."""
    from engine.stationmaster.rules.game import check_players

    if request.players is not None:
        check_players(catalog, request.players)
    table = seat_bots(BOTS[0] if request.bot is None else request.bot, request.seats, request.players, BOTS, 1)
    check_players(catalog, len(table))
    return table
