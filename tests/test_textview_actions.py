"""The terminal game says every kind of action in words, never as the raw
dataclass (``flyingSwitch(player=0, ...)``)."""

from __future__ import annotations

import pytest

from engine.stationmaster.actions import ACTION_TYPES, Action
from engine.stationmaster.textview import describe_action
from engine_kit import new_game


@pytest.mark.parametrize("kind", sorted(ACTION_TYPES))
def test_every_action_kind_is_described_in_words(kind: str) -> None:
    game = new_game(seed=3)
    action: Action = ACTION_TYPES[kind](0)
    text = describe_action(game, action)
    assert text != str(action) and not text.startswith(f"{kind}("), text


def test_a_flying_switch_names_the_train_and_the_square() -> None:
    from engine.stationmaster.actions import FlyingSwitch

    game = new_game(seed=3)
    text = describe_action(game, FlyingSwitch(0, train="t", x=-1, y=1))
    assert text.startswith("Flying Switch:") and "(-1, 1)" in text
