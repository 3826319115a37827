"""The shared search (engine/search/ismcts.py), on a toy game that names no
pack: a race to five, each turn adding one or two, where the search must
find the move that wins; and the sums it turns scores into."""

from __future__ import annotations

import pytest

from engine.rng import SeededStream
from engine.search.ismcts import Budget, Guide, choose, value_of_margins, win_shares


class Race:
    """Two players add 1 or 2 to a running total in turn; whoever makes it
    exactly five wins (no move may pass five). Nothing is hidden, so a deal
    of the hidden cards is a plain copy."""

    def __init__(self, total: int, to_act: int = 0, seed: int = 0) -> None:
        self.total = total
        self.player = to_act
        self.bot = SeededStream(seed, "/bot")
        self.winner: int | None = None

    @property
    def to_act(self) -> int | None:
        return None if self.is_over() else self.player

    def legal_actions(self) -> list[int]:
        return [step for step in (1, 2) if self.total + step <= 5] if not self.is_over() else []

    def check(self, action: int) -> list[str]:
        return [] if action in self.legal_actions() else ["not a move now"]

    def apply(self, action: int) -> None:
        assert action in self.legal_actions()
        self.total += action
        if self.total == 5:
            self.winner = self.player
        self.player = 1 - self.player

    def is_over(self) -> bool:
        return self.winner is not None

    def score(self) -> list[int]:
        return [int(self.winner == p) for p in (0, 1)]

    def determinized(self, stream: SeededStream) -> Race:
        twin = Race(self.total, self.player)
        twin.bot = SeededStream(stream.below(2**62), "/bot")
        return twin


def _random(game: Race) -> int:
    legal = game.legal_actions()
    return legal[game.bot.below(len(legal))]


GUIDE: Guide[Race] = Guide(_random, horizon=100, value=lambda game: [0.5, 0.5])


@pytest.mark.parametrize(("total", "winning"), [(3, 2), (4, 1), (1, 1)])
def test_the_search_finds_the_winning_move(total: int, winning: int) -> None:
    """From 3, +2 wins at once; from 1, +1 leaves the rival at 2, a lost
    position (whatever they add, the next move reaches five)."""
    assert choose(Race(total), GUIDE, Budget(300)) == winning


def test_the_search_draws_only_from_the_games_bot_stream() -> None:
    one, two = Race(1, seed=5), Race(1, seed=5)
    assert choose(one, GUIDE, Budget(50)) == choose(two, GUIDE, Budget(50))
    assert one.bot._random.getstate() == two.bot._random.getstate()
    assert one.total == 1, "the search plays on copies only"


def test_a_shortlist_bounds_the_search_and_its_first_stands_when_the_deals_cannot_tell() -> None:
    flat: Guide[Race] = Guide(_random, horizon=0, value=lambda game: [0.5, 0.5], shortlist=lambda game: [2, 1])
    assert choose(Race(0), flat, Budget(40)) == 2
    only: Guide[Race] = Guide(_random, horizon=100, value=lambda game: [0.5, 0.5], shortlist=lambda game: [1])
    assert choose(Race(3), only, Budget(40)) == 1


def test_a_decision_the_guide_leaves_alone_is_the_playout_policys() -> None:
    guide: Guide[Race] = Guide(lambda game: 2, horizon=0, value=lambda game: [0.5, 0.5], searched=lambda game: False)
    assert choose(Race(1), guide, Budget(300)) == 2


def test_ties_share_the_win_and_margins_become_shares() -> None:
    assert win_shares([3, 5, 5]) == [0.0, 0.5, 0.5]
    shares = value_of_margins([0.0, 10.0], 5.0)
    assert abs(sum(shares) - 1) < 1e-12 and shares[1] > shares[0]
