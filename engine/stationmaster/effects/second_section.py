"""The Second Section: a second train, identical to the one due out this
Stage, follows it; it needs a Crew Tray of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.events import CARD_PLAYED, PLAY_REFUSALS

if TYPE_CHECKING:
    from engine.stationmaster.rules.actions import Play
    from engine.stationmaster.rules.context import RulesContext


@on(PLAY_REFUSALS, "second-section")
def second_section_refusals(game: RulesContext, action: Play, card: Card) -> list[str]:
    s = game.state
    due = s.timetable[s.stage - 1]
    reasons: list[str] = []
    if action.train is None or action.train != due:
        name = game.catalog.by_id[due].name if due else "none"
        reasons.append(Reason("not-the-train-due", f"a {card.name} follows the train due out this Stage (Stage {s.stage}: {name})"))
    if action.train in s.second_sections:
        reasons.append(Reason("already-has-second-section", f"that train already has a {card.name}"))
    trays_needed = 1 + len(s.second_sections) + (1 if due else 0)
    if s.crew_trays_free < trays_needed:
        reasons.append(Reason("no-crew-tray", f"the {card.name} needs a Crew Tray of its own: {s.crew_trays_free} free, {trays_needed} needed"))
    return reasons


@on(CARD_PLAYED, "second-section")
def second_section(game: RulesContext, action: Play, card: Card) -> None:
    assert action.train is not None
    game.state.second_sections.append(action.train)
    game.state.salvage.append(card.id)
    game.state.log.append(f"a {card.name} is ordered behind {game.catalog.by_id[action.train].name}")
