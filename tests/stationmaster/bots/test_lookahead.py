"""The lookahead bot (engine/stationmaster/bots/lookahead.py): Monte Carlo over
copies of the game in which what the player cannot see is dealt afresh."""

from __future__ import annotations

from collections import Counter

from engine.rng import SeededStream
from engine.stationmaster.bots import BOT_FUNCTIONS, BOTS
from engine.stationmaster.bots.lookahead import Lookahead, choose
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Draw, EndTurn, Play
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import loaded, new_game, put_train, set_hand


def test_it_is_a_bot_of_the_pack() -> None:
    assert "lookahead" in BOTS and "lookahead" in BOT_FUNCTIONS


def test_a_copy_is_independent_of_its_game() -> None:
    game = new_game(seed=60)
    twin = game.copy()
    twin.apply(Draw(0, "deck"))
    assert twin.state_json() != game.state_json()
    assert game.history == [] and game.state.turn.drawn is False
    assert twin.catalog is game.catalog


def test_a_determinized_copy_deals_the_hidden_cards_afresh_and_nothing_else(catalog: Catalog) -> None:
    game = new_game(players=2, seed=61)
    twin = game.determinized(SeededStream(5, "test"))
    s, t = game.state, twin.state
    assert t.hands[0] == s.hands[0], "the player to act keeps their own hand"
    assert t.departments == s.departments and t.salvage == s.salvage, "what is face up stays"
    assert Counter(t.deck + t.hands[1]) == Counter(s.deck + s.hands[1]), "the unseen cards are the same cards"
    assert len(t.hands[1]) == len(s.hands[1])
    assert t.deck != s.deck, "their order is dealt afresh"
    assert twin.census() == game.census()
    again = game.determinized(SeededStream(5, "test"))
    assert again.state.deck == t.deck, "the same stream deals the same"
    # the real game's streams are untouched
    mirror = new_game(catalog, players=2, seed=61, terrain=None)
    assert game.rng._random.getstate() == mirror.rng._random.getstate()


def test_the_lookahead_never_reads_the_deck_order() -> None:
    # two games alike in all a player can see, their decks in another order:
    # the bot takes the same action in both
    game = new_game(seed=62)
    other = game.copy()
    other.state.deck.reverse()
    assert other.state.deck != game.state.deck
    assert game.determinized(SeededStream(1)).state.deck == other.determinized(SeededStream(1)).state.deck
    plan = Lookahead(candidates=2, deals=2)
    assert choose(game, plan) == choose(other, plan)
    assert game.history == other.history == []


def test_its_choice_is_legal_and_leaves_the_game_as_it_was() -> None:
    game = new_game(seed=63)
    set_hand(game, "red-flag", "straight", "straight")
    put_train(game, "train-1", loaded("coach", 3), train_id="t")
    before = game.state_json()
    chosen = choose(game, Lookahead(candidates=3, deals=2))
    assert chosen is not None and not game.check(chosen)
    assert game.state_json() == before


def test_the_same_seed_plays_the_same_game() -> None:
    def first_moves(seed: int) -> list[object]:
        game = new_game(seed=seed)
        for _ in range(12):
            game.apply(choose(game, Lookahead(candidates=2, deals=1)) or EndTurn(0))
        return list(game.history)

    assert first_moves(64) == first_moves(64)


def test_a_lone_legal_action_is_taken_without_looking_ahead() -> None:
    game = new_game(seed=65)
    set_hand(game, "straight", "straight", "straight")
    game.apply(Draw(0, "deck"))
    game.apply(Play(0, "straight", x=1, y=0, rotation=0))
    calls: list[int] = []
    real = Game.determinized

    def counted(self: Game, stream: SeededStream) -> Game:
        calls.append(1)
        return real(self, stream)

    Game.determinized = counted  # type: ignore[method-assign]
    try:
        chosen = choose(game, Lookahead())
    finally:
        Game.determinized = real  # type: ignore[method-assign]
    assert chosen is not None and not game.check(chosen)
    assert calls == [], "after the turn's play only the greedy bot's choices remain"
