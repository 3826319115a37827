"""Trick of the Rails' bots: the greedy bot beats the random bot by a margin
that cannot be luck, sees only what its player may see, draws its chance
from the game's bot stream alone, and plays only legal actions; what the
bots know of hidden hands (``knowledge``) and the game copies they try
actions on."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from engine.trickoftherails.bots import BOT_FUNCTIONS, BOTS, SEARCH_RUNGS, Outlook, greedy_bot, random_bot
from engine.trickoftherails.bots.knowledge import knowledge, sample_hands
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.hidden import voids as shown_out
from engine.trickoftherails.sim.runner import play_game
from tests.kit.trickoftherails import CATALOG

GAMES = 200


def tail_probability(games: int, wins: int, chance: float) -> float:
    """The chance of at least ``wins`` wins in ``games`` games that each are
    won with ``chance`` (what luck alone would give)."""
    return sum(math.comb(games, k) * chance**k * (1 - chance) ** (games - k) for k in range(wins, games + 1))


@pytest.mark.sim  # hundreds of bot games
@pytest.mark.parametrize("players", [3, 4])
def test_greedy_beats_random_by_a_margin_that_cannot_be_luck(catalog: Catalog, players: int) -> None:
    """One greedy seat (a different seat each game, so no seat's edge
    counts) against random bots, 200 seeded games: an even player would win
    1 game in ``players``; the greedy bot wins far more, and outscores the
    others' average by far."""
    wins = 0
    lead = 0.0
    for i in range(GAMES):
        seat = i % players
        seats = ["greedy" if p == seat else "random" for p in range(players)]
        record = play_game(catalog, players, 7_000 + i, seats, {})
        scores = record.scores
        wins += scores[seat] == max(scores)
        lead += scores[seat] - (sum(scores) - scores[seat]) / (players - 1)
    chance = tail_probability(GAMES, wins, 1 / players)
    assert wins >= GAMES * (1.6 / players), f"greedy won {wins} of {GAMES} at {players} players"
    assert chance < 1e-9, f"{wins} wins of {GAMES} could be luck (p = {chance:.2g})"
    assert lead / GAMES > 40, f"greedy's mean lead over the others' average: {lead / GAMES:.1f}"


def _positions(players: int, seeds: range, every: int = 3) -> list[Game]:
    """Positions from games the random bot plays: every ``every``-th action."""
    found = []
    for seed in seeds:
        game = Game(CATALOG, players, seed)
        step = 0
        while not game.is_over():
            if step % every == 0:
                found.append(game.copy())
            game.apply(random_bot(game))
            step += 1
    return found


@pytest.mark.parametrize("players", [3, 5])
def test_greedy_never_reads_another_players_hand(players: int) -> None:
    """Deal the cards the bot's player cannot see out again among the
    others (the same number each): the bot, drawing from the same stream,
    chooses exactly as before."""
    for game in _positions(players, range(4)):
        me = game.to_act
        assert me is not None
        twin = game.copy()
        others = [p for p in range(players) if p != me]
        pool = [card for p in others for card in twin.state.hands[p]]
        twin.bot.shuffle(pool)  # the twin's own stream: the original's is untouched
        at = 0
        for p in others:
            size = len(twin.state.hands[p])
            twin.state.hands[p] = pool[at : at + size]
            at += size
        twin.bot = game.bot.copy()
        assert greedy_bot(twin) == greedy_bot(game.copy())


@pytest.mark.parametrize("bot", BOTS)
def test_bots_play_legal_actions_and_never_touch_the_rules_stream(catalog: Catalog, bot: str) -> None:
    # A search rung searches every decision: a few of them show it, at 3 players.
    counts, actions = ((3,), 8) if bot in SEARCH_RUNGS else ((3, 4, 5), 10**6)
    for players in counts:
        game = Game(catalog, players, 31 + players)
        while not game.is_over() and len(game.history) < actions:
            action = BOT_FUNCTIONS[bot](game)
            assert game.check(action) == []
            game.apply(action)
        twin = Game.loads(catalog, game.dumps())
        assert twin.state_json() == game.state_json()
        assert twin.rng._random.getstate() == game.rng._random.getstate()


def test_a_bots_game_is_a_function_of_its_seed(catalog: Catalog) -> None:
    first = play_game(catalog, 4, 99, ["greedy", "random", "greedy", "random"], {})
    again = play_game(catalog, 4, 99, ["greedy", "random", "greedy", "random"], {})
    assert first == again


def test_every_seat_needs_a_bot(catalog: Catalog) -> None:
    with pytest.raises(ValueError):
        play_game(catalog, 3, 1, ["greedy"], {})


# -- what a player knows -----------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_unseen_cards_are_exactly_the_other_hands(players: int) -> None:
    for game in _positions(players, range(3), every=5):
        me = game.to_act
        assert me is not None
        known = knowledge(game, me)
        others = [p for p in range(players) if p != me]
        assert Counter(known.unseen) == Counter(card for p in others for card in game.state.hands[p])
        assert dict(known.sizes) == {p: len(game.state.hands[p]) for p in others}


def test_a_void_is_known_once_a_player_does_not_follow(catalog: Catalog) -> None:
    seen_void = False
    for game in _positions(4, range(6), every=1):
        for p, companies in shown_out(catalog, 4, game.history).items():
            held = {catalog.by_id[c].company for c in game.state.hands[p]}
            assert not companies & held, "a player shown out of a company cannot hold it"
            seen_void = seen_void or bool(companies)
    assert seen_void


def test_a_sampled_deal_agrees_with_everything_public(catalog: Catalog) -> None:
    for game in _positions(3, range(3), every=4):
        me = game.to_act
        assert me is not None
        known = knowledge(game, me)
        hands = sample_hands(game, known, game.bot.copy())
        assert Counter(card for hand in hands.values() for card in hand) == Counter(known.unseen)
        for p, hand in hands.items():
            assert len(hand) == known.sizes[p]
            assert not {catalog.by_id[c].company for c in hand} & known.voids[p]


def test_the_outlook_counts_shares_against_the_others(catalog: Catalog) -> None:
    game = Game(catalog, 3, 5)
    while not any(game.state.shares):
        game.apply(random_bot(game))
    outlook = Outlook(game, 0)
    for p in range(3):
        assert sum(outlook.stake[p].values()) == pytest.approx(0.0)  # one share a trick for everyone
    assert set(outlook.worth) == set(game.state.railways)
    assert all(value >= catalog.share_floor for value in outlook.worth.values())


# -- the copies the bots try actions on ----------------------------------------------------


def test_a_copy_is_independent_of_its_game(catalog: Catalog) -> None:
    game = Game(catalog, 3, 8)
    for _ in range(10):
        game.apply(random_bot(game))
    before = game.state_json()
    twin = game.copy()
    assert twin.state_json() == before
    while not twin.is_over():
        twin.apply(random_bot(twin))
    assert game.state_json() == before and len(game.history) == 10
    # the copy's streams start where the game's stood
    fresh = game.copy()
    assert fresh.bot.below(10**9) == game.bot.copy().below(10**9)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_state_copy_is_a_deep_copy_at_every_point_of_a_game(catalog: Catalog, players: int) -> None:
    """``GameState.copy`` names every field itself (deepcopy was too slow):
    at every point of a game, including placements pending and the end, it
    equals a deep copy and shares no list, mapping or trick with the original."""
    from copy import deepcopy
    from dataclasses import fields

    game = Game(catalog, players, 11)
    while True:
        state = game.state
        twin = state.copy()
        assert twin.to_json() == deepcopy(state).to_json()
        for field in fields(state):
            value = getattr(state, field.name)
            if isinstance(value, (list, dict)) or (field.name == "trick"):
                assert getattr(twin, field.name) is not value, field.name
        if game.is_over():
            assert (twin.last_trick is twin.trick) == (state.last_trick is state.trick)
            break
        game.apply(random_bot(game))
