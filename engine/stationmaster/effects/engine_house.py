"""Engine House (a designed card): a train may wait in the district a Stage
without holding a Crew Tray.

At the end of its district's turn, a train standing at the Office and held
there through the coming Mainline Phase (by a Hold or a Red Flag) waits in
the Engine House: its Crew Tray goes back to the supply, where a queued Extra
or the train due out may take it. When that Mainline Phase is over the train
takes a Crew Tray again; while none is free it stays in the Engine House,
held, and tries again after the next one. One train at a time waits there; it
still stands at the Office (an A/D track, its passengers, a stop that pays).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import DISTRICT_WORKED, MAINLINE_PHASE_ENDED
from engine.stationmaster.rules.switching import train_district

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import Train


def _standing(game: RulesContext, player: int) -> list[Train]:
    """The trains standing at ``player``'s Office, in the order they run."""
    return [t for t in game.state.trains if (d := train_district(game, t)) is not None and d.player == player]


@on(DISTRICT_WORKED, "engine-house")
def take_in(game: RulesContext, player: int, card: Card) -> None:
    standing = _standing(game, player)
    if any(not t.crew_tray for t in standing):
        return  # its one stall is taken
    waiting = next((t for t in standing if t.held > 0), None)
    if waiting is None:
        return
    waiting.crew_tray = False
    game.state.crew_trays_free += 1
    game.state.log.append(f"{game.catalog.by_id[waiting.card].name} waits in player {player}'s {card.name}: its Crew Tray is free for another train")


@on(MAINLINE_PHASE_ENDED, "engine-house")
def let_out(game: RulesContext, player: int, card: Card) -> None:
    s = game.state
    for waiting in _standing(game, player):
        if waiting.crew_tray or waiting.held > 0:
            continue  # not in the Engine House, or still held there
        name = game.catalog.by_id[waiting.card].name
        if s.crew_trays_free > 0:
            s.crew_trays_free -= 1
            waiting.crew_tray = True
            s.log.append(f"{name} leaves player {player}'s {card.name} with a Crew Tray")
        else:
            waiting.held = 1
            s.log.append(f"{name} stays in player {player}'s {card.name}: no Crew Tray is free")
