"""Everything a game of Trick of the Rails holds, public and hidden, as plain
data that serialises to JSON (a replay check compares it)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Phase = Literal["play", "place", "over"]


@dataclass
class Trick:
    """The trick on the table: who led, and each card played, in order."""

    leader: int
    plays: list[tuple[int, str]] = field(default_factory=list)
    winner: int | None = None

    def card_of(self, player: int) -> str:
        return next(card for who, card in self.plays if who == player)

    def copy(self) -> Trick:
        return Trick(self.leader, list(self.plays), self.winner)


@dataclass
class Pending:
    """A placement an operating trick still needs: ``what`` is ``city``,
    ``locomotive`` (for ``card``) or ``lay`` (the card ``player`` played)."""

    player: int
    card: str
    what: Literal["city", "locomotive", "lay"]


@dataclass
class GameState:
    players: int
    hands: list[list[str]] = field(default_factory=list)
    railways: dict[str, list[str]] = field(default_factory=dict)  # company -> card ids, left to right
    locomotives: dict[str, str] = field(default_factory=dict)  # company -> locomotive card id
    lane: list[str] = field(default_factory=list)  # left to right; the leftmost decides the next trick
    shares: list[list[str]] = field(default_factory=list)  # each player's shares, in the order won
    removed: list[str] = field(default_factory=list)  # out of the game, in the order they went
    trick: Trick = field(default_factory=lambda: Trick(0))
    last_trick: Trick | None = None  # the trick just resolved, for players to look back at
    pending: list[Pending] = field(default_factory=list)
    phase: Phase = "play"
    tricks_played: int = 0
    log: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def copy(self) -> GameState:
        """An independent copy, field by field: a bot's lookahead copies the
        game thousands of times a game, and ``copy.deepcopy`` spent a fifth
        of a greedy game walking these lists. The trick just resolved stays
        the trick on the table when the game has ended, as it was."""
        trick = self.trick.copy()
        last = trick if self.last_trick is self.trick else (None if self.last_trick is None else self.last_trick.copy())
        return GameState(
            players=self.players,
            hands=[list(hand) for hand in self.hands],
            railways={company: list(cards) for company, cards in self.railways.items()},
            locomotives=dict(self.locomotives),
            lane=list(self.lane),
            shares=[list(held) for held in self.shares],
            removed=list(self.removed),
            trick=trick,
            last_trick=last,
            pending=[Pending(p.player, p.card, p.what) for p in self.pending],
            phase=self.phase,
            tricks_played=self.tricks_played,
            log=list(self.log),
        )
