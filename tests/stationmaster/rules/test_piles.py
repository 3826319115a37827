"""The piles: Home Office deck, Departments, Salvage Yard; drawing, refilling
and rebuilding. Situations are set up by editing ``game.state`` directly and
then exercised through ``check``/``apply``."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from engine.stationmaster.rules.actions import Discard, Draw, EndTurn, Play
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import CATALOG, dealt, new_game


def everything_outside_hands(game: Game) -> Counter[str]:
    s = game.state
    return Counter(s.deck) + Counter(c for p in s.departments for c in p) + Counter(s.salvage)


def test_draw_from_the_deck_takes_the_top_card() -> None:
    game = new_game(seed=4, terrain=None)
    s = game.state
    top = s.deck[-1]
    below = s.deck[-2]
    size = len(s.deck)
    game.apply(Draw(0, "deck"))
    assert s.hands[0][-1] == top
    assert len(s.deck) == size - 1
    assert s.deck[-1] == below
    assert game.census() == dealt(game)


@pytest.mark.parametrize("department", [1, 2, 3])
def test_draw_from_a_department_takes_its_top_card(department: int) -> None:
    game = new_game(seed=5, terrain=None)
    s = game.state
    deck_before = list(s.deck)
    pile = s.departments[department - 1]
    # stack two known cards on the pile (taken from the deck so the census holds)
    s.deck.remove("straight")
    s.deck.remove("curve-left")
    pile += ["straight", "curve-left"]
    game.apply(Draw(0, str(department)))
    assert s.hands[0][-1] == "curve-left"
    assert pile[-1] == "straight"
    deck_before.remove("straight")
    deck_before.remove("curve-left")
    assert s.deck == deck_before  # the deck was not touched: the pile still had a card
    assert game.census() == dealt(game)


def test_taking_the_last_card_of_a_department_refills_it_from_the_deck_at_once() -> None:
    game = new_game(seed=6, terrain=None)
    s = game.state
    assert len(s.departments[1]) == 1
    last = s.departments[1][0]
    deck_top = s.deck[-1]
    size = len(s.deck)
    game.apply(Draw(0, "2"))
    assert s.hands[0][-1] == last
    assert s.departments[1] == [deck_top]
    assert len(s.deck) == size - 1
    assert all(s.departments), "three piles must always exist"
    assert game.census() == dealt(game)


def test_deck_exhaustion_rebuilds_from_salvage_and_all_departments_reshuffled() -> None:
    game = new_game(seed=7, terrain=None)
    s = game.state
    # move the whole deck and the Departments into the Salvage Yard and the three Departments
    cards = list(s.deck) + [c for p in s.departments for c in p]
    s.deck = []
    s.salvage = cards[:20]
    s.departments = [cards[20:25], cards[25:27], cards[27:]]
    gathered = Counter(cards)
    shuffled: list[list[str]] = []
    real_shuffle = game.rng.shuffle

    def spy(items: list[str]) -> None:
        shuffled.append(list(items))
        real_shuffle(items)

    game.rng.shuffle = spy  # type: ignore[method-assign, assignment]  # a spy on this game's list of card ids
    assert game.check(Draw(0, "deck")) == []
    game.apply(Draw(0, "deck"))
    drawn = s.hands[0][-1]
    assert len(shuffled) == 1 and Counter(shuffled[0]) == gathered, "the rebuild must shuffle everything gathered, from game.rng"
    assert s.salvage == []
    assert all(len(p) == 1 for p in s.departments), "each Department is turned up again"
    assert everything_outside_hands(game) + Counter([drawn]) == gathered
    assert game.census() == dealt(game)


def test_deck_rebuild_is_a_real_shuffle_and_seeded() -> None:
    def rebuilt(seed: int) -> list[str]:
        game = new_game(seed=1, terrain=None)
        game.rng = type(game.rng)(seed)
        s = game.state
        cards = list(s.deck)
        s.deck, s.salvage = [], cards
        game.apply(Draw(0, "deck"))
        return list(s.deck)

    assert rebuilt(1) == rebuilt(1)
    assert rebuilt(1) != rebuilt(2)


def test_emptied_department_with_an_empty_deck_triggers_the_rebuild() -> None:
    game = new_game(seed=8, terrain=None)
    s = game.state
    cards = list(s.deck) + [c for p in s.departments for c in p]
    s.deck = []
    s.salvage = cards[:-1]
    s.departments = [[cards[-1]], [], []]
    game.apply(Draw(0, "1"))
    assert s.hands[0][-1] == cards[-1]
    assert all(s.departments), "the rebuild turns a card up on every Department, the emptied one included"
    assert len(s.deck) == len(cards) - 1 - 3
    assert game.census() == dealt(game)


def arrange(game: Game, hand: list[str], deck_size: int = 1) -> None:
    """Player 0 holds ``hand``; the deck keeps ``deck_size`` cards, each
    Department one, and every other dealt card is in the Salvage Yard."""
    s = game.state
    spare = list(dealt(game).elements())
    for other in s.hands[1:]:
        for card in other:
            spare.remove(card)
    for card in hand:
        spare.remove(card)
    spare.sort(key=lambda c: c.startswith(("train", "extra")))  # ordinary cards on top
    s.hands[0] = list(hand)
    s.deck = [spare.pop() for _ in range(deck_size)]
    s.departments = [[spare.pop()], [spare.pop()], [spare.pop()]]
    s.salvage = spare
    assert game.census() == dealt(game)


def test_a_spent_timetabled_train_never_returns_to_the_deck() -> None:
    game = new_game(seed=9, terrain=None)
    s = game.state
    arrange(game, ["straight", "straight", "train-1"])
    game.apply(Play(0, "train-1"))
    assert "train-1" in s.timetable
    game.apply(EndTurn(0))
    game.apply(Draw(0, "deck"))  # the last deck card
    game.apply(Discard(0, "straight", 1))
    game.apply(EndTurn(0))
    assert s.deck == []
    game.apply(Draw(0, "deck"))  # rebuilds
    assert "train-1" not in s.deck
    assert all("train-1" not in p for p in s.departments)
    assert "train-1" not in s.hands[0]
    assert s.timetable.count("train-1") == 1
    assert game.census() == dealt(game)


def test_a_discarded_timetabled_train_comes_back_in_the_rebuild() -> None:
    game = new_game(seed=10, discardTimetabled=True, terrain=None)
    s = game.state
    arrange(game, ["straight", "straight", "train-2"])
    game.apply(Draw(0, "deck"))  # empties the deck
    game.apply(Discard(0, "train-2", 3))
    assert s.departments[2][-1] == "train-2"
    game.apply(EndTurn(0))
    assert s.deck == []
    game.apply(Draw(0, "deck"))  # the rebuild gathers the Departments too
    back = s.deck + [c for p in s.departments for c in p] + s.hands[0][-1:]
    assert "train-2" in back
    assert game.census() == dealt(game)


def test_a_discarded_card_lands_on_top_of_the_chosen_department() -> None:
    game = new_game(seed=12, terrain=None)
    s = game.state
    game.apply(Draw(0, "deck"))
    card = s.hands[0][-1]
    if card.startswith(("train", "extra")):
        pytest.skip("drew a train")
    game.apply(Discard(0, card, 2))
    assert s.departments[1][-1] == card
    game.apply(EndTurn(0))
    game.apply(Draw(0, "2"))
    assert s.hands[0][-1] == card


def small_catalog(counts: dict[str, int]):  # type: ignore[no-untyped-def]
    """The shipped catalog with every Home Office card's count replaced."""
    cards = tuple(c if c.family == "mainline" else dataclasses.replace(c, count=counts.get(c.id, 0)) for c in CATALOG.cards)
    return dataclasses.replace(CATALOG, cards=cards, by_id={c.id: c for c in cards})


def test_draw_from_deck_when_the_rebuild_gathers_three_cards_or_fewer() -> None:
    # Six dealt cards, one player: three in hand, one on each Department, the deck empty.
    catalog = small_catalog({"straight": 6})
    game = Game(catalog, players=1, seed=1)
    s = game.state
    assert s.deck == [] and len(s.hands[0]) == 3 and all(s.departments)
    assert game.check(Draw(0, "deck")) == [], "the engine says a deck Draw is allowed here"
    assert Draw(0, "deck") in game.legal_actions()
    game.apply(Draw(0, "deck"))
    assert len(s.hands[0]) == 4
    assert game.census() == Counter({"straight": 6})
