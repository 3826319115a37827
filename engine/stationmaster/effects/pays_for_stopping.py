"""Trains that pay for stopping (the Circus and Campaign Trains): a whole
Mainline Phase stood in an Office Area, fully loaded, earns that district the
points game.yaml sets (scoring.paidStop), once per district for each train."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card, TrainCard
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import TRAIN_STOOD

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import District, Train


# The trains table on the site marks the cards that carry this effect.
EFFECT = "pays-for-stopping"


@on(TRAIN_STOOD, EFFECT)
def pays_for_stopping(game: RulesContext, train: Train, district: District, card: Card) -> None:
    assert isinstance(card, TrainCard)
    if train.id in district.paid_stops:
        return
    if len(train.cars) < card.consist.cars or not all(c.loaded for c in train.cars):
        game.state.log.append(f"{card.name} stood at player {district.player}'s Office but is short or not fully loaded: it earns nothing")
        return
    points = game.catalog.game.scoring.paid_stop
    district.paid_stops.append(train.id)
    game.state.scores[district.player] += points
    game.state.log.append(f"{card.name} stood a whole Mainline Phase in player {district.player}'s Office Area, fully loaded: player {district.player} scores {points}")
