"""What a Trick of the Rails simulation reports, for a designer: how scores
spread by seat (and how often each seat wins, alone or shared), what each
company's shares end up worth, where each locomotive ends up, and how often
a trick's leader wins it, by kind of trick.

``Report.to_dict()`` is the plain data (what ``--json`` prints and a site
table would read); ``to_text()`` lays the same figures out for a terminal.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.pack import CardFigures
from engine.pool import SEED_STRIDE
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.houserules import HouseRuleValue
from engine.trickoftherails.lanecards import KIND_WORDS, TRICK_KINDS
from engine.trickoftherails.runner import GameRecord

FORMAT = "trickoftherails-simulation/1"
NOT_PLACED = "not placed"


def _mean(values: Sequence[int]) -> float:
    return round(math.fsum(values) / len(values), 1) if values else 0.0


def _stdev(values: Sequence[int]) -> float:
    """The population standard deviation (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    mean = math.fsum(values) / len(values)
    return round(math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values)), 1)


def _percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


@dataclass
class Report:
    """Built empty, then fed each game's record in game order (``add``)."""

    catalog: Catalog
    players: int
    seed: int
    bot: str
    house_rules: dict[str, HouseRuleValue]
    scores: list[list[int]] = field(default_factory=list)  # per seat, a score a game
    wins: list[int] = field(default_factory=list)  # per seat: games won alone
    shared_wins: list[int] = field(default_factory=list)  # per seat: games won on a tie for first
    shared_games: int = 0  # games whose win was shared
    winning_scores: list[int] = field(default_factory=list)
    leads: list[int] = field(default_factory=list)  # the winner's lead over the runner-up, a game
    share_values: dict[str, list[int]] = field(default_factory=dict)  # per company id
    locomotives: dict[str, dict[str, int]] = field(default_factory=dict)  # locomotive id -> company id (or NOT_PLACED) -> games
    tricks: dict[str, list[int]] = field(default_factory=dict)  # kind -> [tricks, won by their leader]
    actions: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.players
        self.scores = self.scores or [[] for _ in range(n)]
        self.wins = self.wins or [0] * n
        self.shared_wins = self.shared_wins or [0] * n
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

    def add(self, record: GameRecord) -> None:
        scores = record.scores
        top = max(scores)
        winners = [seat for seat, score in enumerate(scores) if score == top]
        for seat, score in enumerate(scores):
            self.scores[seat].append(score)
        if len(winners) == 1:
            self.wins[winners[0]] += 1
        else:
            self.shared_games += 1
            for seat in winners:
                self.shared_wins[seat] += 1
        ordered = sorted(scores, reverse=True)
        self.winning_scores.append(top)
        self.leads.append(ordered[0] - ordered[1])
        for company, value in record.share_values.items():
            self.share_values[company].append(value)
        placed = {loco: company for company, loco in record.locomotives.items()}
        for loco, row in self.locomotives.items():
            row[placed.get(loco, NOT_PLACED)] += 1
        for kind, leader_won in record.tricks:
            self.tricks[kind][0] += 1
            self.tricks[kind][1] += leader_won
        self.actions.append(record.actions)

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
            "seats": [
                {
                    "seat": seat,
                    "meanScore": _mean(scores),
                    "stdevScore": _stdev(scores),
                    "minScore": min(scores, default=0),
                    "maxScore": max(scores, default=0),
                    "wins": self.wins[seat],
                    "sharedWins": self.shared_wins[seat],
                    "winPercent": _percent(self.wins[seat] + self.shared_wins[seat], games),
                }
                for seat, scores in enumerate(self.scores)
            ],
            "sharedWinGames": self.shared_games,
            "winningScore": {"mean": _mean(self.winning_scores), "stdev": _stdev(self.winning_scores)},
            "leadOverRunnerUp": {"mean": _mean(self.leads), "stdev": _stdev(self.leads)},
            "shareValues": {
                names[company]: {"mean": _mean(values), "stdev": _stdev(values), "zeroPercent": _percent(values.count(0), len(values))}
                for company, values in self.share_values.items()
            },
            "locomotives": {
                self.catalog.by_id[loco].name: {names.get(where, where): _percent(count, games) for where, count in row.items()}
                for loco, row in self.locomotives.items()
            },
            "leaderWins": {kind: {"tricks": tricks, "leaderWon": won, "percent": _percent(won, tricks)} for kind, (tricks, won) in self.tricks.items()},
            "actionsPerGame": _mean(self.actions),
            "definitions": {
                "sharedWins": "games the seat tied for the top score with another seat (each tied seat counts it)",
                "winPercent": "games the seat won, alone or shared",
                "stdev": "population standard deviation",
                "locomotives": "per locomotive, the percentage of games it ended at the head of each company's railway",
                "leaderWins": "tricks by the kind of lane card that decided them, and how often the player who led won",
            },
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True, ensure_ascii=False)

    def to_text(self) -> str:
        data = self.to_dict()
        rules = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(self.house_rules.items()))
        lines = [
            f"Trick of the Rails simulation: {self.games} games, {self.players} players, {self.bot} bot in every seat, seed {self.seed} (game i uses seed {self.seed} * {SEED_STRIDE} + i)",
            f"house rules: {rules}",
            "",
            "Scores by seat (seat 0 is player 0; the first leader is drawn at random)",
        ]
        lines += _table(
            ("seat", "mean", "stdev", "min", "max", "wins", "shared", "won %"),
            [(str(s["seat"]), f"{s['meanScore']:.1f}", f"{s['stdevScore']:.1f}", str(s["minScore"]), str(s["maxScore"]), str(s["wins"]), str(s["sharedWins"]), f"{s['winPercent']:.1f}") for s in data["seats"]],
        )
        win, lead = data["winningScore"], data["leadOverRunnerUp"]
        lines += [
            f"wins shared by a tie: {self.shared_games} of {self.games} games ({_percent(self.shared_games, self.games):.1f}%)",
            f"winning score: mean {win['mean']:.1f}, stdev {win['stdev']:.1f}; lead over the runner-up: mean {lead['mean']:.1f}, stdev {lead['stdev']:.1f}",
            "",
            "Share values at the end",
        ]
        lines += _table(("company", "mean", "stdev", "worth 0"), [(name, f"{v['mean']:.1f}", f"{v['stdev']:.1f}", f"{v['zeroPercent']:.1f}%") for name, v in data["shareValues"].items()])
        companies = [c.name for c in self.catalog.companies]
        columns = companies + ([NOT_PLACED] if any(row[NOT_PLACED] for row in self.locomotives.values()) else [])
        lines += ["", "Where each locomotive ended (% of games)"]
        lines += _table(("locomotive", *columns), [(loco, *(f"{row[c]:.1f}" for c in columns)) for loco, row in data["locomotives"].items()])
        lines += ["", "Tricks won by the player who led them"]
        lines += _table(("trick", "tricks", "leader won", "%"), [(KIND_WORDS[kind], str(v["tricks"]), str(v["leaderWon"]), f"{v['percent']:.1f}") for kind, v in data["leaderWins"].items() if v["tricks"]])
        return "\n".join(lines)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell: the first left-aligned, the rest right."""
    widths = [max(len(head[i]), *(len(r[i]) for r in rows)) if rows else len(head[i]) for i in range(len(head))]

    def fmt(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(cells)).rstrip()

    return [fmt(head), fmt(["-" * w for w in widths]), *(fmt(r) for r in rows)]
