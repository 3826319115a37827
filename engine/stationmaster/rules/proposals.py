"""Proposing actions: what this point of the turn could allow. ``check`` still
judges every proposal, so this is a shortcut, not a second copy of the rules.
The order of the proposals is part of the game (a seeded bot picks from it)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Protocol

from engine.stationmaster.content.model import Card, Enhancement, Facility, FacilityModifier, MainlineModifier, OpponentCard, SecondSection, TrackShape, TrainCard
from engine.stationmaster.rules.actions import Action, ChooseGrade, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, RedFlag, SortCars, Spot
from engine.stationmaster.rules.district import open_ends, placement_candidates
from engine.stationmaster.rules.hand import must_play, over_limit
from engine.stationmaster.rules.held import held_card, spent_by
from engine.stationmaster.rules.inputs import HEADINGS
from engine.stationmaster.rules.lookups import terrain
from engine.stationmaster.rules.response import answering, attack_candidates, response_candidates
from engine.stationmaster.rules.switching import reachable, train_district

if TYPE_CHECKING:
    from engine.rng import SeededStream
    from engine.stationmaster.rules.context import PlayRun, RulesContext


def candidates(game: RulesContext) -> list[Action]:
    """Every proposal, in order (what ``legal_actions`` judges, and a greedy
    bot ranks)."""
    return proposals(game).materialised()


class Drawable(Protocol):
    """What ``Game.first_legal`` draws from besides ``Proposals``: a list of
    proposals (a greedy bot's proposals of one rank)."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int) -> Action: ...

    def __setitem__(self, i: int, action: Action) -> None: ...

    def pop(self) -> Action: ...


class Proposals:
    """The proposals of one position as a list whose items are built only
    when asked for: a run of proposals of one shape (a card's placements, its
    discards) is held as a count and a maker of its k-th item. A random pick
    draws an index, judges that proposal and usually stops there, so the
    dozens it never looks at are never built.

    It is the list ``candidates`` returns, item for item, and ``first_legal``
    draws from it as ``Game.first_legal`` draws from a list (draw an index,
    judge, put the last item in the place of a refused one, drop the last):
    a seeded pick draws the same numbers from its stream, and picks the same
    action, from either."""

    __slots__ = ("_ends", "_makers", "_moved", "_size")

    def __init__(self) -> None:
        self._ends: list[int] = []  # where each run ends (exclusive)
        self._makers: list[Callable[[int], Action]] = []
        # The places a refused item left, each holding the item that was last
        # then (by its place as first added): it is built only if drawn there.
        self._moved: dict[int, int] = {}
        self._size = 0

    def add(self, count: int, make: Callable[[int], Action]) -> None:
        """A run of ``count`` proposals, the k-th being ``make(k)``."""
        if count > 0:
            self._size += count
            self._ends.append(self._size)
            self._makers.append(make)

    def extend(self, actions: Sequence[Action]) -> None:
        """A run of proposals already built."""
        self.add(len(actions), actions.__getitem__)

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, i: int) -> Action:
        if i < 0:
            i += self._size
        if not 0 <= i < self._size:
            raise IndexError(i)
        j = self._moved.get(i, i)
        run = bisect_right(self._ends, j)
        return self._makers[run](j - self._ends[run - 1] if run else j)

    def first_legal(self, refused: Callable[[Action], object], stream: SeededStream) -> Action | None:
        """``Game.first_legal`` on this pool, item for item and draw for draw
        (draw an index below the size, judge that proposal, put the last one
        in its place if refused, draw again), with the dropping done here:
        a refused item's place takes the last item's place as first added,
        so nothing is built to be moved. ``refused`` says whether an action
        is refused (any true value: its reasons)."""
        below, ends, makers, moved = stream.below, self._ends, self._makers, self._moved
        n = self._size
        while n:
            i = below(n) if n > 1 else 0
            j = moved.get(i, i)
            run = bisect_right(ends, j)
            action = makers[run](j - ends[run - 1] if run else j)
            if not refused(action):
                self._size = n
                return action
            n -= 1
            last = moved.pop(n, n)
            if i != n:
                moved[i] = last
        self._size = 0
        return None

    def materialised(self) -> list[Action]:
        """Every proposal still in the pool, in order, built."""
        if self._moved:
            return [self[i] for i in range(self._size)]
        return [make(k) for _, count, make in self.runs() for k in range(count)]

    def runs(self) -> Iterator[tuple[int, int, Callable[[int], Action]]]:
        """Each run as it was added: the place of its first proposal, how
        many, and the maker of the k-th. A run is proposals of one shape (a
        card's places, its discards onto each Department, a train's moves to
        one square) or a list added whole. Only for a pool nothing has been
        drawn from."""
        if self._moved or (self._ends and self._ends[-1] != self._size):
            raise ValueError("the runs of a pool already drawn from")
        start = 0
        for end, make in zip(self._ends, self._makers):
            yield start, end - start, make
            start = end


def proposals(game: RulesContext) -> Proposals:
    """What this point of the turn could allow, unbuilt (see ``Proposals``);
    ``check`` judges each. Built in this order, which is part of the game."""
    s = game.state
    pool = Proposals()
    if s.phase == "over":
        return pool
    if s.phase == "setup":
        pool.extend([ChooseGrade(0, slot=i, uphill=h) for i in s.pending_grades[:1] for h in HEADINGS])
        return pool
    if answering(s) is not None:
        pool.extend(response_candidates(game))
        return pool
    p = s.current
    turn = s.turn
    fresh = not (turn.drawn or turn.played)
    departments = len(s.departments)
    add = pool.add
    kept = game.kept_proposals
    makers = kept.makers.get(p)
    if makers is None:
        makers = kept.makers[p] = (partial(_draw, p), partial(_end_turn, p))
    if fresh:
        add(1 + departments, makers[0])
    may_discard = over_limit(game, p) or (turn.drawn and not turn.played and not turn.discarded)
    may_play = not turn.played or must_play(game, p)
    ends = open_ends(game, s.districts[p]) if may_play else set()
    by_id = game.catalog.by_id
    discards = kept.discards.get(p)
    if discards is None:
        discards = kept.discards[p] = {}
    plays = kept.plays.get(p)
    if plays is None:
        plays = kept.plays[p] = {}
    for card_id in sorted(set(s.hands[p])):
        card = by_id[card_id]
        if may_discard:
            discard = discards.get(card_id)
            if discard is None:
                discard = discards[card_id] = partial(_discard, p, card_id)
            add(departments, discard)
        if may_play:
            run = plays.get(card_id)
            if run is None or (run[0] is not _LASTING and run[0] is not ends):
                run = _play_run(game, p, card, ends)
                if run[0] is not None:  # a run worth keeping (see _play_run)
                    plays[card_id] = run
            add(run[1], run[2])
            if isinstance(card, OpponentCard):
                pool.extend(attack_candidates(game, p, card))
        if s.trains and getattr(card, "effect", None) is not None and spent_by(game, card) is RedFlag:
            pool.extend([RedFlag(p, train=t.id) for t in s.trains])
    if fresh and s.trains:
        _train_proposals(game, pool, p)
    add(1, makers[1])
    return pool


def _draw(p: int, k: int) -> Action:
    """The deck (k = 0), then each Department by its number."""
    return Draw(p, str(k) if k else "deck")


def _discard(p: int, card_id: str, k: int) -> Action:
    return Discard(p, card_id, k + 1)


def _end_turn(p: int, k: int) -> Action:
    return EndTurn(p)


def _train_proposals(game: RulesContext, pool: Proposals, p: int) -> None:
    """Sorting, switching and holding trains: only at the start of a turn.
    A train's moves to one square (set out each count of rear cars, the
    caboose alone if it has one, couple up) are one run."""
    s = game.state
    sorts: list[Action] = []
    for t in s.trains:
        slot = s.mainline[t.position]
        at_interchange = slot.kind == "terrain" and terrain(game, t.position).yard
        in_yard = slot.kind == "office" and slot.player == p and t.remaining == 0
        if (at_interchange or in_yard) and len(t.cars) > 1:
            sorts.append(SortCars(p, train=t.id, order=tuple(reversed(range(len(t.cars))))))
    pool.extend(sorts)
    kicks = held_card(game, p, FlyingSwitch) is not None
    for t in s.trains:
        district = train_district(game, t)
        if district is None or district.player != p:
            continue
        cars, caboose = len(t.cars), bool(t.caboose)
        for where in sorted(reachable(game, district)):
            x, y = (int(v) for v in where.split(","))
            pool.add(cars + caboose + 1, partial(_switch_move, p, t.id, x, y, cars, caboose))
        if t.player == p:
            pool.extend([Hold(p, train=t.id)])
        if kicks and t.cars:
            kicked = []
            for where in sorted(reachable(game, district, kick=True)):
                x, y = (int(v) for v in where.split(","))
                kicked.append(FlyingSwitch(p, train=t.id, x=x, y=y))
            pool.extend(kicked)


def _switch_move(p: int, train: str, x: int, y: int, cars: int, caboose: bool, k: int) -> Action:
    """The k-th move of a train to (x, y): set out its rearmost k + 1 cars
    (every count of them), then its caboose alone if it has one, then couple
    up what stands there."""
    if k < cars:
        return Spot(p, train=train, x=x, y=y, cars=k + 1)
    if caboose and k == cars:
        return Spot(p, train=train, x=x, y=y, cars=0, caboose=True)
    return Pull(p, train=train, x=x, y=y)


# The key of a run of play proposals that never goes stale (an Extra's
# starts, a Mainline card's terrain slots: the Mainline is laid at setup).
_LASTING = object()


def _play_run(game: RulesContext, p: int, card: Card, ends: set[tuple[int, int]]) -> PlayRun:
    """The ways worth proposing to play ``card`` (where it could go, by kind)
    as a run. Asked for every card in hand at every proposal, so ``proposals``
    keeps a run on the game while what it was made from stands: a district
    card's places while the district's open ends are the same set
    (``open_ends`` makes a new one whenever a card is placed there). A Second
    Section's run follows the timetable, and a district Enhancement's which
    squares carry one already: those are made afresh each time."""
    s = game.state
    if isinstance(card, TrainCard) and card.service == "extra":
        return _LASTING, 2 * len(s.mainline), partial(_extra_start, p, card.id)
    if isinstance(card, MainlineModifier) or (isinstance(card, Enhancement) and card.placement == "mainline"):
        terrain_slots = [i for i, slot in enumerate(s.mainline) if slot.kind == "terrain"]
        return _LASTING, len(terrain_slots), partial(_on_slot, p, card.id, terrain_slots)
    if isinstance(card, SecondSection):
        due = s.timetable[s.stage - 1]
        return (None, 1, partial(_following, p, card.id, due)) if due is not None else (None, 0, partial(_plain, p, card.id))
    if isinstance(card, (TrackShape, Facility, FacilityModifier)) or (isinstance(card, Enhancement) and card.placement == "district"):
        places = placement_candidates(game, p, card, ends)
        return (None if isinstance(card, Enhancement) else ends), len(places), partial(_placed, p, card.id, places)
    return _LASTING, 1, partial(_plain, p, card.id)


def _plain(p: int, card_id: str, k: int) -> Action:
    return Play(p, card_id)


def _following(p: int, card_id: str, train: str, k: int) -> Action:
    """A Second Section following the train due out."""
    return Play(p, card_id, train=train)


def _extra_start(p: int, card_id: str, k: int) -> Action:
    """An Extra from Mainline position k // 2, heading east (even k) or west."""
    return Play(p, card_id, slot=k >> 1, heading=HEADINGS[k & 1])


def _on_slot(p: int, card_id: str, slots: list[int], k: int) -> Action:
    return Play(p, card_id, slot=slots[k])


def _placed(p: int, card_id: str, places: list[tuple[int, int, int]], k: int) -> Action:
    x, y, rotation = places[k]
    return Play(p, card_id, x=x, y=y, rotation=rotation)
