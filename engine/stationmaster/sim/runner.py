"""One Station Master game played to its end by bots, one bot a seat
(solitaire is one seat), the per-card tally of what happened to the cards
in the hands, and, with rivals, what became of each attack.

What is counted, per card id (every copy of a card counts under its id, in
whichever hand it is):

- *drawn*: each time a copy enters a hand: in the opening deal, by a Draw
  from the Home Office deck, by a Draw from a Department (and, should a card
  effect ever put a card into a hand, under *other*);
- *played*: each time a copy leaves a hand by being used: a Play, or an
  action a held card pays for (spending a Red Flag);
- *discarded*: each time a copy leaves a hand by a Discard;
- *held at end*: copies still in a hand when the game ends.

Every draw ends in exactly one of played, discarded or held at end, so for
every card ``drawn == played + discarded + held_at_end`` holds exactly. An
attack and the defence that answers it leave their hands by being used, so
both count as played; no card passes from one hand to another, so each
copy's fate is counted once, in the hand that drew it.

With rivals, per card id in the attack tally: how often it was played at a
rival (*attacked*), how often that attack was answered (*answered*: by a
held defence, or by an Enhancement standing in the district it was aimed
at), and how often the card was the answer (*answered with*).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from engine.sim.pool import game_seed
from engine.stationmaster.bots import BOT_FUNCTIONS
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Action, Attack, Discard, Draw, EndTurn
from engine.stationmaster.rules.houserules import HouseRuleValue

# No legal game comes near this; reaching it means a bot or the engine loops.
MAX_ACTIONS_PER_GAME: Final = 100_000

# Columns of a card's tally.
OPENING, DECK, DEPARTMENT, OTHER, PLAYED, DISCARDED, HELD = range(7)
TALLY_WIDTH: Final = 7

# Columns of a card's attack tally.
ATTACKED, ANSWERED, ANSWERED_WITH = range(3)
ATTACK_WIDTH: Final = 3

Tally = dict[str, list[int]]
# A chunk's games as (scores by seat, actions, turns), in game order, their
# card tally and their attack tally.
ChunkResult = tuple[list[tuple[tuple[int, ...], int, int]], Tally, Tally]


@dataclass(frozen=True)
class GameResult:
    scores: tuple[int, ...]  # by seat
    actions: int
    turns: int

    @property
    def score(self) -> int:
        """Seat 0's score: a solitaire game's only one."""
        return self.scores[0]


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


def seat_bots(bots: str | Sequence[str]) -> tuple[str, ...]:
    """One bot name a seat: a lone name is a solitaire game's one seat."""
    return (bots,) if isinstance(bots, str) else tuple(bots)


def play_game(catalog: Catalog, seed: int, bots: str | Sequence[str], house_rules: Mapping[str, HouseRuleValue], tally: Tally, attacks: Tally | None = None) -> GameResult:
    """Play one game to its end, seat ``i`` choosing with the bot named
    ``bots[i]`` (a lone name plays solitaire); add its card events to
    ``tally`` and, if given, what became of its attacks to ``attacks``."""
    from engine.stationmaster.rules.game import Game

    names = seat_bots(bots)
    choose = [BOT_FUNCTIONS[name] for name in names]
    game = Game(catalog, players=len(names), seed=seed, house_rules=house_rules)
    s = game.state
    for hand in s.hands:
        _note_hand_change(tally, (), hand, None)
    actions = turns = 0
    pending: str | None = None  # an attack whose response window has not closed
    while not game.is_over():
        if actions >= MAX_ACTIONS_PER_GAME:
            raise RuntimeError(f"game with seed {seed} did not end after {actions} actions (bots {', '.join(names)})")
        action = choose[game.to_act](game)
        if action is None:
            raise RuntimeError(f"game with seed {seed} has no legal action but is not over (bots {', '.join(names)}, after {actions} actions)")
        before = [list(hand) for hand in s.hands]
        game.apply(action)
        for old, new in zip(before, s.hands):
            if old != new:
                _note_hand_change(tally, old, new, action)
        actions += 1
        if isinstance(action, EndTurn):
            turns += 1
        if isinstance(action, Attack):
            pending = action.card
        if pending is not None and attacks is not None and (s.attack is None or not s.attack.waiting):
            _note_attack(attacks, pending, s.attack.answer if s.attack is not None else None)
            pending = None
    for hand in s.hands:
        for card_id in hand:
            tally.setdefault(card_id, [0] * TALLY_WIDTH)[HELD] += 1
    return GameResult(tuple(game.score()), actions, turns)


def _note_attack(attacks: Tally, card_id: str, answer: str | None) -> None:
    row = attacks.setdefault(card_id, [0] * ATTACK_WIDTH)
    row[ATTACKED] += 1
    if answer is not None:
        row[ANSWERED] += 1
        attacks.setdefault(answer, [0] * ATTACK_WIDTH)[ANSWERED_WITH] += 1


@dataclass(frozen=True)
class Games:
    """What playing any chunk of a simulation's games needs: a worker's state."""

    catalog: Catalog
    seed: int
    seats: tuple[str, ...]  # one bot name a seat
    house_rules: Mapping[str, HouseRuleValue]


def play_chunk(games: Games, start: int, stop: int) -> ChunkResult:
    """Games ``start .. stop-1`` of the simulation, with their tallies."""
    tally: Tally = {}
    attacks: Tally = {}
    results = []
    for index in range(start, stop):
        r = play_game(games.catalog, game_seed(games.seed, index), games.seats, games.house_rules, tally, attacks)
        results.append((r.scores, r.actions, r.turns))
    return results, tally, attacks


def load_games(content_dir: str | Path, fingerprint: str, seed: int, seats: tuple[str, ...], house_rules: dict[str, HouseRuleValue]) -> Games:
    """A worker's state where it cannot be inherited (no fork): the content
    loaded again, and refused if it is not what the simulation started from."""
    from engine.stationmaster import load_catalog

    catalog = load_catalog(content_dir)
    if catalog.fingerprint != fingerprint:
        raise RuntimeError(f"the content under {content_dir} changed while the simulation started")
    return Games(catalog, seed, seats, house_rules)


def add_tally(total: Tally, more: Tally) -> None:
    """Add ``more`` into ``total``, card by card and column by column (a
    card tally or an attack tally)."""
    for card_id, row in more.items():
        mine = total.setdefault(card_id, [0] * len(row))
        for i, value in enumerate(row):
            mine[i] += value
