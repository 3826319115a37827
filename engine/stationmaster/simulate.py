"""Many seeded solitaire games played by a bot, and what they say about the cards.

``simulate(catalog, games=..., seed=..., workers=..., bot=..., house_rules=...)``
plays ``games`` whole solitaire games and returns a :class:`Report`. Game ``i``
(counted from 0) is created with the seed ``game_seed(seed, i)``, that is
``seed * 1_000_003 + i``, so any one game of a report can be replayed alone.
Games are split into chunks of consecutive games, played by ``workers``
processes, and merged back in game order: the same seed gives the same report,
byte for byte, whatever the number of workers.

The bots choose only from the game's bot stream (``game.bot``), never from the
rules' stream, so a bot's game is exactly its seed plus its recorded actions.

- ``random``: uniform among the legal actions (``Game.random_legal_action``).
- ``greedy``: ranks every proposed action with a fixed heuristic (see
  :func:`greedy_value`) and takes a legal one of the best rank, ties broken
  uniformly from ``game.bot``.

What is counted, per card id (every copy of a card counts under its id):

- *drawn*: each time a copy enters a hand: in the opening deal, by a Draw
  from the Home Office deck, by a Draw from a Department (and, should a card
  effect ever put a card into a hand, under *other*);
- *played*: each time a copy leaves a hand by being used: a Play, or an
  action a held card pays for (spending a Red Flag);
- *discarded*: each time a copy leaves a hand by a Discard;
- *held at end*: copies still in a hand when the game ends;
- a *dead draw* is a draw that was never played: the copy was discarded, or
  still held when the game ended. ``dead = discarded + held at end``.

Every draw ends in exactly one of played, discarded or held at end, so for
every card ``drawn == played + discarded + held_at_end`` holds exactly.

``python -m engine.stationmaster.simulate --games 100`` runs the command without the
``stationmaster`` entry point.
"""

from __future__ import annotations

import argparse
import copy
import gc
import math
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from engine.stationmaster.actions import Action, ChooseGrade, Discard, Draw, EndTurn, Hold, Play, Pull, Spot
from engine.stationmaster.content.model import (
    Card,
    Catalog,
    Enhancement,
    Facility,
    FacilityModifier,
    MainlineModifier,
    Maneuver,
    OfficeTier,
    SecondSection,
    TrackShape,
    TrainCard,
)
from engine.errors import ContentError, InvalidActionError, UsageError
from engine.stationmaster.geometry import key
from engine.stationmaster.houserules import HouseRuleValue, configurations, defaults, parse_assignment, resolve

# The rules engine, multiprocessing and json are imported where they are
# used: ``stationmaster`` builds every subcommand's parser on each run, and
# ``validate`` should not pay for loading the game to list its options.
if TYPE_CHECKING:
    from engine.stationmaster.game import Game

BOTS: Final = ("random", "greedy")
MAX_GAMES: Final = 100_000
MAX_WORKERS: Final = 64
MAX_SEED: Final = 2**63 - 1
SEED_STRIDE: Final = 1_000_003
# No legal game comes near this; reaching it means a bot or the engine loops.
MAX_ACTIONS_PER_GAME: Final = 100_000
HISTOGRAM_BINS: Final = 20

# Columns of a card's tally.
_OPENING, _DECK, _DEPARTMENT, _OTHER, _PLAYED, _DISCARDED, _HELD = range(7)
_TALLY_WIDTH: Final = 7

Tally = dict[str, list[int]]
Progress = Callable[[int, int], None]
Bot = Callable[["Game"], "Action | None"]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (from 0) of a simulation seeded ``seed``."""
    return seed * SEED_STRIDE + index


# -- bots ------------------------------------------------------------------------


def random_bot(game: Game) -> Action | None:
    """Uniform among the legal actions, drawn from the game's bot stream."""
    return game.random_legal_action()


_PLAY_VALUES: Final[tuple[tuple[type[Card], int], ...]] = (
    (Facility, 40),
    (OfficeTier, 38),
    (FacilityModifier, 35),
    (TrackShape, 30),
    (TrainCard, 27),
    (Enhancement, 25),
    (MainlineModifier, 15),
    (SecondSection, 15),
    (Maneuver, 10),
)
_DRAW = 50
_DELIVER_SPOT = 60
_DELIVER_PULL = 55
_END_TURN = 0
_WASTED = -10  # a switching move that delivers nothing, a Red Flag, a sort: below ending the turn


def _play_value(card: Card) -> int:
    for kind, value in _PLAY_VALUES:
        if isinstance(card, kind):
            if isinstance(card, TrainCard) and card.service == "extra":
                return value - 1
            return value
    return 10


def _playable(game: Game, player: int, card: Card) -> bool:
    """Whether ``card`` could be played now somewhere (were it in the hand and
    the turn free to play): the card's own rules, not the turn's."""
    from engine.stationmaster.district import placement_candidates
    from engine.stationmaster.rules import card_play_reasons

    if isinstance(card, (TrackShape, Facility, FacilityModifier)) or (isinstance(card, Enhancement) and card.placement == "district"):
        return any(not card_play_reasons(game, card, Play(player, card.id, x=x, y=y, rotation=r)) for x, y, r in placement_candidates(game, player, card))
    if isinstance(card, TrainCard) and card.service == "extra":
        return True
    if isinstance(card, MainlineModifier) or (isinstance(card, Enhancement) and card.placement == "mainline"):
        slots = [i for i, slot in enumerate(game.state.mainline) if slot.kind == "terrain"]
        return any(not card_play_reasons(game, card, Play(player, card.id, slot=i)) for i in slots)
    if isinstance(card, SecondSection):
        due = game.state.timetable[game.state.stage - 1]
        return due is not None and not card_play_reasons(game, card, Play(player, card.id, train=due))
    return not card_play_reasons(game, card, Play(player, card.id))


def _spot_delivers(game: Game, action: Spot) -> bool:
    """Whether the cars set out are ones the Facility there works: loads for
    an inbound industry, empties for an outbound one."""
    from engine.stationmaster.switching import train_district

    train = next((t for t in game.state.trains if t.id == action.train), None)
    district = train_district(game, train) if train is not None else None
    if train is None or district is None or not 1 <= action.cars <= len(train.cars):
        return False
    square = district.squares.get(key(action.x, action.y))
    card = game.catalog.by_id.get(square.card) if square is not None else None
    if square is None or square.kind != "facility" or not isinstance(card, Facility):
        return False
    for car in train.cars[-action.cars :]:
        if car.type not in card.car_types:
            continue
        if car.loaded and card.traffic in ("inbound", "both"):
            return True
        if not car.loaded and card.traffic in ("outbound", "both"):
            return True
    return False


def _pull_delivers(game: Game, action: Pull) -> bool:
    """Whether the cars coupled include loads this district shipped (they
    score when they reach a Division Point)."""
    from engine.stationmaster.switching import train_district

    train = next((t for t in game.state.trains if t.id == action.train), None)
    district = train_district(game, train) if train is not None else None
    if district is None:
        return False
    square = district.squares.get(key(action.x, action.y))
    return square is not None and any(car.loaded and car.shipper == action.player for car in square.cars)


def _hold_pays(game: Game, action: Hold) -> bool:
    from engine.stationmaster.switching import train_district

    train = next((t for t in game.state.trains if t.id == action.train), None)
    if train is None:
        return False
    card = game.catalog.by_id[train.card]
    district = train_district(game, train)
    return (
        isinstance(card, TrainCard)
        and card.effect == "pays-for-stopping"
        and district is not None
        and train.id not in district.paid_stops
        and bool(train.cars)
        and all(car.loaded for car in train.cars)
    )


def greedy_value(game: Game, action: Action) -> int:
    """The greedy bot's rank of a proposed action (higher is preferred).

    At the start of a turn a switching move that delivers (spots a load or an
    empty where a Facility works it, or pulls loads the district shipped)
    comes first, then a Draw (a Draw never stops the Play that may follow it;
    a Department showing a Facility, Office upgrade, Modifier or track that
    could be played now is preferred to the deck, the deck to any other
    Department). Then playing a card, best first: Facility, Office upgrade,
    Facility Modifier, track (off the Running Track, and turnouts, first),
    train, Enhancement, Mainline cards, Maneuvers.
    Any Play ranks above any Discard; the Discard of the least useful card
    ranks highest. Ending the turn ranks below a Discard, so a drawn card that
    cannot be played is cycled away; moves that earn nothing (a switching move
    that delivers nothing, a Red Flag, a sort, a Hold that pays nothing) rank
    below ending the turn.
    """
    s = game.state
    if isinstance(action, ChooseGrade):
        return 0
    if isinstance(action, Draw):
        if action.source == "deck":
            return _DRAW + 1
        pile = s.departments[int(action.source) - 1]
        top = game.catalog.by_id[pile[-1]] if pile else None
        if top is not None and _play_value(top) >= 30 and _playable(game, action.player, top):
            return _DRAW + 2
        return _DRAW
    if isinstance(action, Play):
        card = game.catalog.by_id[action.card]
        value = _play_value(card)
        if isinstance(card, TrackShape):
            # Rails off the Running Track, and turnouts, make room for industries.
            value += (3 if action.y else 0) + (2 if len(card.routes) > 1 else 0)
        return value
    if isinstance(action, Discard):
        # 1 (a Facility) .. 9 (a Maneuver): the less a card is worth, the sooner it goes.
        return max(1, 10 - _play_value(game.catalog.by_id[action.card]) // 4)
    if isinstance(action, Spot):
        return _DELIVER_SPOT if _spot_delivers(game, action) else _WASTED
    if isinstance(action, Pull):
        return _DELIVER_PULL if _pull_delivers(game, action) else _WASTED
    if isinstance(action, Hold):
        return 20 if _hold_pays(game, action) else _WASTED
    if isinstance(action, EndTurn):
        return _END_TURN
    return _WASTED  # RedFlag, SortCars: nothing earned


def greedy_bot(game: Game) -> Action | None:
    """The legal action of the best :func:`greedy_value`, ties broken
    uniformly from ``game.bot`` (proposals of one rank are drawn at random and
    checked until one is legal, as ``random_legal_action`` does)."""
    from engine.stationmaster.rules import candidates

    ranked: dict[int, list[Action]] = {}
    for action in candidates(game):
        ranked.setdefault(greedy_value(game, action), []).append(action)
    for value in sorted(ranked, reverse=True):
        chosen = game.first_legal(ranked[value], game.bot)
        if chosen is not None:
            return chosen
    return None


BOT_FUNCTIONS: Final[dict[str, Bot]] = {"random": random_bot, "greedy": greedy_bot}


# -- one game ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    score: int
    actions: int
    turns: int


def _note_hand_change(tally: Tally, before: Sequence[str], after: Sequence[str], action: Action | None) -> None:
    gained = Counter(after)
    gained.subtract(before)
    for card_id, delta in gained.items():
        if delta == 0:
            continue
        row = tally.setdefault(card_id, [0] * _TALLY_WIDTH)
        if delta > 0:
            if action is None:
                column = _OPENING
            elif isinstance(action, Draw):
                column = _DECK if action.source == "deck" else _DEPARTMENT
            else:
                column = _OTHER
            row[column] += delta
        else:
            row[_DISCARDED if isinstance(action, Discard) else _PLAYED] -= delta


def play_game(catalog: Catalog, seed: int, bot: str, house_rules: Mapping[str, HouseRuleValue], tally: Tally) -> GameResult:
    """Play one solitaire game to its end with ``bot``; add its card events to ``tally``."""
    from engine.stationmaster.game import Game

    choose = BOT_FUNCTIONS[bot]
    game = Game(catalog, players=1, seed=seed, house_rules=house_rules)
    hands = game.state.hands
    for hand in hands:
        _note_hand_change(tally, (), hand, None)
    actions = turns = 0
    while not game.is_over():
        if actions >= MAX_ACTIONS_PER_GAME:
            raise RuntimeError(f"game with seed {seed} did not end after {actions} actions (bot {bot})")
        action = choose(game)
        if action is None:
            raise RuntimeError(f"game with seed {seed} has no legal action but is not over (bot {bot}, after {actions} actions)")
        before = [list(hand) for hand in game.state.hands]
        game.apply(action)
        for old, new in zip(before, game.state.hands):
            if old != new:
                _note_hand_change(tally, old, new, action)
        actions += 1
        if isinstance(action, EndTurn):
            turns += 1
    for hand in game.state.hands:
        for card_id in hand:
            tally.setdefault(card_id, [0] * _TALLY_WIDTH)[_HELD] += 1
    return GameResult(game.score()[0], actions, turns)


# -- many games ----------------------------------------------------------------------

ChunkResult = tuple[list[tuple[int, int, int]], Tally]

_WORKER: dict[str, Any] = {}


def _play_chunk(catalog: Catalog, seed: int, bot: str, house_rules: Mapping[str, HouseRuleValue], start: int, stop: int) -> ChunkResult:
    tally: Tally = {}
    results = []
    for index in range(start, stop):
        r = play_game(catalog, game_seed(seed, index), bot, house_rules, tally)
        results.append((r.score, r.actions, r.turns))
    return results, tally


def _init_worker(catalog: Catalog | None, content_dir: str | None, fingerprint: str, seed: int, bot: str, house_rules: dict[str, HouseRuleValue]) -> None:
    # Everything inherited from the parent is long-lived: keep the collector
    # from walking it (which would copy every page it touches, after a fork).
    gc.freeze()
    if catalog is None:
        from engine.stationmaster import load_catalog

        assert content_dir is not None
        catalog = load_catalog(content_dir)
        if catalog.fingerprint != fingerprint:
            raise RuntimeError(f"the content under {content_dir} changed while the simulation started")
    _WORKER.update(catalog=catalog, seed=seed, bot=bot, house_rules=house_rules)


def _worker_chunk(bounds: tuple[int, int]) -> ChunkResult:
    w = _WORKER
    return _play_chunk(w["catalog"], w["seed"], w["bot"], w["house_rules"], bounds[0], bounds[1])


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Consecutive game ranges: small enough to balance the workers and to
    report progress, large enough that passing results back costs little."""
    size = max(1, min(25, math.ceil(games / (workers * 24))))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def _start_method() -> str:
    # fork inherits the catalog (which does not pickle) and starts in
    # milliseconds; where there is no fork, each worker loads the content.
    import multiprocessing

    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def _check_int(name: str, value: object, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidActionError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def simulate(
    catalog: Catalog,
    games: int,
    seed: int = 0,
    workers: int = 1,
    bot: str = "random",
    house_rules: Mapping[str, HouseRuleValue] | None = None,
    progress: Progress | None = None,
    *,
    content_dir: str | Path | None = None,
) -> Report:
    """Play ``games`` solitaire games and report on them.

    ``progress(done, total)`` is called as games finish (from this process).
    With ``workers`` above 1 the games run in that many processes (forked, so
    they share the catalog; where a platform cannot fork, ``content_dir`` must
    name the content the catalog was loaded from, and each worker loads it).
    InvalidActionError for a bad argument or house rule.
    """
    _check_int("games", games, 1, MAX_GAMES)
    _check_int("seed", seed, 0, MAX_SEED)
    _check_int("workers", workers, 1, MAX_WORKERS)
    if bot not in BOT_FUNCTIONS:
        raise InvalidActionError(f"unknown bot {bot!r}; bots: {', '.join(BOTS)}")
    rules = resolve(catalog, dict(house_rules or {}))
    scores: list[int] = []
    actions: list[int] = []
    turns: list[int] = []
    tally: Tally = {}

    def merge(result: ChunkResult) -> None:
        for score, n, t in result[0]:
            scores.append(score)
            actions.append(n)
            turns.append(t)
        for card_id, row in result[1].items():
            mine = tally.setdefault(card_id, [0] * _TALLY_WIDTH)
            for i, value in enumerate(row):
                mine[i] += value
        if progress is not None:
            progress(len(scores), games)

    workers = min(workers, games)
    if workers == 1:
        for index in range(games):
            merge(_play_chunk(catalog, seed, bot, rules, index, index + 1))
    else:
        method = _start_method()
        if method != "fork" and content_dir is None:
            raise UsageError("this platform cannot fork: give content_dir so each worker can load the content")
        import multiprocessing

        context = multiprocessing.get_context(method)
        initargs = (catalog if method == "fork" else None, None if content_dir is None else str(content_dir), catalog.fingerprint, seed, bot, rules)
        pool = context.Pool(workers, initializer=_init_worker, initargs=initargs)
        try:
            for result in pool.imap(_worker_chunk, _chunks(games, workers)):
                merge(result)
            pool.close()  # let the workers finish cleanly: quicker than terminate()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
    return Report.build(catalog, games=games, seed=seed, bot=bot, house_rules=rules, scores=scores, actions=actions, turns=turns, tally=tally)


# -- the report ------------------------------------------------------------------------


@dataclass(frozen=True)
class CardStats:
    """One card id's events over every game of a simulation (see the module
    docstring for what each counts)."""

    id: str
    name: str
    opening: int = 0
    deck: int = 0
    department: int = 0
    other: int = 0
    played: int = 0
    discarded: int = 0
    held_at_end: int = 0

    @property
    def drawn(self) -> int:
        return self.opening + self.deck + self.department + self.other

    @property
    def dead(self) -> int:
        """Draws never played: discarded, or still held when the game ended."""
        return self.discarded + self.held_at_end

    def dead_percent(self) -> int | None:
        """Dead draws as a whole percentage of draws (halves round up); None when never drawn."""
        if self.drawn == 0:
            return None
        return (200 * self.dead + self.drawn) // (2 * self.drawn)

    def to_dict(self, games: int) -> dict[str, Any]:
        drawn = self.drawn
        return {
            "name": self.name,
            "drawn": drawn,
            "drawnOpening": self.opening,
            "drawnDeck": self.deck,
            "drawnDepartment": self.department,
            "drawnOther": self.other,
            "played": self.played,
            "discarded": self.discarded,
            "heldAtEnd": self.held_at_end,
            "deadDraws": self.dead,
            "deadRate": round(self.dead / drawn, 4) if drawn else None,
            "drawnPerGame": round(drawn / games, 4),
        }


@dataclass(frozen=True)
class Distribution:
    values: tuple[int, ...]

    @property
    def minimum(self) -> int:
        return min(self.values)

    @property
    def maximum(self) -> int:
        return max(self.values)

    @property
    def median(self) -> float:
        ordered = sorted(self.values)
        middle = len(ordered) // 2
        return float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2

    @property
    def mean(self) -> float:
        return round(math.fsum(self.values) / len(self.values), 4)

    def histogram(self) -> list[tuple[int, int, int]]:
        """(from, to, games) bins of whole numbers, at most 20, from the minimum up."""
        low, high = self.minimum, self.maximum
        width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
        counts = Counter((v - low) // width for v in self.values)
        return [(low + b * width, low + b * width + width - 1, counts.get(b, 0)) for b in range((high - low) // width + 1)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "min": self.minimum,
            "median": self.median,
            "mean": self.mean,
            "max": self.maximum,
            "histogram": [{"from": a, "to": b, "games": n} for a, b, n in self.histogram()],
        }


@dataclass(frozen=True)
class Report:
    games: int
    seed: int
    bot: str
    house_rules: dict[str, HouseRuleValue]
    scores: Distribution
    actions: Distribution
    turns: Distribution
    cards: dict[str, CardStats] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        catalog: Catalog,
        *,
        games: int,
        seed: int,
        bot: str,
        house_rules: Mapping[str, HouseRuleValue],
        scores: Sequence[int],
        actions: Sequence[int],
        turns: Sequence[int],
        tally: Tally,
    ) -> Report:
        from engine.stationmaster.deck import home_deck

        # Every card the deck deals is listed, drawn or not, in content order.
        ids = [c.id for c in home_deck(catalog, house_rules)]
        ids += sorted(set(tally) - set(ids))
        cards: dict[str, CardStats] = {}
        for card_id in dict.fromkeys(ids):
            row = tally.get(card_id, [0] * _TALLY_WIDTH)
            name = catalog.by_id[card_id].name if card_id in catalog.by_id else card_id
            cards[card_id] = CardStats(card_id, name, *row)
        return cls(games, seed, bot, dict(house_rules), Distribution(tuple(scores)), Distribution(tuple(actions)), Distribution(tuple(turns)), cards)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "stationmaster-simulation/1",
            "games": self.games,
            "seed": self.seed,
            "gameSeeds": f"game i (from 0) uses seed {self.seed} * {SEED_STRIDE} + i",
            "bot": self.bot,
            "players": 1,
            "houseRules": dict(self.house_rules),
            "score": self.scores.to_dict(),
            "actions": self.actions.to_dict(),
            "turns": self.turns.to_dict(),
            "cards": {card_id: stats.to_dict(self.games) for card_id, stats in self.cards.items()},
            "definitions": {
                "drawn": "copies entering a hand: opening deal, Draw from the deck or a Department",
                "played": "copies leaving a hand by a Play (or spent, like a Maneuver)",
                "discarded": "copies leaving a hand by a Discard",
                "heldAtEnd": "copies still in a hand when the game ended",
                "deadDraws": "draws never played: discarded + heldAtEnd (drawn = played + discarded + heldAtEnd)",
                "deadRate": "deadDraws / drawn",
            },
        }

    def to_json(self) -> str:
        import json

        return json.dumps(self.to_dict(), sort_keys=True, indent=2, ensure_ascii=False)

    def sorted_cards(self) -> list[CardStats]:
        """Cards by dead-draw rate, highest first; then most drawn; never-drawn cards last."""
        return sorted(self.cards.values(), key=lambda c: (c.drawn == 0, -(c.dead / c.drawn if c.drawn else 0.0), -c.drawn, c.id))

    def to_text(self) -> str:
        rules = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(self.house_rules.items()))
        lines = [
            f"Station Master simulation: {self.games} solitaire game(s), {self.bot} bot, seed {self.seed} (game i uses seed {self.seed} * {SEED_STRIDE} + i)",
            f"house rules: {rules}",
            "",
        ]
        for label, dist in (("score", self.scores), ("actions", self.actions), ("turns", self.turns)):
            lines.append(f"{label:<8} min {dist.minimum:>5}  median {dist.median:>8.1f}  mean {dist.mean:>9.2f}  max {dist.maximum:>5}")
        lines += ["", "score histogram (games per score):"]
        hist = self.scores.histogram()
        peak = max(n for _, _, n in hist)
        labels = [str(a) if a == b else f"{a}-{b}" for a, b, _ in hist]
        width = max(len(x) for x in labels)
        for label, (_, _, n) in zip(labels, hist):
            bar = "#" * (round(40 * n / peak) if peak else 0)
            lines.append(f"  {label:>{width}} | {bar} {n}")
        lines += [
            "",
            "cards (a dead draw is a draw never played: discarded, or still in hand at the end; dead % = dead / drawn)",
        ]
        head = ("card", "drawn", "per game", "opening", "deck", "dept", "played", "discarded", "held", "dead %")
        rows = []
        for c in self.sorted_cards():
            pct = c.dead_percent()
            rows.append((c.name, str(c.drawn), f"{c.drawn / self.games:.2f}", str(c.opening), str(c.deck + c.other), str(c.department), str(c.played), str(c.discarded), str(c.held_at_end), "-" if pct is None else f"{pct}%"))
        widths = [max(len(head[i]), *(len(r[i]) for r in rows)) if rows else len(head[i]) for i in range(len(head))]

        def fmt(cells: Sequence[str]) -> str:
            return "  ".join(cells[0].ljust(widths[0]) if i == 0 else cells[i].rjust(widths[i]) for i in range(len(cells))).rstrip()

        lines.append(fmt(head))
        lines.append(fmt(["-" * w for w in widths]))
        lines += [fmt(r) for r in rows]
        return "\n".join(lines)


# -- the rules site's table --------------------------------------------------------------

SITE_GAMES: Final = 40
SITE_SEED: Final = 2026
SITE_TOP: Final = 15
SITE_RULE: Final = "startingOffice"
_site_cache: dict[str, dict[str, Any]] = {}


# The greedy bot builds what it draws where random play mostly cannot, so its
# dead-draw rates say something about the cards, not about the bot.
SITE_BOT: Final = "greedy"


def simulation_context(catalog: Catalog) -> dict[str, Any]:
    """The ``simulation`` table: for each option of the startingOffice house
    rule (the others at their defaults), a fixed simulation (SITE_GAMES games,
    seed SITE_SEED, the random bot, one process) and its SITE_TOP cards with
    the highest dead-draw rate. The same figures as
    ``stationmaster simulate --games 40 --seed 2026 --house-rule startingOffice=...``.

    Cached per content fingerprint: a render calls it once per page set, and
    the answer depends only on the content (and this engine)."""
    cached = _site_cache.get(catalog.fingerprint)
    if cached is None:
        cached = _site_cache[catalog.fingerprint] = _simulation_context(catalog)
    return copy.deepcopy(cached)


def _simulation_context(catalog: Catalog) -> dict[str, Any]:
    base = defaults(catalog)
    rule = catalog.house_rule(SITE_RULE)
    configs = [c for c in configurations(catalog) if all(c[k] == base[k] for k in base if k != SITE_RULE)]
    tables = []
    for config in configs:
        value = config[SITE_RULE]
        report = simulate(catalog, games=SITE_GAMES, seed=SITE_SEED, workers=1, bot=SITE_BOT, house_rules={SITE_RULE: value})
        rows: list[dict[str, Any]] = []
        for stats in report.sorted_cards():
            pct = stats.dead_percent()
            if pct is None:
                continue
            rows.append({"card": stats.id, "name": stats.name, "dead_rate": pct, "per_game": f"{stats.drawn / SITE_GAMES:.1f}", "drawn": stats.drawn})
        rows.sort(key=lambda r: (-r["dead_rate"], -r["drawn"], r["name"], r["card"]))
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        tables.append(
            {
                "value": shown,
                "value_name": catalog.by_id[value].name if isinstance(value, str) and value in catalog.by_id else shown,
                "is_default": value == rule.default,
                "rows": rows[:SITE_TOP],
            }
        )
    return {"rule": {"id": rule.id, "name": rule.name}, "games": SITE_GAMES, "seed": SITE_SEED, "bot": SITE_BOT, "top": SITE_TOP, "configurations": tables}
