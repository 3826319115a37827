"""One game of Trick of the Rails played to its end by bots, one bot a seat,
and what a simulation keeps of it: each seat's score, each company's share
value and locomotive, and for each trick what kind it was (stock, City or
Locomotive, by the lane card that decided it) and whether its leader won it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from engine.trickoftherails.bots import BOT_FUNCTIONS
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.actions import Play
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.houserules import HouseRuleValue
from engine.trickoftherails.rules.lanecards import TrickKind, trick_kind

# No game comes near this (a 3-player game takes some 75 actions); reaching
# it means a bot or the engine loops.
MAX_ACTIONS_PER_GAME: Final = 10_000


@dataclass(frozen=True)
class GameRecord:
    scores: tuple[int, ...]  # by seat
    share_values: Mapping[str, int]  # by company id
    locomotives: Mapping[str, str]  # company id -> the locomotive that ended at its head
    tricks: tuple[tuple[TrickKind, bool], ...]  # each trick's kind, and whether its leader won it
    actions: int
    first_leader: int = 0  # the seat that led the first trick


def play_game(catalog: Catalog, players: int, seed: int, seats: Sequence[str], house_rules: Mapping[str, HouseRuleValue]) -> GameRecord:
    """Play one game, seat ``i`` choosing with the bot named ``seats[i]``."""
    if len(seats) != players:
        raise ValueError(f"{players} players need {players} bots, not {len(seats)}")
    choose = [BOT_FUNCTIONS[name] for name in seats]
    game = Game(catalog, players, seed, house_rules)
    s = game.state
    tricks: list[tuple[TrickKind, bool]] = []
    first_leader = s.trick.leader
    actions = 0
    while not game.is_over():
        if actions >= MAX_ACTIONS_PER_GAME:
            raise RuntimeError(f"game with seed {seed} did not end after {actions} actions (bots {', '.join(seats)})")
        actor = game.to_act
        assert actor is not None
        action = choose[actor](game)
        closing = s.trick if isinstance(action, Play) and len(s.trick.plays) == players - 1 else None
        kind = trick_kind(catalog.by_id[s.lane[0]]) if closing is not None else None
        game.apply(action)
        actions += 1
        if closing is not None and kind is not None:
            tricks.append((kind, closing.winner == closing.leader))
    return GameRecord(tuple(game.score()), game.share_values(), dict(s.locomotives), tuple(tricks), actions, first_leader)
