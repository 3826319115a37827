"""Many seeded games of Signal Box played by bots, and their report: the
seats' scores and wins, as every pack reports them (``engine.sim``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.errors import ConfigurationError
from engine.pack import CardFigures, Progress, SimulationRequest
from engine.signalbox.bots import BOT_FUNCTIONS, BOTS
from engine.signalbox.content.model import Catalog
from engine.signalbox.rules.game import Game
from engine.sim.pool import check_chunk, check_run, game_seed, play_chunks
from engine.sim.seat_figures import SeatFigures, bots_label, mixed_seats, seat_bots, seating_words

Scores = tuple[int, ...]


@dataclass(frozen=True)
class Plan:
    catalog: Catalog
    seed: int
    seats: tuple[str, ...]


@dataclass
class Report:
    players: int
    seed: int
    seat_bots: tuple[str, ...]
    seats: SeatFigures = field(init=False)

    def __post_init__(self) -> None:
        self.seats = SeatFigures(self.players)

    @property
    def games(self) -> int:
        return self.seats.games

    @property
    def cards(self) -> Mapping[str, CardFigures]:
        return {}  # nothing is drawn, so no card is drawn dead

    def score_values(self) -> list[int]:
        return [score for game in zip(*self.seats.scores) for score in game]

    def to_json(self) -> str:
        data = {"format": "signalbox-simulation/1", "games": self.games, "seed": self.seed, "bot": bots_label(self.seat_bots), **self.seats.to_dict(mixed_seats(self.seat_bots))}
        return json.dumps(data, indent=2, sort_keys=True)

    def to_text(self) -> str:
        head = f"Signal Box simulation: {self.games} games, {self.players} players, {seating_words(self.seat_bots)}, seed {self.seed}"
        return "\n".join([head, "", *self.seats.text_lines(mixed_seats(self.seat_bots))])


def play_chunk(plan: Plan, start: int, stop: int) -> list[Scores]:
    found = []
    for index in range(start, stop):
        game = Game(plan.catalog, len(plan.seats), game_seed(plan.seed, index))
        while not game.is_over():
            game.apply(BOT_FUNCTIONS[plan.seats[game.to_act]](game))
        found.append(tuple(game.score()))
    return found


def _plan(catalog: Catalog, request: SimulationRequest) -> Plan:
    if request.house_rules:
        raise ConfigurationError("Signal Box has no house rules")
    seats = seat_bots(BOTS[0] if request.bot is None else request.bot, request.seats, request.players, BOTS, catalog.players)
    if len(seats) != catalog.players:
        raise ConfigurationError(f"Signal Box is played by {catalog.players} players, not {len(seats)}")
    return Plan(catalog, request.seed, seats)


def simulate(catalog: Catalog, request: SimulationRequest, progress: Progress | None = None) -> Report:
    check_run(request.games, request.seed, request.workers)
    plan = _plan(catalog, request)
    report = Report(len(plan.seats), plan.seed, plan.seats)

    def merge(chunk: list[Scores]) -> None:
        for scores in chunk:
            report.seats.add(scores)
        if progress is not None:
            progress(report.games, request.games)

    play_chunks(play_chunk, plan, request.games, request.workers, merge)
    return report


def play_games(catalog: Catalog, request: SimulationRequest, start: int, stop: int) -> list[Scores]:
    check_chunk(request.seed, start, stop)
    return play_chunk(_plan(catalog, request), start, stop)


def report_games(catalog: Catalog, request: SimulationRequest, chunks: Iterable[list[Scores]]) -> Report:
    check_run(request.games, request.seed, 1)
    plan = _plan(catalog, request)
    report = Report(len(plan.seats), plan.seed, plan.seats)
    for chunk in chunks:
        for scores in chunk:
            report.seats.add(scores)
    if report.games != request.games:
        raise ConfigurationError(f"{report.games} game(s) merged for a simulation of {request.games}")
    return report
