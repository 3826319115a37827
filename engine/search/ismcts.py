"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS;
Cowling, Powley and Whitehouse, 2012), for any pack's game.

The player to act cannot see the others' hands, so the tree is not of
positions but of what that player knows: each iteration deals the hidden
cards afresh (``game.determinized``), walks the one tree of action
sequences restricted to the actions legal in that deal, adds one node, plays
on with the pack's playout policy for a few actions, and credits every node
on the way with the win share its mover is expected to get. A node counts
how often it was *available* (legal in the deal at hand) as well as how
often it was chosen, and UCB1 weighs by the former, since an action legal in
few deals is seldom in a position to be chosen.

A pack supplies its ``Guide``: the playout policy (its greedy bot, or a
cheaper one), how many playout actions to take before reading the value,
the value itself (each seat's expected win share, from 0 to 1), and which
decisions are worth a search at all. Every draw comes from one stream seeded
from the game's bot stream, so a game played with this bot replays from its
seed and its actions like any other. Nothing here names a game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, Self, TypeVar

from engine.rng import SeededStream


class SearchableGame(Protocol):
    """What the search reads of a game: the uniform API, a copy with the
    hidden cards dealt afresh, and the game's own bot stream."""

    bot: SeededStream

    @property
    def to_act(self) -> int | None: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def check(self, action: Any) -> Sequence[Any]: ...

    def apply(self, action: Any) -> None: ...

    def is_over(self) -> bool: ...

    def score(self) -> list[int]: ...

    def determinized(self, stream: SeededStream) -> Self: ...


G = TypeVar("G", bound=SearchableGame)


def win_shares(scores: Sequence[int]) -> list[float]:
    """Each seat's share of the win: the top score wins, and seats tied on it
    share the win equally."""
    top = max(scores)
    winners = sum(1 for s in scores if s == top)
    return [1.0 / winners if s == top else 0.0 for s in scores]


def value_of_margins(margins: Sequence[float], spread: float) -> list[float]:
    """Expected win shares from each seat's standing (points ahead, or a
    pack's estimate of them): a softmax, ``spread`` points being the
    difference that makes one seat e (2.7) times likelier to win than another.
    A pack's ``Guide.value`` may build on it."""
    top = max(margins)
    weights = [math.exp((m - top) / spread) for m in margins]
    total = sum(weights)
    return [w / total for w in weights]


@dataclass(frozen=True)
class Guide(Generic[G]):
    """What a pack tells the search about its game.

    - ``playout``: the action a playout takes (a pack's greedy bot, say);
    - ``horizon``: playout actions taken before the value is read, and
      then more until ``settled`` says the position can be judged (a trick
      half played cannot); the end of the game reads the real win shares;
    - ``value``: each seat's expected win share (0 to 1) in a position the
      playout stopped in before the end;
    - ``searched``: whether a decision is worth a search; the others are
      the playout policy's;
    - ``shortlist``: the actions a search weighs, best first by the pack's
      own judgement (None: every legal action, in the game's order). The
      search takes the action chosen most often, then of the best mean, then
      the earliest: where the deals cannot tell actions apart, the pack's
      first choice stands.
    """

    playout: Callable[[G], Any]
    horizon: int
    value: Callable[[G], Sequence[float]]
    searched: Callable[[G], bool] = lambda game: True
    settled: Callable[[G], bool] = lambda game: True
    shortlist: Callable[[G], Sequence[Any]] | None = None


@dataclass(frozen=True)
class Budget:
    """How hard the bot searches: ``iterations`` deals of the hidden cards
    a decision, and UCB1's ``exploration`` constant (rewards are win shares,
    from 0 to 1)."""

    iterations: int
    exploration: float = 0.7


class _Node:
    """One action sequence from the decision searched: who chose its last
    action, what that earned them, and how often it was chosen and legal."""

    __slots__ = ("player", "visits", "reward", "available", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[Hashable, _Node] = {}


def choose(game: G, guide: Guide[G], budget: Budget) -> Any:
    """The action the search takes for the player to act in ``game``."""
    if not guide.searched(game):
        return guide.playout(game)
    legal = game.legal_actions() if guide.shortlist is None else guide.shortlist(game)
    if len(legal) <= 1:
        return legal[0] if legal else None
    stream = SeededStream(game.bot.below(2**62), "ismcts")
    root = _Node(-1)
    weighed = None if guide.shortlist is None else legal
    for _ in range(budget.iterations):
        _iterate(game.determinized(stream), root, guide, budget.exploration, stream, weighed)
    best = legal[0]
    for action in legal[1:]:
        if _visits(root, action) > _visits(root, best):
            best = action
    return best


def _visits(node: _Node, action: Hashable) -> tuple[int, float]:
    """How often the root's ``action`` was chosen, then its mean reward."""
    child = node.children.get(action)
    return (0, 0.0) if child is None else (child.visits, child.reward / child.visits)


def _iterate(deal: G, root: _Node, guide: Guide[G], exploration: float, stream: SeededStream, shortlist: Sequence[Any] | None) -> None:
    """One iteration on one deal: select, expand one node, play out, credit.
    At the root, only the ``shortlist`` is weighed (those of it legal in
    this deal), when there is one."""
    path: list[_Node] = []
    node = root
    while not deal.is_over():
        legal = deal.legal_actions() if node is not root or shortlist is None else [action for action in shortlist if not deal.check(action)]
        if not legal:
            break
        mover = deal.to_act
        assert mover is not None, "a game that is not over has a player to act"
        untried = []
        best: Any = None
        best_score = -math.inf
        for action in legal:
            child = node.children.get(action)
            if child is None:
                untried.append(action)
                continue
            child.available += 1
            if not untried:
                score = child.reward / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)
                if score > best_score:
                    best, best_score = action, score
        if untried:
            action = untried[stream.below(len(untried))] if len(untried) > 1 else untried[0]
            child = node.children[action] = _Node(mover)
            child.available = 1
            deal.apply(action)
            path.append(child)
            break
        node = node.children[best]
        deal.apply(best)
        path.append(node)
    taken = 0
    while not deal.is_over() and (taken < guide.horizon or not guide.settled(deal)):
        taken += 1
        action = guide.playout(deal)
        if action is None:
            break
        deal.apply(action)
    shares = win_shares(deal.score()) if deal.is_over() else guide.value(deal)
    for visited in path:
        visited.visits += 1
        visited.reward += shares[visited.player]
