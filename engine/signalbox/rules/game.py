"""One game of Signal Box: the seats take one or two lamps in turn until
the pile is empty; each seat scores the lamps it took."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from engine.rng import SeededStream
from engine.signalbox.content.model import Catalog


@dataclass(frozen=True)
class Take:
    """The seat to act takes ``lamps`` lamps from the pile."""

    lamps: int


class Game:
    def __init__(self, catalog: Catalog, players: int, seed: int) -> None:
        self.catalog = catalog
        self.players = players
        self.seed = seed
        self.pile = catalog.pile
        self.held = [0] * players
        self.to_act = 0
        self.taken: list[int] = []
        self.bot = SeededStream(seed, "bot")

    def check(self, action: Take) -> list[str]:
        """Every reason ``action`` is refused (none: it is legal)."""
        reasons = []
        if self.is_over():
            reasons.append("the pile is empty")
        if action.lamps not in (1, 2):
            reasons.append("take one or two lamps")
        elif action.lamps > self.pile:
            reasons.append(f"only {self.pile} lamp(s) left")
        return reasons

    def legal_actions(self) -> Sequence[Take]:
        return [action for action in (Take(1), Take(2)) if not self.check(action)]

    def apply(self, action: Take) -> None:
        reasons = self.check(action)
        if reasons:
            from engine.errors import InvalidActionError

            raise InvalidActionError("; ".join(reasons))
        self.pile -= action.lamps
        self.held[self.to_act] += action.lamps
        self.taken.append(action.lamps)
        self.to_act = (self.to_act + 1) % self.players

    def is_over(self) -> bool:
        return self.pile == 0

    def score(self) -> list[int]:
        return list(self.held)

    def dumps(self) -> str:
        return json.dumps({"game": "signalbox", "players": self.players, "seed": self.seed, "actions": self.taken, "content": self.catalog.fingerprint}, sort_keys=True)
