"""Station Master's search rungs: a race, on shared deals of the hidden
cards, between the greedy bot's own pick and its next best actions.

At each decision of the local phase the greedy bot's pick and the best of
each other card or kind it ranks (``shortlist``) are tried on the same deals
(``Game.determinized``): each action on its own copy of one deal, streams
and all, so any difference in what follows comes from the action and not
from the luck of the draw (common random numbers). A greedy playout follows
each, on to the start of a turn at least ``horizon`` actions later, and
there the margin over the best rival is read from each seat's *potential*:
its score plus the points its board has all but earned (loads in an
industry's pipeline, loads standing at an industry that takes them, cars it
loaded that are on their way to a Division Point, loads waiting for a car).
The score alone barely moves in a dozen actions (a load earns only once it
is worked through three boxes or reaches a Division Point), so it could not
tell the actions apart; the potential moves the moment a load is spotted.

The greedy bot's pick stands unless another action beats it clearly: by
``edge`` points on average and ``z`` standard errors of the paired
differences. After ``first_cut`` deals an action clearly behind is dropped,
and where no deal has told any action apart the search stops. Greedy ranks
are fixed, so a pick that is wrong is wrong the same way on every deal: the
paired differences find it in a few deals, where a fresh deal for every
action (ISMCTS, flat Monte Carlo without pairing) drowned it in the deals'
own luck.

Measured with ``bench/ladder.py``'s paired design (seed 26, 2 players, each
deal from both seats): ``paired-8`` over greedy +0.034 [95% -0.001,
+0.069] on 200 deals (+0.037 [+0.002, +0.071] on 204), at 5.5 CPU-s a game
with it in both seats: ahead of greedy, on the edge of significance
there, and beyond it on the Simulation page's 300 deals. Twice the deals
(``Rung(16)``, 7.2 CPU-s a game) gained nothing over ``paired-8``:
-0.006 [-0.026, +0.014]. Playouts twice as long did: ``deep-6`` (6 deals,
``horizon`` 24) over ``paired-8`` +0.056 [+0.022, +0.090], at 8.1 CPU-s
a game. So what a dozen greedy actions cannot see, not the luck of too
few deals, was what held the search back. What was tried and failed, on
40 deals from both seats against greedy: the shared ISMCTS at turn starts, 8 deals,
reading the score (-0.043 on 100 deals) or the potential (+0.031
[-0.060, +0.122]); unpaired flat Monte Carlo at turn starts over the three
best, 2 or 4 deals and 6 actions (-0.006, +0.000), 12 actions (-0.094
[-0.194, +0.007]), or played to the end (-0.113 [-0.199, -0.026]: on two
deals the best of three is mostly luck, and greedy's draw was the better
one); the same at every own decision, 2 or 4 deals (+0.044, +0.031, not
significant)."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.rng import SeededStream
from engine.stationmaster.content.model import Facility
from engine.stationmaster.rules.actions import Action

if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game
    from engine.stationmaster.rules.state import Car

# What a load not yet scored is worth, as a share of the points it earns
# once home: one in a pipeline is worked through for certain (barring an
# attack), one standing at an industry that takes it goes in at the end of
# the turn if there is room, one a district loaded has a train's run still
# to make, and a load waiting at an industry needs an empty car first.
IN_PIPELINE = 1.0
AT_INDUSTRY = 0.8
SHIPPED = 0.7
WAITING = 0.3


@dataclass(frozen=True)
class Rung:
    """A search rung's budget: ``deals`` of the hidden cards at most a
    decision, greedy playouts of ``horizon`` actions at least, up to ``size``
    actions weighed; the race's first cut after ``first_cut`` deals, and
    what counts as clearly better (``edge`` points, ``z`` standard errors)."""

    deals: int
    horizon: int = 12
    size: int = 4
    first_cut: int = 3
    z: float = 2.0
    edge: float = 0.2


def playout(game: Game) -> Action | None:
    from engine.stationmaster.bots import greedy_bot

    return greedy_bot(game)


def potential(game: Game) -> list[float]:
    """Each seat's score plus what its board has all but earned (see the module)."""
    s = game.state
    scoring = game.catalog.game.scoring
    by_id = game.catalog.by_id
    categories = game.catalog.supplies.car_categories
    found = [float(x) for x in s.scores]

    def shipped(cars: list[Car]) -> None:
        for car in cars:
            if car.loaded and car.shipper is not None and categories.get(car.type) == "freight":
                found[car.shipper] += SHIPPED * scoring.load_delivered

    for district in s.districts:
        p = district.player
        for square in district.squares.values():
            if square.kind == "facility":
                card = by_id[square.card]
                found[p] += IN_PIPELINE * scoring.load_worked * sum(square.pipeline)
                if isinstance(card, Facility):
                    if card.traffic != "outbound":
                        taken = sum(1 for car in square.cars if car.loaded and car.shipper != p and car.type in card.car_types and car.commodity in (None, card.commodity))
                        found[p] += AT_INDUSTRY * scoring.load_worked * taken
                    found[p] += WAITING * scoring.load_delivered * square.waiting
            shipped(square.cars)
    for train in s.trains:
        shipped(train.cars)
    return found


def _group(action: Action) -> object:
    """What makes two actions one choice for the shortlist: a Play or a
    Discard is its card's (wherever it goes), any other action its own."""
    card = getattr(action, "card", None)
    return action if card is None else (type(action).__name__, card)


def shortlist(game: Game, size: int) -> list[Action]:
    """The greedy bot's own pick first (drawn from a copy's bot stream, so
    the game's is left to the search), then the best-ranked legal action of
    each other card or kind, best first, none ranked below ending the turn."""
    from engine.stationmaster.bots import greedy_bot, greedy_value
    from engine.stationmaster.bots.greedy import extra_loads
    from engine.stationmaster.rules.proposals import candidates

    first = greedy_bot(game.copy())
    if first is None:
        return []
    found = [first]
    groups = {_group(first)}
    ranked: dict[int, list[Action]] = {}
    for action in candidates(game) + extra_loads(game):
        ranked.setdefault(greedy_value(game, action), []).append(action)
    for value in sorted(ranked, reverse=True):
        for action in ranked[value]:
            if len(found) >= size or value < 0:
                return found
            group = _group(action)
            if group not in groups and not game.check(action):
                groups.add(group)
                found.append(action)
    return found


def turn_start(game: Game) -> bool:
    """Whether a turn is about to start: nothing drawn, played, let go or
    moved yet in the local phase."""
    s = game.state
    if s.phase != "local":
        return False
    turn = s.turn
    return not (turn.drawn or turn.played or turn.discarded or turn.switched)


def margin_after(game: Game, me: int, horizon: int) -> float:
    """``me``'s potential less the best rival's, after a greedy playout of
    ``horizon`` actions and on to the start of a turn (the real score at
    the end of the game)."""
    taken = 0
    while not game.is_over() and (taken < horizon or not turn_start(game)):
        taken += 1
        action = playout(game)
        if action is None:
            break
        game.apply(action)
    points = [float(x) for x in game.score()] if game.is_over() else potential(game)
    return points[me] - max((p for i, p in enumerate(points) if i != me), default=0.0)


def choose_searching(game: Game, rung: Rung) -> Action | None:
    """The rung's action: greedy's pick unless the race finds a clearly
    better one (see the module). Every draw comes from a stream seeded from
    the game's bot stream, so a game replays from its seed and actions."""
    if game.state.phase != "local":
        return playout(game)
    weighed = shortlist(game, rung.size)
    if len(weighed) <= 1:
        return weighed[0] if weighed else None
    me = game.to_act
    stream = SeededStream(game.bot.below(2**62), "race")
    diffs: dict[int, list[float]] = {i: [] for i in range(1, len(weighed))}
    for dealt in range(1, rung.deals + 1):
        deal = game.determinized(stream)
        if deal.check(weighed[0]):
            continue
        first = deal.copy()
        first.apply(weighed[0])
        base = margin_after(first, me, rung.horizon)
        for i, found in diffs.items():
            if not deal.check(weighed[i]):
                trial = deal.copy()
                trial.apply(weighed[i])
                found.append(margin_after(trial, me, rung.horizon) - base)
        if dealt >= rung.first_cut:
            if not any(any(found) for found in diffs.values()):
                return weighed[0]
            diffs = {i: found for i, found in diffs.items() if not _clearly(found, rung.z, 0.0, below=True)}
            if not diffs:
                return weighed[0]
    best, best_mean = 0, rung.edge
    for i, found in diffs.items():
        if _clearly(found, rung.z, rung.edge) and statistics.fmean(found) > best_mean:
            best, best_mean = i, statistics.fmean(found)
    return weighed[best]


def _clearly(found: list[float], z: float, edge: float, *, below: bool = False) -> bool:
    """Whether paired differences are clearly above ``edge`` (or, ``below``,
    clearly below zero): their mean ``z`` standard errors beyond it."""
    if len(found) < 2:
        return False
    mean, error = statistics.fmean(found), z * statistics.stdev(found) / math.sqrt(len(found))
    return mean + error < 0 if below else mean > edge and mean - error > 0
