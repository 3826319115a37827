"""Many seeded games of Trick of the Rails played by bots, and what a
designer wants to know of them: how scores spread by seat and what each
company's shares end up worth. Game ``i`` is seeded ``game_seed(seed, i)``,
so the report is the same for any number of workers."""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import ConfigurationError
from engine.pack import CardFigures, Progress
from engine.pool import check_run, game_seed, play_chunks
from engine.trickoftherails.bots import BOT_FUNCTIONS, BOTS
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.game import Game
from engine.trickoftherails.houserules import HouseRuleValue, resolve

# One game's figures: each seat's score, and each company's share value.
GameFigures = tuple[list[int], dict[str, int]]


@dataclass(frozen=True)
class Plan:
    catalog: Catalog
    players: int
    seed: int
    bot: str
    rules: Mapping[str, HouseRuleValue]


def play_one(plan: Plan, index: int) -> GameFigures:
    game = Game(plan.catalog, plan.players, game_seed(plan.seed, index), plan.rules)
    bot = BOT_FUNCTIONS[plan.bot]
    while not game.is_over():
        game.apply(bot(game))
    return game.score(), game.share_values()


def play_chunk(plan: Plan, start: int, stop: int) -> list[GameFigures]:
    return [play_one(plan, index) for index in range(start, stop)]


@dataclass
class Report:
    players: int
    games: int
    seed: int
    bot: str
    house_rules: dict[str, HouseRuleValue]
    seat_scores: list[list[int]] = field(default_factory=list)  # per seat, one score a game
    share_values: dict[str, list[int]] = field(default_factory=dict)  # per company name
    seat_wins: list[int] = field(default_factory=list)  # games each seat won (shared wins count for each)

    @property
    def cards(self) -> Mapping[str, CardFigures]:
        # Nothing is drawn during play, so no card can be a dead draw.
        return {}

    def summary(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bot": self.bot,
            "houseRules": self.house_rules,
            "seats": [
                {"seat": seat, "meanScore": round(statistics.fmean(scores), 1) if scores else None, "wins": self.seat_wins[seat]}
                for seat, scores in enumerate(self.seat_scores)
            ],
            "shareValues": {
                company: {"mean": round(statistics.fmean(values), 1), "zeroPercent": round(100 * values.count(0) / len(values))}
                for company, values in self.share_values.items()
                if values
            },
        }

    def to_json(self) -> str:
        return json.dumps(self.summary(), indent=1, sort_keys=True, ensure_ascii=False)

    def to_text(self) -> str:
        data = self.summary()
        rules = " ".join(f"{k}={str(v).lower()}" for k, v in sorted(self.house_rules.items()))
        lines = [f"Trick of the Rails: {self.games} games, {self.players} players, seed {self.seed}, bot {self.bot} ({rules})", "", "seat  mean score  wins"]
        lines += [f"{s['seat']:>4}  {s['meanScore'] if s['meanScore'] is not None else '—':>10}  {s['wins']:>4}" for s in data["seats"]]
        lines += ["", "company  mean share value  worth nothing"]
        lines += [f"{company:<7}  {v['mean']:>16}  {v['zeroPercent']:>12}%" for company, v in data["shareValues"].items()]
        return "\n".join(lines) + "\n"


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
) -> Report:
    """Play ``games`` games and report on them; ConfigurationError for a bad
    argument, bot, player count or house rule."""
    check_run(games, seed, workers)
    if bot not in BOT_FUNCTIONS:
        raise ConfigurationError(f"unknown bot {bot!r}; bots: {', '.join(BOTS)}")
    count = players if players is not None else catalog.player_counts[0]
    if count not in catalog.hands:
        raise ConfigurationError(f"Trick of the Rails is played by {', '.join(map(str, catalog.player_counts))} players, not {count}")
    rules = resolve(catalog, dict(house_rules or {}), count)
    report = Report(count, games, seed, bot, dict(rules), [[] for _ in range(count)], {c.name: [] for c in catalog.companies}, [0] * count)
    names = {c.id: c.name for c in catalog.companies}

    def merge(results: list[GameFigures]) -> None:
        for scores, values in results:
            top = max(scores)
            for seat, score in enumerate(scores):
                report.seat_scores[seat].append(score)
                report.seat_wins[seat] += score == top
            for company, value in values.items():
                report.share_values[names[company]].append(value)
        if progress is not None:
            progress(len(report.seat_scores[0]), games)

    # Forked workers inherit the plan; content_dir is for platforms that cannot fork.
    del content_dir
    play_chunks(play_chunk, Plan(catalog, count, seed, bot, rules), games, workers, merge)
    return report
