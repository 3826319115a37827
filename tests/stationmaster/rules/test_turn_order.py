"""The order of play at a table of several, as the Engine decisions page
reads it ("The order of play with rivals"): turns in seat order from player
0 every Stage, one Mainline Phase after the last seat, and an attack's
targets asked from the attacker's left."""

from __future__ import annotations

import pytest

from engine.stationmaster.rules.actions import EndTurn
from engine.stationmaster.rules.targets import rivals
from tests.kit.stationmaster import rivals_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turns_go_round_in_seat_order_and_player_0_leads_every_stage(players: int) -> None:
    game = rivals_game(players=players)
    for _ in range(3):
        stage = (game.state.day, game.state.stage)
        trains = len(game.state.trains)
        for seat in range(players):
            assert game.to_act == seat
            assert (game.state.day, game.state.stage) == stage, "the Mainline Phase ran before the last seat ended its turn"
            assert len(game.state.trains) == trains
            game.apply(EndTurn(seat))
        assert (game.state.day, game.state.stage) != stage
        assert game.to_act == 0


def test_an_attacks_targets_are_asked_from_the_attackers_left() -> None:
    game = rivals_game(players=4)
    assert rivals(game, 0) == [1, 2, 3]
    assert rivals(game, 2) == [3, 0, 1]
