"""What a rule or an effect handler may read of a game: ``RulesContext``.

The rules of a trick and the card effects are called by ``Game`` with the
game itself; annotated against the whole ``Game`` class, each of them
imported ``game.py`` (for the type alone) while ``game.py`` imports them.
They are annotated against this Protocol instead, which says what a rule
may touch: the state, the catalog, the house rules, the log, and the card
order and scores the game works out. ``Game`` offers all of it; nothing here
imports a rule.
"""

from __future__ import annotations

from typing import Protocol

from engine.pack import RulesContextBase
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.state import GameState


class RulesContext(RulesContextBase[Catalog, GameState], Protocol):
    """A game as its rules and effect handlers see it: the shared catalog,
    state and house rules, and what follows."""

    def log(self, text: str) -> None:
        """Add a line to the game's log."""
        ...

    def order(self, card_id: str) -> tuple[int, int]:
        """A card's place in the catalog's order (company, then number): a sort key."""
        ...

    def score(self) -> list[int]:
        """Each player's score as things stand."""
        ...
