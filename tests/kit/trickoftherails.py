"""The game-building kit of Trick of the Rails' tests: the shipped catalog,
loaded once, cards named as the rules page names them, and a game set at a
chosen trick. tests/trickoftherails/conftest.py hands the catalog out as a
fixture."""

from __future__ import annotations

from engine.trickoftherails import load_catalog
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.state import Trick
from tests.kit.project import PROJECT_ROOT

CONTENT = PROJECT_ROOT / "content" / "trickoftherails"
CATALOG = load_catalog(CONTENT)
NAME_TO_ID = {c.name: c.id for c in CATALOG.cards}


def ids(*names: str) -> list[str]:
    """Card ids from the names the rules page uses ("B&O 2", "New York")."""
    return [NAME_TO_ID[n] for n in names]


def game_at(players: int, lane: list[str], hands: dict[int, list[str]], leader: int) -> Game:
    """A game (seed 1) whose lane and hands are set as given, with a trick
    about to be led by ``leader``: the position of a worked example."""
    game = Game(CATALOG, players, seed=1)
    s = game.state
    s.lane = lane
    for p, hand in hands.items():
        s.hands[p] = hand
    s.trick = Trick(leader)
    return game
