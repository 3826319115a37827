"""Derailment: an Extra a rival played, crossing a Mainline card, comes off
the rails and loses the rest of its crossing: it stands where it is for as
many Mainline Phases as it still had to cross, then crosses the rest. Wrecking
Crew answers it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.actions import Attack
from engine.stationmaster.rules.events import ATTACK_PROPOSALS, ATTACK_REFUSALS, ATTACK_RESOLVED
from engine.stationmaster.rules.lookups import find_train
from engine.stationmaster.rules.targets import named_train, train_name

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay, Train

EFFECT = "derailment"


def _crossing(game: RulesContext, train: Train) -> bool:
    return train.remaining > 0 and game.state.mainline[train.position].kind == "terrain"


@on(ATTACK_PROPOSALS, EFFECT)
def derailment_targets(game: RulesContext, player: int, card: Card) -> list[Attack]:
    return [Attack(player, card.id, rival=t.player, train=t.id) for t in game.state.trains if t.player is not None and t.player != player and _crossing(game, t)]


@on(ATTACK_REFUSALS, EFFECT)
def derailment_refusals(game: RulesContext, action: Attack, card: Card) -> list[str]:
    train, found = named_train(game, action, card)
    if train is None:
        return found
    if train.player != action.rival:
        whose = "a timetabled train, nobody's" if train.player is None else f"an Extra of player {train.player}"
        found.append(Reason("not-their-train", f"{train_name(game, train)} is {whose}, not an Extra player {action.rival} played"))
    if not _crossing(game, train):
        found.append(Reason("not-crossing", f"{train_name(game, train)} is standing at a node, not crossing a Mainline card"))
    return found


@on(ATTACK_RESOLVED, EFFECT)
def derailment(game: RulesContext, attack: AttackInPlay, card: Card) -> None:
    assert attack.train is not None
    train = find_train(game, attack.train)
    assert train is not None
    train.held += train.remaining
    game.state.log.append(f"{train_name(game, train)} is derailed: it stands for {train.remaining} Mainline Phase(s) before it crosses the rest")
