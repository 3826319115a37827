"""Trick of the Rails' search rungs (``pimc-N``): flat Monte Carlo over
deals of the hidden cards, at the decision at hand only (perfect-information
Monte Carlo, PIMC).

The greedy bot names the few actions worth weighing (its pick and its next
best). Then, ``N`` times, the cards the player cannot see are dealt afresh
(``Game.determinized``) and each of those actions is tried on that deal and
played out to the end of the game, every seat taking any legal action
uniformly. The action with the most wins over the ``N`` deals is taken;
on a tie, greedy's pick stands.

Why this and not a tree over greedy's judgement of the next trick: a game is
eleven tricks, and what a card or a placement is worth shows mostly in how
the railways and shares stand at the end. A judgement after one trick is
greedy's own, so a search that reads it agrees with greedy (the earlier
``ismcts-10``/``ismcts-30`` rungs did, within chance). A random playout of
a whole game costs well under a millisecond, so many whole games are cheaper
than a few greedy ones, and the real win shares at their end carry what the
one-trick judgement misses. Every action of one deal is played out with the
same draws (common random numbers), so their totals differ by what the
actions do rather than by the luck of the playout.

Every draw comes from one stream seeded from the game's bot stream, so a game
with these rungs replays from its seed and actions like any other.

Measured with ``bench/ladder.py`` (seed 26, 200 deals, each from every
seat; win share less the fair share, 95% interval): at 4 players
``pimc-12`` over greedy +0.061 [+0.031, +0.091] and ``pimc-48`` over
``pimc-12`` +0.030 [+0.003, +0.058], at 0.74 and 2.3 CPU-s a game with the
rung in every seat; at 3 players ``pimc-12`` over greedy +0.028 [-0.007,
+0.063] and ``pimc-48`` over ``pimc-12`` +0.034 [-0.001, +0.068], steps not
yet beyond chance. The earlier ISMCTS rungs over greedy
were -0.016 [-0.075, +0.043] at 4 players. A 40-deal screen at 4 players
found no gain in leaving the railway ends (``LayTrack``) to greedy or in
adding the score margin to the win as a reward."""

from __future__ import annotations

from engine.rng import SeededStream
from engine.search.outcome import win_shares
from engine.trickoftherails.bots import _after, _best, _play_values
from engine.trickoftherails.rules.actions import Action, Play
from engine.trickoftherails.rules.game import Game

# Actions a search weighs: the greedy bot's pick and its next best. Greedy's
# third choice is seldom the best, and each one more costs a playout a deal.
SHORTLIST = 3


def shortlist(game: Game, width: int = SHORTLIST) -> list[Action]:
    """The greedy bot's pick first (on a copy, so the game's bot stream is
    left to the search), then its next best by the same values, ``width``
    in all."""
    legal = game.legal_actions()
    if len(legal) <= 1:
        return legal
    twin = game.copy()
    me = legal[0].player
    values = _play_values(twin, me, legal) if isinstance(legal[0], Play) else [_after(twin, me, action) for action in legal]
    first = _best(twin.bot, legal, values)
    ranked = sorted(range(len(legal)), key=lambda i: -values[i])
    return [first, *[legal[i] for i in ranked if legal[i] != first]][:width]


def playout(game: Game, stream: SeededStream) -> None:
    """Play ``game`` to its end, every seat taking any legal action
    uniformly from ``stream``."""
    while not game.is_over():
        action = game.random_legal_action(stream)
        assert action is not None, "a game that is not over always has a legal action"
        game.apply(action)


def choose_searching(game: Game, deals: int, width: int = SHORTLIST) -> Action:
    """The action of ``width`` shortlisted ones that wins most often over
    ``deals`` deals of the hidden cards, each played out to the end (see
    the module's docstring)."""
    legal = game.legal_actions()
    assert legal, "a game that is not over always has a legal action"
    if len(legal) == 1:
        return legal[0]
    candidates = shortlist(game, width)
    stream = SeededStream(game.bot.below(2**62), "pimc")
    me = legal[0].player
    wins = [0.0] * len(candidates)
    for _ in range(deals):
        deal = game.determinized(stream)
        # One seed for every action's playout on this deal: the same draws.
        seed = stream.below(2**62)
        for i, action in enumerate(candidates):
            twin = deal.copy()
            twin.apply(action)
            playout(twin, SeededStream(seed, "rollout"))
            wins[i] += win_shares(twin.score())[me]
    best = 0
    for i in range(1, len(candidates)):
        if wins[i] > wins[best] + 1e-9:
            best = i
    return candidates[best]
