"""The rules of a turn, dispatched by kind of action.

``reasons`` judges an action (every reason it is refused), ``candidates``
proposes actions, ``perform`` carries out one already judged legal. Each kind
of action has its module (``hand``, ``play``, ``moves``, ``turn``), the
Mainline Phase its own (``mainline_phase``); card effects are raised there as
the events of ``events`` for the handlers in ``effects/``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from engine.errors import Reason
from engine.stationmaster.rules.actions import Action, Answer, Attack, ChooseGrade, Decline, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, RedFlag, SortCars, Spot
from engine.stationmaster.rules.hand import card as known_card
from engine.stationmaster.rules.hand import discard_reasons, draw_reasons, from_hand_reasons, hand_limit, perform_discard, perform_draw
from engine.stationmaster.rules.inputs import check_well_formed
from engine.stationmaster.rules.lasting import turn_ended
from engine.stationmaster.rules.lookups import log, terrain
from engine.stationmaster.rules.moves import hold_reasons, perform_hold, perform_sort, perform_spend, perform_switch, sort_reasons, spend_reasons, switch_reasons
from engine.stationmaster.rules.play import card_play_reasons, perform_play, play_reasons, played_card_reasons
from engine.stationmaster.rules.proposals import candidates, proposals
from engine.stationmaster.rules.response import RESPONSES, attack_reasons, perform_attack, perform_response, response_reasons
from engine.stationmaster.rules.turn import end_turn_reasons, grade_reasons, perform_end_turn, perform_grade

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext

T = TypeVar("T")

__all__ = ["candidates", "card_play_reasons", "hand_limit", "judged", "log", "perform", "proposals", "reasons", "terrain"]

# Actions that spend a card held in hand (the handler of its effect says which).
SPENDING = (RedFlag, FlyingSwitch)

# The rules that judge each kind of action, once it is the turn's business
# (not a grade choice, not the response window's). A table, not a chain of
# isinstance tests: judging is asked once or twice for every action a bot
# takes, and a chain asked a dozen questions of the last kinds in it.
_JUDGES: dict[type[Action], Callable[[RulesContext, Any], list[Reason]]] = {
    EndTurn: end_turn_reasons,
    Draw: draw_reasons,
    Discard: discard_reasons,
    Play: play_reasons,
    SortCars: sort_reasons,
    Spot: switch_reasons,
    Pull: switch_reasons,
    RedFlag: spend_reasons,
    FlyingSwitch: spend_reasons,
    Hold: hold_reasons,
    Attack: attack_reasons,
}

# The kinds of action that take the turn's one Draw or play, which the Switch option excludes.
_DRAW_OR_PLAY = (Draw, Play, Attack)


def _end_turn(game: RulesContext, action: EndTurn) -> None:
    perform_end_turn(game, action)
    turn_ended(game, action.player)  # attacks in force count down


# What carries out each kind of action (``perform``), as ``_JUDGES`` judges it.
_PERFORMERS: dict[type[Action], Callable[[RulesContext, Any], None]] = {
    ChooseGrade: perform_grade,
    Draw: perform_draw,
    Discard: perform_discard,
    Play: perform_play,
    SortCars: perform_sort,
    Spot: perform_switch,
    Pull: perform_switch,
    RedFlag: perform_spend,
    FlyingSwitch: perform_spend,
    Hold: perform_hold,
    Attack: perform_attack,
    Answer: perform_response,
    Decline: perform_response,
    EndTurn: _end_turn,
}


def _kind(table: Mapping[type[Action], T], action: Action) -> T | None:
    """The entry of ``table`` for ``action``'s class (callers look that up
    first themselves: it is nearly always there), or for the nearest of
    its bases that has one (a subclass of an action is judged as that action,
    as an isinstance test would); None when no class of it has one."""
    return next((table[base] for base in type(action).__mro__ if base in table), None)


def reasons(game: RulesContext, action: Action) -> list[Reason]:
    """Every reason ``action`` is refused; input that names nothing real is
    an InvalidActionError, raised once, here, before any rule is asked."""
    check_well_formed(game, action)
    return judged(game, action)


def judged(game: RulesContext, action: Action, *, verdict: bool = False) -> list[Reason]:
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
            return [
                Reason(
                    "setup-unfinished", f"setup is not finished: the uphill direction of the {terrain(game, s.pending_grades[0]).name} at Mainline position {s.pending_grades[0]} must be chosen first"
                )
            ]
        return grade_reasons(game, action)
    if isinstance(action, ChooseGrade):
        return [Reason("grades-chosen", "every grade direction was chosen at setup")]
    # An attack's response window: its answers, and nothing else while open.
    # With no attack in play (nearly always) only an answer is its business
    # (response_reasons says so first); that is asked here to spare the call.
    if s.attack is not None or isinstance(action, RESPONSES):
        window = response_reasons(game, action)
        if window is not None:
            return window
    found: list[Reason] = []
    if action.player != s.current:
        found.append(Reason("not-your-turn", f"it is player {s.current}'s turn, not player {action.player}'s"))
    if s.turn.switched and isinstance(action, _DRAW_OR_PLAY):
        switched = Reason("switch-option-taken", "this turn took the Switch option, so it cannot also draw or play")
        if verdict:
            return [switched]
    else:
        switched = None
    if verdict and isinstance(action, Play):
        # what refuses any card from the hand (played already, discarded
        # this turn) is the usual refusal, and far cheaper than a placement;
        # then the rest of play_reasons, without asking the hand again
        played = known_card(game, action.card)
        early = from_hand_reasons(game, action.player, played)
        if early:
            return early
        found += played_card_reasons(game, played, action, verdict=True)
    else:
        judge = _JUDGES.get(type(action)) or _kind(_JUDGES, action)
        if judge is not None:
            found += judge(game, action)
    if switched is not None:
        found.append(switched)
    return found


def perform(game: RulesContext, action: Action) -> None:
    """Carry out ``action``, already judged legal."""
    carry_out = _PERFORMERS.get(type(action)) or _kind(_PERFORMERS, action)
    if carry_out is not None:
        carry_out(game, action)
