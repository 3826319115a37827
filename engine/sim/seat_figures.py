"""The seats of a multi-player simulation, for any game: which bot plays
each seat, and how the seats fared: each seat's score spread, its wins
alone and its wins on a tie for first, and the winner's lead over the
runner-up (the winning margin).

A pack's report feeds :class:`SeatFigures` each game's scores in game order
and prints these figures beside its own, so every game seats its bots and
counts a tie, a spread and a margin the same way. Nothing here knows a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.errors import ConfigurationError
from engine.sim.intervals import Moments, mean_interval, wilson

# What the seat figures mean, for a report's ``definitions``.
DEFINITIONS: Final = {
    "sharedWins": "games the seat tied for the top score with another seat (each tied seat counts it; a shared win is not also a win)",
    "winPercent": "games the seat won, alone or shared",
    "stdev": "population standard deviation",
    "leadOverRunnerUp": "the winning margin: the top score less the second-highest (0 when the win is shared)",
    "winInterval": "the 95% Wilson interval of winPercent, over the games played (winPercent's count)",
    "meanScoreInterval": "the 95% Student's t interval of meanScore, over the games played",
    "sharedWinInterval": "the 95% Wilson interval of the share of games whose win was shared",
}
# What changes in them when seats play in sides (teams).
SIDE_DEFINITIONS: Final = {
    "sides": "the seats that play as one side (a team): a side's win is a win for each of its seats, and is shared only on a tie with another side",
    "leadOverRunnerUp": "the winning margin between sides: the top side's score less the second side's (0 when the win is shared)",
}


def seat_bots(bot: str, seats: Sequence[str] | None, players: object, known: Sequence[str], fewest: int) -> tuple[str, ...]:
    """The bot of each seat: ``bot`` in every one of ``players`` seats
    (``fewest`` if None), or one seat for each bot ``seats`` names (and then
    ``players``, if given, must be as many). ConfigurationError for an
    unknown bot or a count that disagrees; the game itself judges whether
    it seats that many."""
    names = (bot,) if seats is None else tuple(seats)
    for name in names:
        if name not in known:
            raise ConfigurationError(f"unknown bot {name!r}; bots: {', '.join(known)}")
    if seats is not None:
        if players is not None and players != len(names):
            raise ConfigurationError(f"{players!r} players need one bot for all of them or one for every seat, not {len(names)} bots")
        return names
    count = fewest if players is None else players
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise ConfigurationError(f"players must be a whole number, not {count!r}")
    return names * count


def mixed_seats(bots: Sequence[str]) -> tuple[str, ...] | None:
    """Each seat's bot where the seats are played by different bots (a seat
    table's bot column); None where one bot plays them all."""
    return tuple(bots) if len(set(bots)) > 1 else None


def bots_label(bots: Sequence[str]) -> str:
    """A report's ``bot``: the one bot's name, or every seat's, seat 0 first,
    joined by commas."""
    return bots[0] if mixed_seats(bots) is None else ",".join(bots)


def seating_words(bots: Sequence[str]) -> str:
    """The seats as a report's heading says them: "greedy bot in every seat",
    or "seat 0 greedy, seat 1 lookahead"."""
    if mixed_seats(bots) is None:
        return f"{bots[0]} bot in every seat"
    return ", ".join(f"seat {seat} {bot}" for seat, bot in enumerate(bots))


def mean(values: Sequence[int]) -> float:
    """The mean to one decimal (0 for no values)."""
    return round(math.fsum(values) / len(values), 1) if values else 0.0


def stdev(values: Sequence[int]) -> float:
    """The population standard deviation to one decimal (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    centre = math.fsum(values) / len(values)
    return round(math.sqrt(math.fsum((v - centre) ** 2 for v in values) / len(values)), 1)


def percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def text_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell: the first left-aligned, the rest right."""
    widths = [max(len(head[i]), *(len(r[i]) for r in rows)) if rows else len(head[i]) for i in range(len(head))]

    def fmt(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(cells)).rstrip()

    return [fmt(head), fmt(["-" * w for w in widths]), *(fmt(r) for r in rows)]


@dataclass
class SeatFigures:
    """Built empty for ``players`` seats, then fed each game's scores (``add``).

    A tie for the top score is counted apart from a win: each tied seat gets
    a shared win, and the game counts once in ``shared_games``; so the wins
    of all seats plus ``shared_games`` is the number of games.

    With ``sides`` (teams: each a tuple of seats, every seat in one), the
    contest is between sides: every seat of a side holds the side's score,
    a side that tops alone is a win for each of its seats, a win is shared
    only when two sides tie, and the margin is between the top two sides."""

    players: int
    sides: tuple[tuple[int, ...], ...] | None = None
    scores: list[list[int]] = field(default_factory=list)  # per seat, a score a game
    wins: list[int] = field(default_factory=list)  # per seat: games won alone
    shared_wins: list[int] = field(default_factory=list)  # per seat: games won on a tie for first
    shared_games: int = 0  # games whose win was shared
    winning_scores: list[int] = field(default_factory=list)
    leads: list[int] = field(default_factory=list)  # the winner's lead over the runner-up, a game

    def __post_init__(self) -> None:
        self.scores = self.scores or [[] for _ in range(self.players)]
        self.wins = self.wins or [0] * self.players
        self.shared_wins = self.shared_wins or [0] * self.players
        if self.sides is not None and sorted(seat for side in self.sides for seat in side) != list(range(self.players)):
            raise ValueError(f"sides {self.sides} must hold each of the {self.players} seats once")

    def _sides(self) -> tuple[tuple[int, ...], ...]:
        return self.sides if self.sides is not None else tuple((seat,) for seat in range(self.players))

    @property
    def games(self) -> int:
        return len(self.winning_scores)

    def add(self, scores: Sequence[int]) -> None:
        if len(scores) != self.players:
            raise ValueError(f"{self.players} seats need {self.players} scores, not {len(scores)}")
        sides = self._sides()
        side_scores = []
        for side in sides:
            if len({scores[seat] for seat in side}) != 1:
                raise ValueError(f"the seats of side {side} must hold the side's score, not {[scores[seat] for seat in side]}")
            side_scores.append(scores[side[0]])
        top = max(side_scores)
        winners = [side for side, score in zip(sides, side_scores) if score == top]
        for seat, score in enumerate(scores):
            self.scores[seat].append(score)
        if len(winners) == 1:
            for seat in winners[0]:
                self.wins[seat] += 1
        else:
            self.shared_games += 1
            for side in winners:
                for seat in side:
                    self.shared_wins[seat] += 1
        ordered = sorted(side_scores, reverse=True)
        self.winning_scores.append(top)
        self.leads.append(ordered[0] - ordered[1] if len(ordered) > 1 else 0)

    def to_dict(self, bots: Sequence[str] | None = None) -> dict[str, Any]:
        """The figures as plain data (``bots``, if given, names each seat's bot)."""
        seats = []
        for seat, scores in enumerate(self.scores):
            row: dict[str, Any] = {
                "seat": seat,
                "meanScore": mean(scores),
                "stdevScore": stdev(scores),
                "minScore": min(scores, default=0),
                "maxScore": max(scores, default=0),
                "wins": self.wins[seat],
                "sharedWins": self.shared_wins[seat],
                "winPercent": percent(self.wins[seat] + self.shared_wins[seat], self.games),
                "winInterval": [round(100 * bound, 1) for bound in wilson(self.wins[seat] + self.shared_wins[seat], self.games).rounded()],
                "meanScoreInterval": [round(bound, 1) for bound in mean_interval(Moments.of(scores)).rounded()],
            }
            if bots is not None:
                row["bot"] = bots[seat]
            seats.append(row)
        sides = {} if self.sides is None else {"sides": [list(side) for side in self.sides]}
        return {
            "seats": seats,
            **sides,
            "sharedWinGames": self.shared_games,
            "sharedWinInterval": [round(100 * bound, 1) for bound in wilson(self.shared_games, self.games).rounded()],
            "winningScore": {"mean": mean(self.winning_scores), "stdev": stdev(self.winning_scores)},
            "leadOverRunnerUp": {"mean": mean(self.leads), "stdev": stdev(self.leads)},
        }

    def text_lines(self, bots: Sequence[str] | None = None) -> list[str]:
        """The seat table, then how often a win was shared, the winning score and the margin."""
        data = self.to_dict(bots)
        head = ("seat", *(("bot",) if bots is not None else ()), "mean (95% interval)", "stdev", "min", "max", "wins", "shared", "games", "won % (95% interval)")
        rows = [
            (
                str(s["seat"]),
                *((s["bot"],) if bots is not None else ()),
                f"{s['meanScore']:.1f} ({s['meanScoreInterval'][0]:.1f}\N{EN DASH}{s['meanScoreInterval'][1]:.1f})",
                f"{s['stdevScore']:.1f}",
                str(s["minScore"]),
                str(s["maxScore"]),
                str(s["wins"]),
                str(s["sharedWins"]),
                str(self.games),
                f"{s['winPercent']:.1f} ({s['winInterval'][0]:.1f}\N{EN DASH}{s['winInterval'][1]:.1f})",
            )
            for s in data["seats"]
        ]
        win, lead = data["winningScore"], data["leadOverRunnerUp"]
        shared = f"({percent(self.shared_games, self.games):.1f}%, 95% interval {data['sharedWinInterval'][0]:.1f}\N{EN DASH}{data['sharedWinInterval'][1]:.1f}%)"
        if self.sides is None:
            return [
                *text_table(head, rows),
                f"wins shared by a tie: {self.shared_games} of {self.games} games {shared}",
                f"winning score: mean {win['mean']:.1f}, stdev {win['stdev']:.1f}; lead over the runner-up: mean {lead['mean']:.1f}, stdev {lead['stdev']:.1f}",
            ]
        sides = "; ".join(" and ".join(f"seat {seat}" for seat in side) for side in self.sides)
        return [
            f"sides: {sides} (each seat holds its side's score; a side's win is a win for every seat of it)",
            *text_table(head, rows),
            f"wins shared by a tie between sides: {self.shared_games} of {self.games} games {shared}",
            f"winning side's score: mean {win['mean']:.1f}, stdev {win['stdev']:.1f}; lead over the runner-up side: mean {lead['mean']:.1f}, stdev {lead['stdev']:.1f}",
        ]
