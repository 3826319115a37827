"""``Game.determinized`` (engine/trickoftherails/rules/game.py): the hands the
player to act cannot see dealt afresh, agreeing with everything shown,
voids included; everything else as it was."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rng import SeededStream
from engine.trickoftherails.rules.actions import Play
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.hidden import deal
from tests.kit.trickoftherails import CATALOG
from tests.kit.walk import random_walk


def _failed_to_follow(game: Game) -> dict[int, set[str]]:
    """Worked out again here, trick by trick from the log of plays."""
    company = CATALOG.company_of
    out: dict[int, set[str]] = {p: set() for p in range(game.state.players)}
    plays = [a for a in game.history if isinstance(a, Play)]
    n = game.state.players
    for i, play in enumerate(plays):
        lead = plays[i - i % n]
        if company[play.card] != company[lead.card]:
            out[play.player].add(company[lead.card] or "")
    return out


@settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([3, 4, 5]), steps=st.integers(0, 80), deal_seed=st.integers(0, 2**32))
def test_a_determinized_game_agrees_with_all_the_player_to_act_sees(seed: int, players: int, steps: int, deal_seed: int) -> None:
    game = random_walk(Game(CATALOG, players, seed), steps)
    before = game.state_json()
    twin = game.determinized(SeededStream(deal_seed))
    assert game.state_json() == before, "the game itself is untouched"
    me = game.to_act
    s, t = game.state, twin.state
    public = {k: v for k, v in s.to_json().items() if k != "hands"}
    assert {k: v for k, v in t.to_json().items() if k != "hands"} == public
    assert twin.history == game.history
    if me is None:
        assert t.hands == s.hands
        return
    assert t.hands[me] == s.hands[me]
    others = [p for p in range(players) if p != me]
    assert [len(t.hands[p]) for p in others] == [len(s.hands[p]) for p in others]
    assert Counter(c for p in others for c in t.hands[p]) == Counter(c for p in others for c in s.hands[p])
    voids = _failed_to_follow(game)
    for p in others:
        assert not {CATALOG.company_of[c] for c in t.hands[p]} & voids[p], f"player {p} dealt a company they did not follow"
        assert t.hands[p] == sorted(t.hands[p], key=game.order)
    assert twin.legal_actions() == game.legal_actions()
    while not twin.is_over():  # the copy plays on to its end under the rules
        action = twin.random_legal_action()
        assert action is not None
        twin.apply(action)
    assert game.state_json() == before


def test_the_same_stream_deals_the_same_hands() -> None:
    game = Game(CATALOG, 4, 3)
    for _ in range(9):
        action = game.random_legal_action()
        assert action is not None
        game.apply(action)
    one, two = game.determinized(SeededStream(5)), game.determinized(SeededStream(5))
    assert one.state_json() == two.state_json()
    assert one.determinized(SeededStream(6)).state_json() != one.state_json() or len(game.state.hands[0]) <= 1


def test_a_deal_that_cannot_keep_the_voids_is_refused() -> None:
    card = next(c for c in CATALOG.railway_cards)
    company = CATALOG.company_of[card.id] or ""
    try:
        deal(CATALOG, [card.id], {1: 1}, {1: frozenset({company})}, SeededStream(0))
    except ValueError as error:
        assert "void" in str(error)
    else:
        raise AssertionError("a deal against a void was made")


@settings(max_examples=60, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**32), voided=st.lists(st.sets(st.integers(0, 4), max_size=3), min_size=4, max_size=4))
def test_the_deal_keeps_tight_voids_whenever_a_deal_exists(seed: int, voided: list[set[int]]) -> None:
    """Hands built to respect the voids first, so a deal exists; the fresh
    deal must find one however tight they are."""
    stream = SeededStream(seed)
    names = sorted({c.company or "" for c in CATALOG.railway_cards})
    void = {p + 1: frozenset(names[i] for i in v) for p, v in enumerate(voided)}
    pool = sorted(c.id for c in CATALOG.railway_cards)
    stream.shuffle(pool)
    hands: dict[int, list[str]] = {p: [] for p in void}
    for card in pool:
        open_ = [p for p in void if CATALOG.company_of[card] not in void[p] and len(hands[p]) < 6]
        if open_:
            hands[open_[0]].append(card)
    cards = [c for h in hands.values() for c in h]
    dealt = deal(CATALOG, cards, {p: len(h) for p, h in hands.items()}, void, stream)
    assert Counter(c for h in dealt.values() for c in h) == Counter(cards)
    for p, hand in dealt.items():
        assert len(hand) == len(hands[p])
        assert not {CATALOG.company_of[c] for c in hand} & void[p]
