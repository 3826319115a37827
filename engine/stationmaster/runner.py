"""One Station Master solitaire game played to its end by a bot, and the
per-card tally of what happened to the cards in the hands.

What is counted, per card id (every copy of a card counts under its id):

- *drawn*: each time a copy enters a hand: in the opening deal, by a Draw
  from the Home Office deck, by a Draw from a Department (and, should a card
  effect ever put a card into a hand, under *other*);
- *played*: each time a copy leaves a hand by being used: a Play, or an
  action a held card pays for (spending a Red Flag);
- *discarded*: each time a copy leaves a hand by a Discard;
- *held at end*: copies still in a hand when the game ends.

Every draw ends in exactly one of played, discarded or held at end, so for
every card ``drawn == played + discarded + held_at_end`` holds exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from engine.pool import game_seed
from engine.stationmaster.actions import Action, Discard, Draw, EndTurn
from engine.stationmaster.bots import BOT_FUNCTIONS
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.houserules import HouseRuleValue

# No legal game comes near this; reaching it means a bot or the engine loops.
MAX_ACTIONS_PER_GAME: Final = 100_000

# Columns of a card's tally.
OPENING, DECK, DEPARTMENT, OTHER, PLAYED, DISCARDED, HELD = range(7)
TALLY_WIDTH: Final = 7

Tally = dict[str, list[int]]
# A chunk's games as (score, actions, turns), in game order, and their tally.
ChunkResult = tuple[list[tuple[int, int, int]], Tally]


@dataclass(frozen=True)
class GameResult:
    score: int
    actions: int
    turns: int


def _note_hand_change(tally: Tally, before: Sequence[str], after: Sequence[str], action: Action | None) -> None:
    gained = Counter(after)
    gained.subtract(before)
    for card_id, delta in gained.items():
        if delta == 0:
            continue
        row = tally.setdefault(card_id, [0] * TALLY_WIDTH)
        if delta > 0:
            if action is None:
                column = OPENING
            elif isinstance(action, Draw):
                column = DECK if action.source == "deck" else DEPARTMENT
            else:
                column = OTHER
            row[column] += delta
        else:
            row[DISCARDED if isinstance(action, Discard) else PLAYED] -= delta


def play_game(catalog: Catalog, seed: int, bot: str, house_rules: Mapping[str, HouseRuleValue], tally: Tally) -> GameResult:
    """Play one solitaire game to its end with ``bot``; add its card events to ``tally``."""
    from engine.stationmaster.game import Game

    choose = BOT_FUNCTIONS[bot]
    game = Game(catalog, players=1, seed=seed, house_rules=house_rules)
    hands = game.state.hands
    for hand in hands:
        _note_hand_change(tally, (), hand, None)
    actions = turns = 0
    while not game.is_over():
        if actions >= MAX_ACTIONS_PER_GAME:
            raise RuntimeError(f"game with seed {seed} did not end after {actions} actions (bot {bot})")
        action = choose(game)
        if action is None:
            raise RuntimeError(f"game with seed {seed} has no legal action but is not over (bot {bot}, after {actions} actions)")
        before = [list(hand) for hand in game.state.hands]
        game.apply(action)
        for old, new in zip(before, game.state.hands):
            if old != new:
                _note_hand_change(tally, old, new, action)
        actions += 1
        if isinstance(action, EndTurn):
            turns += 1
    for hand in game.state.hands:
        for card_id in hand:
            tally.setdefault(card_id, [0] * TALLY_WIDTH)[HELD] += 1
    return GameResult(game.score()[0], actions, turns)


@dataclass(frozen=True)
class Games:
    """What playing any chunk of a simulation's games needs: a worker's state."""

    catalog: Catalog
    seed: int
    bot: str
    house_rules: Mapping[str, HouseRuleValue]


def play_chunk(games: Games, start: int, stop: int) -> ChunkResult:
    """Games ``start .. stop-1`` of the simulation, with their tally."""
    tally: Tally = {}
    results = []
    for index in range(start, stop):
        r = play_game(games.catalog, game_seed(games.seed, index), games.bot, games.house_rules, tally)
        results.append((r.score, r.actions, r.turns))
    return results, tally


def load_games(content_dir: str | Path, fingerprint: str, seed: int, bot: str, house_rules: dict[str, HouseRuleValue]) -> Games:
    """A worker's state where it cannot be inherited (no fork): the content
    loaded again, and refused if it is not what the simulation started from."""
    from engine.stationmaster import load_catalog

    catalog = load_catalog(content_dir)
    if catalog.fingerprint != fingerprint:
        raise RuntimeError(f"the content under {content_dir} changed while the simulation started")
    return Games(catalog, seed, bot, house_rules)


def add_tally(total: Tally, more: Tally) -> None:
    """Add ``more`` into ``total``, card by card and column by column."""
    for card_id, row in more.items():
        mine = total.setdefault(card_id, [0] * TALLY_WIDTH)
        for i, value in enumerate(row):
            mine[i] += value
