"""The rules of a turn, dispatched by kind of action.

``reasons`` judges an action (every reason it is refused), ``candidates``
proposes actions, ``perform`` carries out one already judged legal. Each kind
of action has its module (``hand``, ``play``, ``moves``, ``turn``), the
Mainline Phase its own (``mainline_phase``); card effects are raised there as
the events of ``events`` for the handlers in ``effects/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.actions import Action, Answer, Attack, ChooseGrade, Decline, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, RedFlag, SortCars, Spot
from engine.stationmaster.hand import card as known_card
from engine.stationmaster.hand import discard_reasons, draw_reasons, from_hand_reasons, hand_limit, perform_discard, perform_draw
from engine.stationmaster.inputs import check_well_formed
from engine.stationmaster.lasting import turn_ended
from engine.stationmaster.lookups import log, terrain
from engine.stationmaster.moves import hold_reasons, perform_hold, perform_sort, perform_spend, perform_switch, sort_reasons, spend_reasons, switch_reasons
from engine.stationmaster.play import card_play_reasons, perform_play, play_reasons
from engine.stationmaster.proposals import candidates, proposals
from engine.stationmaster.response import attack_reasons, perform_attack, perform_response, response_reasons
from engine.stationmaster.turn import end_turn_reasons, grade_reasons, perform_end_turn, perform_grade

if TYPE_CHECKING:
    from engine.stationmaster.game import Game

__all__ = ["candidates", "card_play_reasons", "hand_limit", "judged", "log", "perform", "proposals", "reasons", "terrain"]

# Actions that spend a card held in hand (the handler of its effect says which).
SPENDING = (RedFlag, FlyingSwitch)


def reasons(game: Game, action: Action) -> list[Reason]:
    """Every reason ``action`` is refused; input that names nothing real is
    an InvalidActionError, raised once, here, before any rule is asked."""
    check_well_formed(game, action)
    return judged(game, action)


def judged(game: Game, action: Action, *, verdict: bool = False) -> list[Reason]:
    """Every reason a well-formed ``action`` is refused (the engine's own
    proposals are well formed: it names only what it finds on the table).

    With ``verdict``, only whether it is refused is wanted (a bot's pick):
    the cheapest of the same rules are asked first and the answer may stop
    at the first reasons found. Those are reasons the full judgement lists
    too, so the verdict is always the full judgement's."""
    s = game.state
    if s.phase == "over":
        return [Reason("game-over", "the game is over")]
    if s.phase == "setup":
        if not isinstance(action, ChooseGrade):
            return [Reason("setup-unfinished", f"setup is not finished: the uphill direction of the {terrain(game, s.pending_grades[0]).name} at Mainline position {s.pending_grades[0]} must be chosen first")]
        return grade_reasons(game, action)
    if isinstance(action, ChooseGrade):
        return [Reason("grades-chosen", "every grade direction was chosen at setup")]
    window = response_reasons(game, action)  # an attack's response window: its answers, and nothing else while open
    if window is not None:
        return window
    found: list[Reason] = []
    if action.player != s.current:
        found.append(Reason("not-your-turn", f"it is player {s.current}'s turn, not player {action.player}'s"))
    if s.turn.switched and isinstance(action, (Draw, Play, Attack)):
        switched = Reason("switch-option-taken", "this turn took the Switch option, so it cannot also draw or play")
        if verdict:
            return [switched]
    else:
        switched = None
    if isinstance(action, EndTurn):
        found += end_turn_reasons(game, action)
    elif isinstance(action, Draw):
        found += draw_reasons(game, action)
    elif isinstance(action, Discard):
        found += discard_reasons(game, action)
    elif isinstance(action, Play):
        if verdict:
            # what refuses any card from the hand (played already, discarded
            # this turn) is the usual refusal, and far cheaper than a placement
            early = from_hand_reasons(game, action.player, known_card(game, action.card))
            if early:
                return early
        found += play_reasons(game, action)
    elif isinstance(action, SortCars):
        found += sort_reasons(game, action)
    elif isinstance(action, (Spot, Pull)):
        found += switch_reasons(game, action)
    elif isinstance(action, SPENDING):
        found += spend_reasons(game, action)
    elif isinstance(action, Hold):
        found += hold_reasons(game, action)
    elif isinstance(action, Attack):
        found += attack_reasons(game, action)
    if switched is not None:
        found.append(switched)
    return found


def perform(game: Game, action: Action) -> None:
    if isinstance(action, ChooseGrade):
        perform_grade(game, action)
    elif isinstance(action, Draw):
        perform_draw(game, action)
    elif isinstance(action, Discard):
        perform_discard(game, action)
    elif isinstance(action, Play):
        perform_play(game, action)
    elif isinstance(action, SortCars):
        perform_sort(game, action)
    elif isinstance(action, (Spot, Pull)):
        perform_switch(game, action)
    elif isinstance(action, SPENDING):
        perform_spend(game, action)
    elif isinstance(action, Hold):
        perform_hold(game, action)
    elif isinstance(action, Attack):
        perform_attack(game, action)
    elif isinstance(action, (Answer, Decline)):
        perform_response(game, action)
    elif isinstance(action, EndTurn):
        perform_end_turn(game, action)
        turn_ended(game, action.player)  # attacks in force count down
