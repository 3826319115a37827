"""The invariants of Trick of the Rails (§1.8 of the rules page), held over
thousands of random games at each player count, and the same bookkeeping
over Expert games. Seeds are consecutive, so a failure names the seed that
replays it."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.scoring import scores, share_values
from tests.kit.fuzz import multiplier
from tests.kit.trickoftherails import CATALOG

# Random games at each player count: the fuzz tier, not the quick loop.
pytestmark = pytest.mark.fuzz

# 1,000 games a count in `make test`; `make fuzz-deep` (five times the
# budget, run by CI) plays 5,000 a count.
GAMES = 1_000 * multiplier()
# From §1.8: (hand = tricks = lane, stock tricks, operating tricks, Cities,
# Reservations, starting track, railway cards in railways at the end,
# shares each, railway cards out of the game).
EXPECTED = {
    3: (15, 8, 7, 3, 3, 5, 26, 8, 5),
    4: (11, 6, 5, 1, 1, 6, 26, 6, 5),
    5: (9, 5, 4, 0, 0, 5, 25, 5, 5),
}
STOCK = {"exchanges", "reservations"}


def family(card_id: str) -> str:
    return CATALOG.by_id[card_id].family


def railway_cards(cards: list[str]) -> int:
    return sum(1 for c in cards if family(c) == "railway")


def play_out(game: Game) -> list[str]:
    """Play to the end with random legal actions; return the lane card each
    trick was resolved by, checking on the way that a Reservation never
    decides a trick and every Railway card is in exactly one place."""
    resolved: list[str] = []
    while not game.is_over():
        lane_before = list(game.state.lane)
        action = game.random_legal_action()
        assert action is not None, f"seed {game.seed}: no legal action in phase {game.state.phase}"
        game.apply(action)
        if len(game.state.lane) < len(lane_before):
            front = lane_before[0]
            assert family(front) != "reservations", f"seed {game.seed}: a Reservation reached the front of the lane unfilled"
            resolved.append(front)
            census = game.census()
            assert len(census) == 50 and set(census.values()) == {1}, f"seed {game.seed}: Railway cards lost or doubled: {census}"
    return resolved


@pytest.mark.parametrize("players", [3, 4, 5])
def test_basic_game_invariants_over_thousands_of_games(catalog: Catalog, players: int) -> None:
    hand, stock, operating, cities, reservations, starting, in_railways, shares, removed = EXPECTED[players]
    for seed in range(GAMES):
        game = Game(catalog, players, seed)
        s = game.state
        lane = Counter(family(c) for c in s.lane)
        assert len(s.lane) == hand and all(len(h) == hand for h in s.hands), seed
        assert (lane["cities"], lane["reservations"], lane["exchanges"], lane["locomotives"] + 1) == (cities, reservations, 5, 5), seed
        assert sum(railway_cards(r) for r in s.railways.values()) == starting, seed
        resolved = play_out(game)
        kinds = Counter("stock" if family(c) in STOCK or family(c) == "railway" else "operating" for c in resolved)
        assert len(resolved) == hand and kinds == {"stock": stock, "operating": operating}, seed
        assert not s.lane and not any(s.hands), seed
        assert sum(railway_cards(r) for r in s.railways.values()) == in_railways, seed
        assert all(len(held) == shares for held in s.shares), seed
        assert railway_cards(s.removed) == removed, seed
        assert Counter(family(c) for c in s.removed if family(c) != "railway") == ({"reservations": reservations} if reservations else {}), seed
        assert len(s.locomotives) == 5, seed
        values = share_values(catalog, s.railways, s.locomotives)
        assert all(v >= catalog.share_floor for v in values.values()), seed
        assert game.score() == scores(catalog, s.shares, values), seed
        assert game.winners() == [p for p, v in enumerate(game.score()) if v == max(game.score())], seed


@pytest.mark.parametrize("players", [3, 4, 5])
def test_expert_games_keep_the_books(catalog: Catalog, players: int) -> None:
    hand = EXPECTED[players][0]
    for seed in range(1_000):
        game = Game(catalog, players, seed, {"variant": "expert"})
        s = game.state
        starting = sum(railway_cards(r) for r in s.railways.values())
        resolved = play_out(game)
        operating = sum(1 for c in resolved if family(c) in ("cities", "locomotives"))
        assert len(resolved) == hand, seed
        assert sum(railway_cards(r) for r in s.railways.values()) == starting + operating * players, seed
        # Every locomotive the lane dealt was placed, and the [∞] came with the [6].
        dealt = {c for c in resolved if family(c) == "locomotives"}
        placed = set(s.locomotives.values())
        assert dealt <= placed, seed
        assert ("loco-6" in dealt) == ("loco-all" in placed), seed


def test_teams_score_the_partners_sum(catalog: Catalog) -> None:
    for seed in range(200):
        game = Game(catalog, 4, seed, {"teams": True})
        play_out(game)
        own = scores(catalog, game.state.shares, game.share_values())
        assert game.score() == [own[0] + own[2], own[1] + own[3], own[0] + own[2], own[1] + own[3]], seed


def test_a_game_replays_from_its_save(catalog: Catalog) -> None:
    for players in (3, 4, 5):
        game = Game(catalog, players, seed=7)
        play_out(game)
        again = Game.loads(catalog, game.dumps())
        assert again.state_json() == game.state_json()
        assert again.score() == game.score()
