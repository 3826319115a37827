"""Helpers shared by the engine tests (tests/test_engine_*.py): the shipped
catalog, loaded once, a game past setup, and ways to rearrange its cards
without losing one.

A card a test hands a player is taken out of the deck, a Department or a hand
first, so ``Game.census()`` still equals the dealt deck and the test may go on
through ``check``/``apply`` as in play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from engine.stationmaster.rules.actions import Draw, EndTurn
from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.deck import home_deck
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.houserules import HouseRuleValue

ROOT = Path(__file__).resolve().parents[1]
CATALOG = load_catalog(ROOT / "content" / "stationmaster")


def new_game(
    *,
    players: int = 1,
    seed: int = 0,
    terrain: str | None = "plains",
    catalog: Catalog = CATALOG,
    **house: HouseRuleValue,
) -> Game:
    """A game at the first Local Operations turn, with ``house`` rules.

    Every terrain slot of the Mainline is set to ``terrain`` (no uphill
    direction) so crossing times are known; ``None`` keeps the terrain as
    dealt, for tests that want the game exactly as the engine sets it up.
    """
    game = Game(catalog, players=players, seed=seed, house_rules=house)
    while game.state.phase == "setup":
        game.apply(game.legal_actions()[0])
    if terrain is not None:
        for slot in game.state.mainline:
            if slot.kind == "terrain":
                slot.card, slot.uphill = terrain, None
    return game


def end_stage(game: Game) -> None:
    """Every player ends their turn, so one Mainline Phase runs (or the game ends)."""
    stage = (game.state.day, game.state.stage)
    while (game.state.day, game.state.stage) == stage and not game.is_over():
        game.apply(EndTurn(game.state.current))


def dealt(game: Game) -> Counter[str]:
    """The dealt deck, as a census to compare ``game.census()`` with; from the
    game's own catalog, so a game built on an altered catalog counts its own
    cards."""
    return Counter(card.id for card in home_deck(game.catalog, game.rules, game.state.players))


def take(game: Game, card: str) -> None:
    """Remove one copy of ``card`` from the deck, a Department or a hand (in
    that order), or fail: a test may only use copies the deck really deals."""
    s = game.state
    for pile in [s.deck, *s.departments, *s.hands]:
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"no spare {card!r} to take (the deck deals {dealt(game)[card]})")


def give(game: Game, player: int, cards: list[str]) -> None:
    """Make ``cards`` the hand of ``player``: the old hand goes back to the
    deck and each card is taken from wherever a spare copy lies, so every
    dealt card is still accounted for (checked here)."""
    s = game.state
    s.deck.extend(s.hands[player])
    s.hands[player] = []
    for card in cards:
        take(game, card)
        s.hands[player].append(card)
    assert game.census() == dealt(game)


def give_and_draw(game: Game, player: int, cards: list[str]) -> None:
    """Make ``cards`` the hand of ``player``, then take the Draw option from
    the deck: a card played only during the Draw option (the grade cards,
    Realignment) may then be played this turn."""
    give(game, player, cards)
    game.apply(Draw(player, "deck"))


def codes(reasons: Sequence[str]) -> list[str]:
    """The stable codes of refusal reasons (tests match these, not wording)."""
    return [getattr(r, "code", "") for r in reasons]
