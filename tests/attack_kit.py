"""Helpers for the opponent-directed cards' tests (tests/test_effect_*.py of
the attacks and defences, tests/test_response_window.py): a game with
rivals at player 0's turn, a card put into a hand, a Facility laid in a
rival's district, an attack played and its window run.

Every card is taken from where the deal left it, so ``Game.census()`` still
equals the dealt deck.
"""

from __future__ import annotations

from engine.effects.registry import trace
from engine.stationmaster.rules.actions import Action, Attack, Decline
from engine.stationmaster.content.model import Catalog, OpponentCard
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Square
from test_district_kit import CATALOG, dealt, give, lay, new_game, office_slot

__all__ = ["CATALOG", "attack", "dealt", "facility", "give", "office_slot", "rivals_game", "run", "terrain_slot"]


def rivals_game(catalog: Catalog = CATALOG, *, players: int = 2, seed: int = 11, **house: str | bool) -> Game:
    """A game with rivals at player 0's first turn; every terrain card is
    Plains, and no hand holds an opponent-directed card (a test gives them)."""
    game = new_game(catalog, players=players, seed=seed, **house)
    s = game.state
    for p, hand in enumerate(s.hands):
        for card_id in [c for c in hand if c in _opponent_ids(game)]:
            hand.remove(card_id)
            s.deck.insert(0, card_id)
        while len(hand) < catalog.game.table.hand_limit:
            hand.append(next(c for c in reversed(s.deck) if c not in _opponent_ids(game)))
            s.deck.remove(hand[-1])
    assert game.census() == dealt(game)
    return game


def _opponent_ids(game: Game) -> set[str]:
    return {c.id for c in game.catalog.of_type(OpponentCard)}


def facility(game: Game, player: int, x: int, y: int, card_id: str) -> Square:
    """A Facility laid straight onto a rival's square (no rules judged)."""
    return lay(game, x, y, card_id, player=player)


def terrain_slot(game: Game) -> int:
    """The first Mainline terrain position east of player 0's Office."""
    return next(i for i, slot in enumerate(game.state.mainline) if slot.kind == "terrain" and i > office_slot(game, 0))


def run(game: Game, action: Action) -> list[str]:
    """Apply ``action`` (it must be legal) and return the handlers that ran."""
    assert game.check(action) == [], game.check(action)
    with trace() as ran:
        game.apply(action)
    return ran


def attack(game: Game, action: Attack) -> list[str]:
    """Play the attack, then let every player it waits on decline: the
    handlers that ran, from the play to the attack's resolving."""
    ran = run(game, action)
    while game.state.attack is not None and game.state.attack.waiting:
        ran += run(game, Decline(game.state.attack.waiting[0]))
    return ran
