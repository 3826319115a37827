"""A worked scoring example for the rules site: one seeded game, played to
the end through the game's own API by one of its bots, then scored by the
engine. The site shows what this returns, so the example is whatever the
engine does today, never a hand-made illustration that can fall behind.
The same game is told trick by trick on its own page (``walkthrough.py``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.trickoftherails.bots import BOT_FUNCTIONS
from engine.trickoftherails.content.model import Card, Catalog, Company
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.scoring import best_run, company_of
from generator.remembered import by_content

# A three-player basic game (the lane that holds every kind of card) whose
# end shows what scoring does: runs shorter than their railways, a company
# held at the floor, and a single winner. The greedy bot plays it, so the
# trick-by-trick page shows choices a player might make.
WORKED_SEED = 16
WORKED_PLAYERS = 3
WORKED_BOT = "greedy"


@dataclass(frozen=True)
class ScoredRailway:
    company: Company
    cards: tuple[Card, ...]  # left to right
    run: range  # positions of the best run (the leftmost, where several tie)
    locomotive: Card | None
    profit: int  # the best run's station values, added
    share_value: int  # the engine's figure


@dataclass(frozen=True)
class ScoredPlayer:
    seat: int  # 0-based, clockwise
    shares: tuple[tuple[Company, int], ...]  # company, shares held (companies in catalog order, none left out)
    score: int  # the engine's figure


@dataclass(frozen=True)
class WorkedGame:
    seed: int
    players: int
    bot: str
    variant: str
    actions: int
    railways: tuple[ScoredRailway, ...]
    scores: tuple[ScoredPlayer, ...]
    winners: tuple[int, ...]


def play(catalog: Catalog, seed: int = WORKED_SEED, players: int = WORKED_PLAYERS, bot: str = WORKED_BOT) -> Game:
    """The game, played to its end by ``bot`` in every seat (a bot draws any
    chance from the game's own bot stream, so the seed fixes every action)."""
    choose = BOT_FUNCTIONS[bot]
    game = Game(catalog, players=players, seed=seed)
    while not game.is_over():
        game.apply(choose(game))
    return game


def leftmost_best_run(values: list[int], reach: int | None, total: int) -> range:
    """Where a run of ``reach`` consecutive values adds up to ``total`` (the
    engine's best run), leftmost first; the whole row for a short row or [∞]."""
    if reach is None or len(values) <= reach:
        return range(len(values))
    for start in range(len(values) - reach + 1):
        if sum(values[start : start + reach]) == total:
            return range(start, start + reach)
    raise AssertionError("the engine's best run is not a run of the railway")


@by_content
def worked_game(catalog: Catalog, seed: int = WORKED_SEED, players: int = WORKED_PLAYERS, bot: str = WORKED_BOT) -> WorkedGame:
    game = play(catalog, seed, players, bot)
    s = game.state
    values = game.share_values()
    railways = []
    for company in catalog.companies:
        cards = tuple(catalog.by_id[c] for c in s.railways[company.id])
        loco_id = s.locomotives.get(company.id)
        loco = catalog.by_id[loco_id] if loco_id is not None else None
        stations = [card.station_value or 0 for card in cards]
        reach = loco.reach if loco is not None else None
        profit = best_run(stations, reach)
        railways.append(ScoredRailway(company, cards, leftmost_best_run(stations, reach, profit), loco, profit, values[company.id]))
    final = game.score()
    scores = []
    for seat, held in enumerate(s.shares):
        counted = Counter(company_of(catalog, card) for card in held)
        scores.append(ScoredPlayer(seat, tuple((company, counted[company.id]) for company in catalog.companies), final[seat]))
    return WorkedGame(seed, players, bot, str(game.rules["variant"]), len(game.history), tuple(railways), tuple(scores), tuple(game.winners()))
