"""The greedy bot's choice, made cheaply (engine/stationmaster/bots/greedy.py,
``choose``): it ranks only the proposals that may be of the best rank still
to try, walks on from a kept walk of the district to see what a laid card
adds, and keeps some answers between moves. None of that may change a pick
or a draw: it must take what ranking every proposal afresh takes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.stationmaster.bots import greedy as greedy_module
from engine.stationmaster.bots import greedy_bot, greedy_value, random_bot
from engine.stationmaster.bots.greedy import extra_loads, reach_gain
from engine.stationmaster.content.model import Facility, TrackShape
from engine.stationmaster.rules.actions import Action, Discard, Play
from engine.stationmaster.rules.district import placement_candidates
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.proposals import candidates, proposals
from engine.stationmaster.rules.state import Square
from tests.kit.stationmaster import CATALOG


def _played(seed: int, steps: int, players: int) -> Game:
    """A position of a game the greedy and random bots played by turns."""
    game = Game(CATALOG, players=players, seed=seed)
    for _ in range(steps):
        if game.is_over():
            break
        action = greedy_bot(game) if (len(game.history) // 4) % 2 else random_bot(game)
        assert action is not None
        game.apply(action)
    return game


def _reference_pick(game: Game) -> Action | None:
    """The greedy bot as it was first written: rank every proposal (nothing
    kept from earlier moves), then try the ranks from the best down."""
    game.bot_views.clear()
    ranked: dict[int, list[Action]] = {}
    discards: dict[str, int] = {}
    for action in candidates(game) + extra_loads(game):
        if isinstance(action, Discard):
            value = discards[action.card] if action.card in discards else discards.setdefault(action.card, greedy_value(game, action))
        else:
            value = greedy_value(game, action)
        ranked.setdefault(value, []).append(action)
    for value in sorted(ranked, reverse=True):
        chosen = game.first_legal(ranked[value], game.bot)
        if chosen is not None:
            return chosen
    return None


@settings(max_examples=25, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(1, 3), steps=st.integers(0, 200))
def test_the_greedy_bot_picks_what_ranking_every_proposal_picks(seed: int, players: int, steps: int) -> None:
    game = _played(seed, steps, players)
    if game.is_over():
        return
    ours, theirs = game.copy(), game.copy()  # ours keeps what the game kept
    assert greedy_bot(ours) == _reference_pick(theirs)
    assert ours.bot.below(2**30) == theirs.bot.below(2**30), "the same draws"


def _walked_again(game: Game, player: int, laid: Square, x: int, y: int, kick: bool) -> int:
    district = game.state.districts[player]
    squares = dict(district.squares)
    squares[key(x, y)] = laid
    after = greedy_module._frontier(game, squares, kick)
    before = greedy_module._frontier(game, district.squares, kick)
    return len(after[0]) + len(after[1]) - len(before[0]) - len(before[1])


def test_what_a_laid_card_adds_is_what_walking_the_district_again_finds() -> None:
    checked = 0
    for seed, steps in ((3, 60), (8, 120), (12, 180), (21, 240)):
        game = _played(seed, steps, 2)
        for player, district in enumerate(game.state.districts):
            for card in (c for c in CATALOG.cards if isinstance(c, (TrackShape, Facility))):
                for x, y, rotation in placement_candidates(game, player, card):
                    laid = Square(card.id, "facility" if isinstance(card, Facility) else "track", rotation)
                    for kick in (False, True):
                        assert greedy_module._laid_gain(game, district, laid, x, y, kick) == _walked_again(game, player, laid, x, y, kick), (card.id, x, y, rotation, kick)
                        checked += 1
                    assert isinstance(reach_gain(game, player, card, x, y, rotation), int)
    assert checked > 500


def test_a_run_of_proposals_that_starts_with_a_play_or_a_discard_is_one_cards() -> None:
    """What the bot's run ceilings stand on (``_run_ceiling``)."""
    for seed, steps, players in ((1, 30, 1), (6, 90, 2), (10, 150, 3)):
        game = _played(seed, steps, players)
        for _, count, make in proposals(game).runs():
            items = [make(k) for k in range(count)]
            first = items[0]
            if isinstance(first, (Play, Discard)):
                assert all(isinstance(item, type(first)) and item.card == first.card for item in items), items


def test_the_runs_of_a_pool_already_drawn_from_are_not_given() -> None:
    game = _played(2, 10, 1)
    pool = proposals(game)
    assert [make(k) for _, count, make in pool.runs() for k in range(count)] == pool.materialised()
    assert pool.first_legal(lambda action: True, game.bot.copy()) is None  # every one refused, and dropped
    with pytest.raises(ValueError, match="already drawn from"):
        list(pool.runs())
