"""What a Trick of the Rails simulation reports, for a designer: how scores
spread by seat (and how often each seat wins, alone or shared), what each
company's shares end up worth, where each locomotive ends up, and how often
a trick's leader wins it, by kind of trick.

``Report.to_dict()`` is the plain data (what ``--json`` prints and a site
table would read); ``to_text()`` lays the same figures out for a terminal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engine.pack import CardFigures, SweepMeasure
from engine.sim.intervals import Moments, mean_interval, wilson
from engine.sim.pool import SEED_STRIDE
from engine.sim.seat_figures import DEFINITIONS as SEAT_DEFINITIONS
from engine.sim.seat_figures import SIDE_DEFINITIONS, SeatFigures, mixed_seats, percent, seating_words, text_table
from engine.sim.seat_figures import mean as _mean
from engine.sim.seat_figures import stdev as _stdev
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.houserules import HouseRuleValue
from engine.trickoftherails.rules.lanecards import KIND_WORDS, TRICK_KINDS
from engine.trickoftherails.rules.scoring import team_sides
from engine.trickoftherails.sim.runner import GameRecord

FORMAT = "trickoftherails-simulation/1"
NOT_PLACED = "not placed"


@dataclass
class Report:
    """Built empty, then fed each game's record in game order (``add``)."""

    catalog: Catalog
    players: int
    seed: int
    bot: str
    house_rules: dict[str, HouseRuleValue]
    seat_bots: tuple[str, ...] = ()  # each seat's bot; empty: ``bot`` in every seat
    seats: SeatFigures = field(init=False)
    share_values: dict[str, list[int]] = field(default_factory=dict)  # per company id
    locomotives: dict[str, dict[str, int]] = field(default_factory=dict)  # locomotive id -> company id (or NOT_PLACED) -> games
    tricks: dict[str, list[int]] = field(default_factory=dict)  # kind -> [tricks, won by their leader]
    actions: list[int] = field(default_factory=list)
    first_leaders: list[int] = field(default_factory=list)  # each game's first leader

    def __post_init__(self) -> None:
        # With Teams, partners hold one score: the contest is between the teams.
        self.seats = SeatFigures(self.players, sides=team_sides(self.players) if self.house_rules.get("teams") else None)
        companies = [c.id for c in self.catalog.companies]
        self.share_values = self.share_values or {c: [] for c in companies}
        locos = [c.id for c in self.catalog.cards if c.is_locomotive]
        self.locomotives = self.locomotives or {loco: dict.fromkeys([*companies, NOT_PLACED], 0) for loco in locos}
        self.tricks = self.tricks or {kind: [0, 0] for kind in TRICK_KINDS}

    @property
    def games(self) -> int:
        return len(self.actions)

    @property
    def cards(self) -> Mapping[str, CardFigures]:
        # Nothing is drawn during play, so no card can be a dead draw.
        return {}

    def score_values(self) -> list[int]:
        """Every seat's score of every game, game by game, seat 0 first."""
        return [score for game in zip(*self.seats.scores) for score in game]

    def add(self, record: GameRecord) -> None:
        self.seats.add(record.scores)
        for company, value in record.share_values.items():
            self.share_values[company].append(value)
        placed = {loco: company for company, loco in record.locomotives.items()}
        for loco, row in self.locomotives.items():
            row[placed.get(loco, NOT_PLACED)] += 1
        for kind, leader_won in record.tricks:
            self.tricks[kind][0] += 1
            self.tricks[kind][1] += leader_won
        self.actions.append(record.actions)
        self.first_leaders.append(record.first_leader)

    def first_seats(self) -> list[int]:
        """Each game's first leader, game by game."""
        return list(self.first_leaders)

    def first_leader_wins(self) -> int:
        """Games the first leader won, alone or shared."""
        return sum(1 for game, leader in enumerate(self.first_leaders) if self.seats.scores[leader][game] == max(seat[game] for seat in self.seats.scores))

    # -- the figures ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every figure as plain data (numbers rounded to one decimal)."""
        names = {c.id: c.name for c in self.catalog.companies}
        games = self.games
        return {
            "format": FORMAT,
            "games": games,
            "players": self.players,
            "seed": self.seed,
            "gameSeeds": f"game i (from 0) uses seed {self.seed} * {SEED_STRIDE} + i",
            "bot": self.bot,
            "houseRules": dict(self.house_rules),
            **self.seats.to_dict(mixed_seats(self.seat_bots)),
            "shareValues": {
                names[company]: {
                    "mean": _mean(values),
                    "meanInterval": _tenths(mean_interval(Moments.of(values)).rounded()),
                    "stdev": _stdev(values),
                    "zeroPercent": percent(values.count(0), len(values)),
                    "zeroInterval": _percents(values.count(0), len(values)),
                    "count": len(values),
                }
                for company, values in self.share_values.items()
            },  # fmt: skip
            "locomotives": {self.catalog.by_id[loco].name: {names.get(where, where): percent(count, games) for where, count in row.items()} for loco, row in self.locomotives.items()},
            "locomotiveIntervals": {self.catalog.by_id[loco].name: {names.get(where, where): _percents(count, games) for where, count in row.items()} for loco, row in self.locomotives.items()},
            # A kind no game dealt (a City at 5 players) has no rate: null, not 0.0.
            "leaderWins": {
                kind: {"tricks": tricks, "leaderWon": won, "percent": percent(won, tricks) if tricks else None, "interval": _percents(won, tricks) if tricks else None}
                for kind, (tricks, won) in self.tricks.items()
            },
            "firstLeaderWins": {"games": games, "won": self.first_leader_wins(), "percent": percent(self.first_leader_wins(), games), "interval": _percents(self.first_leader_wins(), games)},
            "actionsPerGame": _mean(self.actions),
            "actionsPerGameInterval": _tenths(mean_interval(Moments.of(self.actions)).rounded()),
            "definitions": {
                **SEAT_DEFINITIONS,
                **(SIDE_DEFINITIONS if self.seats.sides is not None else {}),
                "locomotives": "per locomotive, the percentage of games it ended at the head of each company's railway",
                "locomotiveIntervals": "the 95% Wilson interval of each of locomotives' percentages, over the games",
                "leaderWins": "tricks by the kind of lane card that decided them, and how often the player who led won (percent null for a kind no game played)",
                "firstLeaderWins": "games won (alone or shared) by the player who led the first trick (fair: 1 / players)",
                "interval": "a 95% interval, in the figure's own units: Wilson's for a percentage (over its count: games, or tricks), Student's t for a mean",
            },
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True, ensure_ascii=False)

    def to_text(self) -> str:
        data = self.to_dict()
        rules = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(self.house_rules.items()))
        lines = [
            f"Trick of the Rails simulation: {self.games} games, {self.players} players, {seating_words(self.seat_bots or (self.bot,))}, seed {self.seed} (game i uses seed {self.seed} * {SEED_STRIDE} + i)",
            f"house rules: {rules}",
            "",
            "Scores by seat (seat 0 is player 0; the first leader is drawn at random)",
        ]
        lines += self.seats.text_lines(mixed_seats(self.seat_bots))
        first = data["firstLeaderWins"]
        lines.append(f"the first leader won {first['won']} of {first['games']} games ({first['percent']:.1f}%, 95% interval {_span(first['interval'])}%; fair {100 / self.players:.1f}%)")
        lines += [
            "",
            "Share values at the end",
        ]
        lines += text_table(
            ("company", "games", "mean (95% interval)", "stdev", "worth 0 (95% interval)"),
            [
                (name, str(v["count"]), f"{v['mean']:.1f} ({_span(v['meanInterval'])})", f"{v['stdev']:.1f}", f"{v['zeroPercent']:.1f}% ({_span(v['zeroInterval'])})")
                for name, v in data["shareValues"].items()
            ],
        )
        companies = [c.name for c in self.catalog.companies]
        columns = companies + ([NOT_PLACED] if any(row[NOT_PLACED] for row in self.locomotives.values()) else [])
        lines += ["", f"Where each locomotive ended (% of {self.games} games, 95% interval)"]
        spans = data["locomotiveIntervals"]
        lines += text_table(("locomotive", *columns), [(loco, *(f"{row[c]:.1f} ({_span(spans[loco][c])})" for c in columns)) for loco, row in data["locomotives"].items()])
        lines += ["", "Tricks won by the player who led them"]
        lines += text_table(
            ("trick", "tricks", "leader won", "% (95% interval)"),
            [(KIND_WORDS[kind], str(v["tricks"]), str(v["leaderWon"]), f"{v['percent']:.1f} ({_span(v['interval'])})") for kind, v in data["leaderWins"].items() if v["tricks"]],
        )
        unplayed = [KIND_WORDS[kind] for kind, v in data["leaderWins"].items() if not v["tricks"]]
        if unplayed:
            lines.append(f"no {' or '.join(unplayed)} in these games")
        return "\n".join(lines)


def _percents(part: int, whole: int) -> list[float]:
    """The Wilson interval of ``part`` in ``whole``, in percent to one decimal."""
    return [round(100 * bound, 1) for bound in wilson(part, whole).rounded()]


def _tenths(bounds: list[float]) -> list[float]:
    return [round(bound, 1) for bound in bounds]


def _span(bounds: list[float]) -> str:
    return f"{bounds[0]:.1f}\N{EN DASH}{bounds[1]:.1f}"


def share_totals(report: Report) -> dict[str, tuple[int, int, int]]:
    """Each company's share values at the end of the report's games: their
    sum, how many and the sum of their squares, by company name, in the
    catalog's order."""
    names = {c.id: c.name for c in report.catalog.companies}
    return {names[company]: (sum(values), len(values), sum(v * v for v in values)) for company, values in report.share_values.items()}


# What a sweep keeps of each configuration beside the scores and the cards.
SHARE_VALUES: Final = SweepMeasure("Mean share value by company and configuration", "each company's mean share value at the end of the games", "mean share value", share_totals)
