"""What a Station Master simulation reports: per-card draw, play and
dead-draw figures, and the spread of scores, actions and turns, as text or
JSON (see ``engine.stationmaster.sim.runner`` for what each count means). With
rivals it also reports each seat's score spread and wins, the winning
margin (``engine.sim.seat_figures``), and how often each attack was played and
answered; a solitaire report prints none of that, and reads as it always has.

A *dead draw* is a draw that was never played: the copy was discarded, or
still held when the game ended. ``dead = discarded + held at end``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from engine.sim.intervals import Moments, mean_interval, wilson
from engine.sim.pool import SEED_STRIDE
from engine.sim.seat_figures import DEFINITIONS as SEAT_DEFINITIONS
from engine.sim.seat_figures import SeatFigures, mixed_seats, percent, seating_words, text_table
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.houserules import HouseRuleValue
from engine.stationmaster.sim.runner import ANSWERED_WITH, ATTACK_WIDTH, ATTACKED, TALLY_WIDTH, Tally

HISTOGRAM_BINS: Final = 20


@dataclass(frozen=True)
class CardStats:
    """One card id's events over every game of a simulation (``engine.stationmaster.sim.runner``
    says what each counts)."""

    id: str
    name: str
    opening: int = 0
    deck: int = 0
    department: int = 0
    other: int = 0
    played: int = 0
    discarded: int = 0
    held_at_end: int = 0

    @property
    def drawn(self) -> int:
        return self.opening + self.deck + self.department + self.other

    @property
    def dead(self) -> int:
        """Draws never played: discarded, or still held when the game ended."""
        return self.discarded + self.held_at_end

    def dead_percent(self) -> int | None:
        """Dead draws as a whole percentage of draws (halves round up); None when never drawn."""
        if self.drawn == 0:
            return None
        return (200 * self.dead + self.drawn) // (2 * self.drawn)

    def to_dict(self, games: int) -> dict[str, Any]:
        drawn = self.drawn
        return {
            "name": self.name,
            "drawn": drawn,
            "drawnOpening": self.opening,
            "drawnDeck": self.deck,
            "drawnDepartment": self.department,
            "drawnOther": self.other,
            "played": self.played,
            "discarded": self.discarded,
            "heldAtEnd": self.held_at_end,
            "deadDraws": self.dead,
            "deadRate": round(self.dead / drawn, 4) if drawn else None,
            "deadRateInterval": wilson(self.dead, drawn).rounded() if drawn else None,
            "drawnPerGame": round(drawn / games, 4),
        }

    def dead_words(self) -> str:
        """``45% (38–52)``: the dead-draw rate and its 95% interval, for a table ("-" when never drawn)."""
        percent = self.dead_percent()
        if percent is None:
            return "-"
        found = wilson(self.dead, self.drawn)
        return f"{percent}% ({100 * found.low:.0f}\N{EN DASH}{100 * found.high:.0f})"


@dataclass(frozen=True)
class AttackStats:
    """An attack card over a simulation: how often it was played at a rival,
    and how often that attack was answered (by a held defence, or by an
    Enhancement standing in the district it was aimed at)."""

    id: str
    name: str
    played: int = 0
    answered: int = 0

    def to_dict(self, games: int) -> dict[str, Any]:
        return {
            "name": self.name,
            "played": self.played,
            "playedPerGame": round(self.played / games, 4),
            "answered": self.answered,
            "answeredPercent": percent(self.answered, self.played),
            "answeredInterval": [round(100 * bound, 1) for bound in wilson(self.answered, self.played).rounded()] if self.played else None,
        }


@dataclass(frozen=True)
class AnswerStats:
    """A card that answers attacks (a defence held in hand, or an Enhancement
    standing in a district): how often it did."""

    id: str
    name: str
    answered: int = 0


@dataclass(frozen=True)
class Distribution:
    values: tuple[int, ...]

    @property
    def minimum(self) -> int:
        return min(self.values)

    @property
    def maximum(self) -> int:
        return max(self.values)

    @property
    def median(self) -> float:
        ordered = sorted(self.values)
        middle = len(ordered) // 2
        return float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2

    @property
    def mean(self) -> float:
        return round(math.fsum(self.values) / len(self.values), 4)

    def mean_interval(self) -> tuple[float, float]:
        """The mean's 95% Student's t interval."""
        low, high = mean_interval(Moments.of(self.values)).rounded()
        return low, high

    def histogram(self) -> list[tuple[int, int, int]]:
        """(from, to, games) bins of whole numbers, at most 20, from the minimum up."""
        low, high = self.minimum, self.maximum
        width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
        counts = Counter((v - low) // width for v in self.values)
        return [(low + b * width, low + b * width + width - 1, counts.get(b, 0)) for b in range((high - low) // width + 1)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "min": self.minimum,
            "median": self.median,
            "mean": self.mean,
            "meanInterval": list(self.mean_interval()),
            "count": len(self.values),
            "max": self.maximum,
            "histogram": [{"from": a, "to": b, "games": n} for a, b, n in self.histogram()],
        }


@dataclass(frozen=True)
class Report:
    games: int
    seed: int
    bot: str
    house_rules: dict[str, HouseRuleValue]
    scores: Distribution
    actions: Distribution
    turns: Distribution
    cards: dict[str, CardStats] = field(default_factory=dict)
    # With rivals: the bot in each seat, how the seats fared, and the attacks.
    seats: tuple[str, ...] = ()
    seat_figures: SeatFigures | None = None
    attacks: dict[str, AttackStats] = field(default_factory=dict)
    answers: dict[str, AnswerStats] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return max(1, len(self.seats))

    def score_values(self) -> tuple[int, ...]:
        """Every seat's score of every game, game by game, seat 0 first."""
        return self.scores.values

    def first_seats(self) -> tuple[int, ...]:
        """Seat 0 takes the first turn of every game."""
        return (0,) * self.games

    @classmethod
    def build(
        cls,
        catalog: Catalog,
        *,
        games: int,
        seed: int,
        bot: str,
        house_rules: Mapping[str, HouseRuleValue],
        scores: Sequence[int],
        actions: Sequence[int],
        turns: Sequence[int],
        tally: Tally,
        seats: Sequence[str] = (),
        seat_scores: Sequence[Sequence[int]] = (),
        attacks: Tally | None = None,
    ) -> Report:
        """``scores`` holds every seat's score of every game; ``seats`` names
        each seat's bot, and with more than one seat ``seat_scores`` holds
        each game's scores by seat and ``attacks`` is the attack tally."""
        from engine.stationmaster.rules.deck import home_deck
        from engine.stationmaster.rules.lookups import answers_of

        players = max(1, len(seats))
        names = {c.id: c.name for c in catalog.cards}
        dealt = home_deck(catalog, house_rules, players)
        # Every card the deck deals is listed, drawn or not, in content order.
        ids = [c.id for c in dealt]
        ids += sorted(set(tally) - set(ids))
        cards: dict[str, CardStats] = {}
        for card_id in dict.fromkeys(ids):
            row = tally.get(card_id, [0] * TALLY_WIDTH)
            cards[card_id] = CardStats(card_id, names.get(card_id, card_id), *row)
        report = cls(games, seed, bot, dict(house_rules), Distribution(tuple(scores)), Distribution(tuple(actions)), Distribution(tuple(turns)), cards)
        if players == 1:
            return report
        figures = SeatFigures(players)
        for game_scores in seat_scores:
            figures.add(game_scores)
        tallied = attacks or {}
        # Every attack card dealt, played or not; every card that may answer one.
        attackers = dict.fromkeys([c.id for c in dealt if getattr(c, "attacks", None) is not None] + sorted(k for k, row in tallied.items() if row[ATTACKED]))
        answerers = dict.fromkeys([c.id for c in catalog.cards if answers_of(c) and c.count > 0] + sorted(k for k, row in tallied.items() if row[ANSWERED_WITH]))
        return replace(
            report,
            seats=tuple(seats),
            seat_figures=figures,
            attacks={k: AttackStats(k, names.get(k, k), *tallied.get(k, [0] * ATTACK_WIDTH)[:ANSWERED_WITH]) for k in attackers},
            answers={k: AnswerStats(k, names.get(k, k), tallied.get(k, [0] * ATTACK_WIDTH)[ANSWERED_WITH]) for k in answerers},
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": "stationmaster-simulation/1",
            "games": self.games,
            "seed": self.seed,
            "gameSeeds": f"game i (from 0) uses seed {self.seed} * {SEED_STRIDE} + i",
            "bot": self.bot,
            "players": self.players,
            "houseRules": dict(self.house_rules),
            "score": self.scores.to_dict(),
            "actions": self.actions.to_dict(),
            "turns": self.turns.to_dict(),
            "cards": {card_id: stats.to_dict(self.games) for card_id, stats in self.cards.items()},
            "definitions": {
                "drawn": "copies entering a hand: opening deal, Draw from the deck or a Department",
                "played": "copies leaving a hand by a Play (or spent, like a Maneuver)",
                "discarded": "copies leaving a hand by a Discard",
                "heldAtEnd": "copies still in a hand when the game ended",
                "deadDraws": "draws never played: discarded + heldAtEnd (drawn = played + discarded + heldAtEnd)",
                "deadRate": "deadDraws / drawn",
                "deadRateInterval": "the 95% Wilson interval of deadRate, counting each draw as a trial (draws within a game are not quite independent, so it is somewhat too narrow)",
                "meanInterval": "the 95% Student's t interval of a mean, over count values",
            },
        }
        if self.seat_figures is not None:
            data.update(self.seat_figures.to_dict(mixed_seats(self.seats)))
            data["attacks"] = {card_id: stats.to_dict(self.games) for card_id, stats in self.attacks.items()}
            data["answers"] = {card_id: {"name": stats.name, "answered": stats.answered} for card_id, stats in self.answers.items()}
            data["definitions"].update(SEAT_DEFINITIONS)
            data["definitions"].update(
                {
                    "score": "every seat's final score, each game counted once per seat",
                    "drawn": "copies entering any hand: opening deal, Draw from the deck or a Department",
                    "attacks": "each attack card: how often it was played at a rival, and how often that attack was answered (by a held defence or an Enhancement standing in the district it was aimed at)",
                    "answers": "each card that may answer an attack: how often it did",
                }
            )
        return data

    def to_json(self) -> str:
        import json

        return json.dumps(self.to_dict(), sort_keys=True, indent=2, ensure_ascii=False)

    def sorted_cards(self) -> list[CardStats]:
        """Cards by dead-draw rate, highest first; then most drawn; never-drawn cards last."""
        return sorted(self.cards.values(), key=lambda c: (c.drawn == 0, -(c.dead / c.drawn if c.drawn else 0.0), -c.drawn, c.id))

    def to_text(self) -> str:
        rules = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(self.house_rules.items()))
        if self.seat_figures is None:
            table = f"{self.games} solitaire game(s), {self.bot} bot"
        else:
            table = f"{self.games} game(s) of {self.players} players, {seating_words(self.seats)}"
        lines = [
            f"Station Master simulation: {table}, seed {self.seed} (game i uses seed {self.seed} * {SEED_STRIDE} + i)",
            f"house rules: {rules}",
            "",
        ]
        if self.seat_figures is not None:
            lines += ["scores by seat (seat 0 takes the first turn; a tie for first is a shared win, not a win)"]
            lines += self.seat_figures.text_lines(mixed_seats(self.seats))
            lines += ["", *self._attack_lines(), ""]
        for label, dist in (("score", self.scores), ("actions", self.actions), ("turns", self.turns)):
            low, high = dist.mean_interval()
            lines.append(
                f"{label:<8} min {dist.minimum:>5}  median {dist.median:>8.1f}  mean {dist.mean:>9.2f} (95% interval {low:.2f}\N{EN DASH}{high:.2f}, n={len(dist.values)})  max {dist.maximum:>5}"
            )
        lines += ["", "score histogram (games per score):" if self.seat_figures is None else "score histogram (seats per score, every seat of every game):"]
        hist = self.scores.histogram()
        peak = max(n for _, _, n in hist)
        labels = [str(a) if a == b else f"{a}-{b}" for a, b, _ in hist]
        width = max(len(x) for x in labels)
        for label, (_, _, n) in zip(labels, hist):
            bar = "#" * (round(40 * n / peak) if peak else 0)
            lines.append(f"  {label:>{width}} | {bar} {n}")
        lines += [
            "",
            "cards (a dead draw is a draw never played: discarded, or still in hand at the end; dead % = dead / drawn, with its 95% Wilson interval over the draws)",
        ]
        head = ("card", "drawn", "per game", "opening", "deck", "dept", "played", "discarded", "held", "dead % (95%)")
        rows = []
        for c in self.sorted_cards():
            rows.append(
                (
                    c.name,
                    str(c.drawn),
                    f"{c.drawn / self.games:.2f}",
                    str(c.opening),
                    str(c.deck + c.other),
                    str(c.department),
                    str(c.played),
                    str(c.discarded),
                    str(c.held_at_end),
                    c.dead_words(),
                )
            )
        lines += text_table(head, rows)
        return "\n".join(lines)

    def _attack_lines(self) -> list[str]:
        head = ("attack", "played", "per game", "answered", "answered % (95%)")
        rows = [(a.name, str(a.played), f"{a.played / self.games:.2f}", str(a.answered), _answered_words(a)) for a in self.attacks.values()]
        lines = ["attacks played at a rival, and answered (by a held defence, or an Enhancement standing where it was aimed)", *text_table(head, rows)]
        lines += ["", *text_table(("answer", "answered"), [(a.name, str(a.answered)) for a in self.answers.values()])]
        return lines


def _answered_words(attack: AttackStats) -> str:
    if not attack.played:
        return "-"
    found = wilson(attack.answered, attack.played)
    return f"{percent(attack.answered, attack.played):.1f} ({100 * found.low:.1f}\N{EN DASH}{100 * found.high:.1f})"
