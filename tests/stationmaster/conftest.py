"""Station Master's fixtures, from its one game-building kit
(tests/kit/stationmaster.py): the shipped catalog, and a fresh solitaire
game at its first Local Operations turn (seed 11, every terrain card
Plains). A test that needs other players, another seed or house rules
builds its game with ``new_game`` itself."""

from __future__ import annotations

import pytest

from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import CATALOG, new_game


@pytest.fixture
def catalog() -> Catalog:
    """The shipped catalog, loaded once for the session by the kit."""
    return CATALOG


@pytest.fixture
def game() -> Game:
    """A solitaire game at the first Local Operations turn, every terrain card Plains."""
    return new_game(CATALOG)
