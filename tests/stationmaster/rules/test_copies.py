"""What a search bot asks of a Station Master game many times a move: a copy
(``Game.copy``, ``Game.determinized``) that is the position over again and
shares nothing that can change, and ``legal_actions()`` kept for a position
until the next ``apply``."""

from __future__ import annotations

import copy
from dataclasses import fields, is_dataclass

import pytest

from engine.rng import SeededStream
from engine.stationmaster.bots import greedy_bot, random_bot
from engine.stationmaster.rules import dispatch as rules
from engine.stationmaster.rules.actions import Draw
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import CATALOG


def _played(seed: int, steps: int, players: int) -> Game:
    game = Game(CATALOG, players=players, seed=seed)
    for _ in range(steps):
        if game.is_over():
            break
        action = greedy_bot(game) if len(game.history) % 3 else random_bot(game)
        assert action is not None
        game.apply(action)
    return game


def _mutables(value: object, found: set[int]) -> set[int]:
    if isinstance(value, (list, dict, set)) or is_dataclass(value):
        found.add(id(value))
    if isinstance(value, (list, tuple)):
        for item in value:
            _mutables(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _mutables(item, found)
    elif is_dataclass(value):
        for f in fields(value):
            _mutables(getattr(value, f.name), found)
    return found


@pytest.fixture(scope="module")
def positions() -> list[Game]:
    """Mid-game positions of two- and three-player games (trains running,
    attacks played), and a finished game."""
    return [_played(5, 70, 2), _played(9, 140, 3), _played(2, 400, 2)]


def test_a_copy_of_the_state_is_deepcopys_and_shares_nothing_that_can_change(positions: list[Game]) -> None:
    for game in positions:
        twin = game.copy()
        assert twin.state == copy.deepcopy(game.state)
        assert twin.state_json() == game.state_json()
        assert not _mutables(game.state, set()) & _mutables(twin.state, set())


def test_a_copy_plays_on_as_its_game_does(positions: list[Game]) -> None:
    """Everything derived that a copy carries over (open ends, reach, kept
    proposals, the bot's views) holds for it: it plays the same game."""
    game = positions[0]
    twin, again = game.copy(), game.copy()
    again.bot_views.clear()
    for played in (twin, again):
        while not played.is_over():
            action = greedy_bot(played)
            assert action is not None
            played.apply(action)
    assert twin.history == again.history and twin.score() == again.score()
    assert len(game.history) == 70, "the game copied is as it was"


def test_legal_actions_are_kept_until_the_next_apply(positions: list[Game]) -> None:
    game = positions[0].copy()
    listed = game.legal_actions()
    assert listed == [a for a in rules.candidates(game) if not game.check(a)]
    listed.clear()  # the caller's own list
    again = game.legal_actions()
    assert again and again == game.legal_actions()
    game.apply(again[0])
    assert game.legal_actions() == [a for a in rules.candidates(game) if not game.check(a)]


def test_a_copy_carries_the_kept_legal_actions_and_a_determinized_copy_does_not(positions: list[Game]) -> None:
    game = positions[1].copy()
    listed = game.legal_actions()
    twin = game.copy()
    assert twin._legal is not None and twin._legal[0] is twin.state
    assert twin.legal_actions() == listed
    other = game.determinized(SeededStream(3))
    assert other._legal is None
    assert other.legal_actions() == [a for a in rules.candidates(other) if not other.check(a)]


def test_a_legal_action_kept_from_an_earlier_position_is_not_offered_again() -> None:
    game = Game(CATALOG, players=1, seed=4)
    draw = next(a for a in game.legal_actions() if a == Draw(0, "deck"))
    game.apply(draw)
    assert draw not in game.legal_actions()
