"""The frame of a turn: the setup choice of grade directions, and ending a
turn (the district works, then ``DISTRICT_WORKED`` is raised for each of its
Enhancements; the next player acts, and after the last player the Mainline
Phase runs, ``MAINLINE_PHASE_ENDED`` is raised for every district's
Enhancements, and the Stage advances)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.actions import ChooseGrade, EndTurn
from engine.stationmaster.rules.events import DISTRICT_WORKED, MAINLINE_PHASE_ENDED
from engine.stationmaster.rules.hand import hand_limit, over_limit
from engine.stationmaster.rules.industry import work_district
from engine.stationmaster.rules.inputs import as_heading
from engine.stationmaster.rules.lookups import district_enhancements, log, terrain
from engine.stationmaster.rules.mainline_phase import mainline_phase

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def grade_reasons(game: RulesContext, action: ChooseGrade) -> list[Reason]:
    s = game.state
    found = []
    if action.player != 0:
        found.append(Reason("not-the-placing-player", "the Mainline is placed by player 0, who chooses its grades"))
    if action.slot not in s.pending_grades:
        found.append(Reason("no-grade-waiting", f"Mainline position {action.slot} has no grade waiting for a direction"))
    return found


def perform_grade(game: RulesContext, action: ChooseGrade) -> None:
    s = game.state
    s.mainline[action.slot].uphill = as_heading(action.uphill)
    s.pending_grades.remove(action.slot)
    log(s, f"player 0 sets the {terrain(game, action.slot).name} at position {action.slot} to climb {action.uphill}ward")
    if not s.pending_grades:
        s.phase = "local"


def end_turn_reasons(game: RulesContext, action: EndTurn) -> list[Reason]:
    if over_limit(game, action.player):
        hand, limit = len(game.state.hands[action.player]), hand_limit(game, action.player)
        return [Reason("hand-over-limit", f"the hand holds {hand} cards and the limit is {limit}: play or discard before ending the turn")]
    return []


def perform_end_turn(game: RulesContext, action: EndTurn) -> None:
    work_district(game, action.player)
    registry = load_handlers()
    for card in district_enhancements(game, action.player):
        worked = registry.get_handler(DISTRICT_WORKED, card.effect)
        if worked is not None:
            worked(game, action.player, card)
    s = game.state
    s.turn = type(s.turn)()
    s.current += 1
    if s.current < s.players:
        return
    s.current = 0
    mainline_phase(game)
    for player in range(s.players):
        for card in district_enhancements(game, player):
            ended = registry.get_handler(MAINLINE_PHASE_ENDED, card.effect)
            if ended is not None:
                ended(game, player, card)
    s.second_sections = []
    if s.stage == game.catalog.game.table.stages_per_day and s.day == game.catalog.game.table.game_days:
        s.phase = "over"
        log(s, f"the game ends after {game.catalog.game.table.game_days} Days; final scores: " + ", ".join(f"player {p} {score}" for p, score in enumerate(s.scores)))
        return
    s.stage += 1
    if s.stage > game.catalog.game.table.stages_per_day:
        s.stage = 1
        s.day += 1
    log(s, f"Day {s.day}, Stage {s.stage}")
