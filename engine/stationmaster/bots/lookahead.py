"""The lookahead bot: Monte Carlo over determinized hidden information.

At a decision with more than one sensible legal action, it takes the few the
greedy heuristic ranks best and tries each on copies of the game in which
what the player cannot see is dealt afresh (``Game.determinized``: the deck's
order, the rivals' hands, the rules' later shuffles and die rolls), playing
each copy on with the greedy bot to the end of the game and scoring the
player's points ahead of the best rival's. The action with the best average
is taken; the same deals serve every candidate, so the comparison is of the
actions, not of the luck. Every draw comes from the game's bot stream, so the
same seed plays the same game. It reads the game only through its API
(``legal_actions``, ``check``, ``apply``, ``copy``, ``determinized``,
``score``) and the greedy heuristic's ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from engine.rng import SeededStream
from engine.stationmaster.rules.actions import Action

if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game


@dataclass(frozen=True)
class Lookahead:
    """How hard the bot looks: ``candidates`` actions tried at a decision,
    each over ``deals`` determinized copies; another action is taken over the
    greedy bot's first choice only when it does better on average by at least
    ``margin`` points (a few deals are noisy, and the best of several noisy
    averages flatters the action it belongs to).

    The defaults were chosen by measurement (2-player games against greedy,
    seeds 0 to 4, each seat once): three deals and a margin of 0.5 won 6 of
    10 by a mean of 0.1 points; six deals and a margin of 0.3 won 7 of 10 by
    a mean of 1.7 points, for twice the CPU time. ``bench/`` measures both."""

    candidates: int = 3
    deals: int = 6
    margin: float = 0.3


DEFAULT: Final = Lookahead()


def _ranked(game: Game) -> list[Action]:
    """The legal actions, best greedy rank first (ties in the bot stream's order)."""
    from engine.stationmaster.bots import greedy_value
    from engine.stationmaster.bots.greedy import extra_loads
    from engine.stationmaster.rules.proposals import candidates

    ranked: dict[int, list[Action]] = {}
    for action in candidates(game) + extra_loads(game):
        ranked.setdefault(greedy_value(game, action), []).append(action)
    found: list[Action] = []
    for value in sorted(ranked, reverse=True):
        pool = ranked[value]
        game.bot.shuffle(pool)
        found += [a for a in pool if a not in found and not game.check(a)]
    return found


def _worth(game: Game, player: int) -> int:
    """The player's score ahead of the best rival's (their own score alone)."""
    scores = game.score()
    rivals = [s for i, s in enumerate(scores) if i != player]
    return scores[player] - (max(rivals) if rivals else 0)


def _play_out(game: Game) -> None:
    from engine.stationmaster.bots import greedy_bot

    while not game.is_over():
        action = greedy_bot(game)
        if action is None:
            return
        game.apply(action)


def _turn_choice(game: Game) -> bool:
    """Whether this is one of the two choices that shape a turn: how it
    starts (a Draw, and from where, or a switching move, a Hold, a Red Flag),
    or, after a Draw, which card is played or let go. Every other decision
    (the moves after the first, ending the turn, the grade at setup) is the
    greedy bot's."""
    s = game.state
    if s.phase != "local":
        return False
    turn = s.turn
    fresh = not (turn.drawn or turn.played or turn.discarded or turn.switched)
    return fresh or (turn.drawn and not turn.played and not turn.discarded)


def choose(game: Game, plan: Lookahead = DEFAULT) -> Action | None:
    """The action the lookahead bot takes now."""
    ranked = _ranked(game)
    if len(ranked) <= 1 or not _turn_choice(game):
        return ranked[0] if ranked else None
    tried = ranked[: plan.candidates]
    player = game.to_act
    deals = [game.bot.below(2**62) for _ in range(plan.deals)]
    means = []
    for action in tried:
        total = 0
        for deal in deals:
            twin = game.determinized(SeededStream(deal, "lookahead"))
            twin.apply(action)
            _play_out(twin)
            total += _worth(twin, player)
        means.append(total / len(deals))
    chosen = tried[0]
    best = means[0] + plan.margin
    for action, mean in zip(tried[1:], means[1:]):
        if mean >= best:
            chosen, best = action, mean
    return chosen
