"""A game of Station Master: setup, the uniform action API, and the turn cycle.

``legal_actions()`` lists what the player to act may do; ``check(action)``
returns every reason an action is refused (empty when it is allowed);
``apply(action)`` carries it out or raises IllegalActionError with those
reasons, leaving the state untouched. All chance comes from one seeded
stream, so ``Game.replay(save)`` rebuilds any game from its seed and actions.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from copy import copy as shallow_copy
from functools import partial
from typing import Any, TypeVar

from engine import saves
from engine.errors import ConfigurationError, IllegalActionError, InvalidActionError, Reason
from engine.plaincopy import copier
from engine.proven import Proven
from engine.rng import SeededStream
from engine.stationmaster.content.model import Catalog, MainlineCard
from engine.stationmaster.rules import dispatch as rules
from engine.stationmaster.rules import lookups
from engine.stationmaster.rules.actions import Action, from_json
from engine.stationmaster.rules.context import Kept
from engine.stationmaster.rules.deck import home_deck, mainline_inventory, office_ladder
from engine.stationmaster.rules.district import new_district
from engine.stationmaster.rules.hand import limit_bonuses
from engine.stationmaster.rules.houserules import HouseRuleValue, resolve
from engine.stationmaster.rules.lookups import log
from engine.stationmaster.rules.proposals import Drawable, Proposals
from engine.stationmaster.rules.response import answering
from engine.stationmaster.rules.state import Car, GameState, MainlineSlot

T = TypeVar("T")

SAVE_FORMAT = "stationmaster-save/2"
# Saves made before a table with rivals was dealt the opponent-directed cards:
# their decks are not this engine's, so they cannot be replayed.
_BEFORE_ATTACKS = "stationmaster-save/1"


def check_players(catalog: Catalog, players: object) -> int:
    """``players`` if a game can seat that many (one district for each
    Whistle Post in the supply), else ConfigurationError saying the range."""
    limit = catalog.supplies.whistle_posts
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= limit:
        office = catalog.by_id.get(catalog.supplies.whistle_post_office)
        per = office.name if office is not None else catalog.supplies.whistle_post_office
        raise ConfigurationError(f"players must be a whole number from 1 to {limit} (one district per {per}), not {players!r}")
    return players


# What setup derives from the catalog alone (and the house rules and the
# number of players), kept for the catalog set up last: a simulation or a
# benchmark sets up thousands of games from one catalog, and working out the
# deck again for each was a tenth of a short game's work. A catalog is frozen,
# so what is kept cannot go stale; one catalog at a time, so a test session
# that loads many does not keep them all.
_DERIVED: dict[object, Any] = {}

# The state copied as deepcopy would, field by field (engine.plaincopy).
_copy_state = copier(GameState)


def _derived(catalog: Catalog, key: tuple[object, ...], make: Callable[[], T]) -> T:
    if _DERIVED.get("catalog") is not catalog:
        _DERIVED.clear()
        _DERIVED["catalog"] = catalog
    if key not in _DERIVED:
        _DERIVED[key] = make()
    found: T = _DERIVED[key]
    return found


class Game:
    def __init__(self, catalog: Catalog, *, players: int = 1, seed: int = 0, house_rules: Mapping[str, HouseRuleValue] | None = None) -> None:
        check_players(catalog, players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigurationError(f"seed must be a whole number, not {seed!r}")
        self.catalog = catalog
        self.rules = resolve(catalog, dict(house_rules or {}))
        self.seed = seed
        self.rng = SeededStream(seed)
        # Bots and non-interactive runs choose from this one, forked from the
        # same seed: their picks become recorded actions, so they must not
        # move the rules' own stream (a replay makes no picks).
        self.bot = self.rng.fork("bot")
        self.history: list[Action] = []
        # What this game proposed and judged legal in the position it is in
        # now, so that ``apply`` of it does not judge it again.
        self._proven = Proven()
        self._legal: tuple[GameState, int, list[Action]] | None = None  # legal_actions() of a position, kept
        # Derived views worth keeping between moves; never part of the state.
        self.open_ends_cache: dict[int, tuple[tuple[int, int], set[tuple[int, int]]]] = {}
        self.reachable_cache: dict[tuple[int, bool], tuple[tuple[object, ...], set[str]]] = {}  # engine.stationmaster.rules.switching
        # Which action spends each card (engine.stationmaster.rules.held) follows from
        # the catalog and the effect registry alone, so the games of one
        # catalog share the answers rather than each working them out again.
        self.spent_cache: dict[str, tuple[int, type[Action] | None]] = _derived(catalog, ("spent by",), dict)
        self.kept_proposals = Kept()  # what proposing keeps between positions (engine.stationmaster.rules.proposals)
        self.bot_views: dict[object, object] = {}  # a bot's own derived views (engine.stationmaster.bots.greedy)
        self.limit_bonus = _derived(catalog, ("limit bonuses",), lambda: limit_bonuses(catalog))
        self.state = GameState(players=players)
        self._setup()

    # -- setup -----------------------------------------------------------

    def _setup(self) -> None:
        s, c = self.state, self.catalog
        table = c.game.table
        s.timetable = [None] * table.timetable_slots
        s.crew_trays_free = c.supplies.crew_trays
        s.cabooses_free = c.supplies.cabooses
        s.scores = [0] * s.players
        s.office_cards = [[] for _ in range(s.players)]
        s.districts = [new_district(p, str(self.rules["startingOffice"])) for p in range(s.players)]
        self._setup_mainline()
        self._setup_deck()
        s.phase = "setup" if s.pending_grades else "local"
        log(s, f"Day 1, Stage 1: {s.players} {'district' if s.players == 1 else 'districts'}, seed {self.seed}")

    def _setup_mainline(self) -> None:
        s, c = self.state, self.catalog
        inventory = list(_derived(c, ("mainline inventory",), lambda: tuple(card.id for card in mainline_inventory(c))))
        self.rng.shuffle(inventory)
        terrain = inventory[: s.players + 1]
        ends = _derived(c, ("division points",), lambda: {m.end: m.id for m in c.of_type(MainlineCard) if m.role == "divisionPoint"})
        west, east = ends["west"], ends["east"]
        slots = [MainlineSlot("divisionPoint", west)]
        for i, card_id in enumerate(terrain):
            slots.append(MainlineSlot("terrain", card_id))
            if i < s.players:
                slots.append(MainlineSlot("office", "", player=i))
        slots.append(MainlineSlot("divisionPoint", east))
        # The cars start in the two Division Point yards, alternating, half of
        # each kind loaded, so every kind of train can find something to take.
        for n, (car_type, _count) in enumerate((t, k) for t, k in c.supplies.cars for _ in range(k)):
            yard = slots[0] if n % 2 == 0 else slots[-1]
            yard.yard.append(Car(car_type, loaded=(n // 2) % 2 == 0))
        s.mainline = slots
        s.pending_grades = [i for i, slot in enumerate(slots) if slot.kind == "terrain" and lookups.terrain(self, i).grade]

    def _setup_deck(self) -> None:
        s, c = self.state, self.catalog
        rules, players = self.rules, s.players
        cards = list(_derived(c, ("home deck", players, *sorted(rules.items())), lambda: tuple(card.id for card in home_deck(c, rules, players))))
        hand_size = c.game.table.hand_limit
        s.hands = [[] for _ in range(s.players)]
        if self.rules["openingDeal"] == "threeTrackThreeOther":
            track = [x for x in cards if c.by_id[x].family == "track"]
            other = [x for x in cards if c.by_id[x].family != "track"]
            self.rng.shuffle(track)
            self.rng.shuffle(other)
            for hand in s.hands:
                for pile in (track, other):
                    for _ in range(min(hand_size, len(pile))):
                        hand.append(pile.pop())
            cards = track + other
            self.rng.shuffle(cards)
            s.deck = cards
        else:
            self.rng.shuffle(cards)
            s.deck = cards
            for hand in s.hands:
                for _ in range(min(hand_size, len(s.deck))):
                    hand.append(s.deck.pop())
        s.departments = [[] for _ in range(c.game.table.departments)]
        for pile in s.departments:
            for _ in range(min(c.game.setup.department_cards, len(s.deck))):
                pile.append(s.deck.pop())

    # -- the API ----------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action allowed now, in the engine's order. Kept until the
        next ``apply`` (the same position as ``Proven`` tells one: this state
        object after as many actions): a search asks it of a position more
        than once, and of its copies. Each call returns a list of its own."""
        ply = len(self.history)
        kept = self._legal
        if kept is not None and kept[0] is self.state and kept[1] == ply:
            return list(kept[2])
        found = [a for a in rules.candidates(self) if not self._refused(a)]
        for action in found:
            self._proven.record(self.state, ply, action)
        self._legal = (self.state, ply, found)
        return list(found)

    def random_legal_action(self, stream: SeededStream | None = None) -> Action | None:
        """A legal action drawn uniformly at random (from the bot stream unless
        another is given): propose, check, discard the refused, draw again.
        The same distribution as choosing from legal_actions(), without
        judging every proposal first, or even building it."""
        return self.first_legal(rules.proposals(self), stream or self.bot)

    def first_legal(self, pool: Drawable | Proposals, stream: SeededStream) -> Action | None:
        """A legal action from ``pool`` (proposals of this position) drawn
        uniformly from ``stream``: draw, check, drop the refused, draw again
        (``pool`` is consumed). The action found is recorded as proven, so
        ``apply`` does not judge it again."""
        if isinstance(pool, Proposals):
            found = pool.first_legal(partial(rules.judged, self, verdict=True), stream)
        else:
            found = None
            while pool:
                i = stream.below(len(pool)) if len(pool) > 1 else 0
                action = pool[i]
                if not self._refused(action):
                    found = action
                    break
                pool[i] = pool[-1]
                pool.pop()
        if found is not None:
            self._proven.record(self.state, len(self.history), found)
        return found

    def _refused(self, action: Action) -> bool:
        """``check``'s verdict on one of the engine's own proposals: they are
        actions, and well formed, by construction, so only the rules are
        asked, and only whether they refuse it."""
        return bool(rules.judged(self, action, verdict=True))

    def copy(self) -> Game:
        """An independent game in the same position, to try actions on (a
        bot's lookahead): the catalog is shared; the state, the history and
        both streams are the copy's own."""
        twin = self._twin()
        twin.rng, twin.bot = self.rng.copy(), self.bot.copy()
        return twin

    def _twin(self) -> Game:
        """A copy of everything but the streams (which the caller sets).

        The derived views are carried over, each in a dict of its own: each
        is checked against the state it was made from (or its district's
        revision) before it is used, and the copy's state is the same, so
        what holds for the game holds for its copy, and a search bot's
        copies need not work it all out again."""
        twin = shallow_copy(self)
        twin.state = _copy_state(self.state)
        twin.history = list(self.history)
        twin._proven = self._proven.carried(self.state, twin.state)  # the same position: what was proven holds
        kept = self._legal
        twin._legal = (twin.state, kept[1], kept[2]) if kept is not None and kept[0] is self.state and kept[1] == len(self.history) else None
        twin.open_ends_cache = dict(self.open_ends_cache)
        twin.reachable_cache = dict(self.reachable_cache)
        twin.kept_proposals = self.kept_proposals.copy()
        twin.bot_views = dict(self.bot_views)
        return twin

    def determinized(self, stream: SeededStream) -> Game:
        """A copy in which what the player to act cannot see is drawn afresh
        from ``stream``: the order of the Home Office deck, the other players'
        hands (dealt again, at their sizes, from those hands and the deck),
        and the rules' stream (every later shuffle and die roll); the copy's
        bot stream comes from ``stream`` too. What is face up (the
        Departments, the Salvage Yard, the table) and the player's own hand
        are as they are."""
        twin = self._twin()
        twin._proven = Proven()  # another deal of the hidden cards: another position, nothing proven in it
        twin._legal = None
        s = twin.state
        me = twin.to_act
        unseen = list(s.deck)
        for other, hand in enumerate(s.hands):
            if other != me:
                unseen += hand
        unseen.sort()  # what was hidden, in no order it could betray
        stream.shuffle(unseen)
        for other, hand in enumerate(s.hands):
            if other != me:
                s.hands[other] = [unseen.pop() for _ in hand]
        s.deck = unseen
        twin.rng = SeededStream(stream.below(2**62), "determinized")
        twin.bot = twin.rng.fork("bot")
        return twin

    def check(self, action: Action) -> list[Reason]:
        """Every reason ``action`` is refused now, each a Reason (its text, with a
        stable ``code``); empty when it is allowed. Always judged in full."""
        if not isinstance(action, Action):
            raise InvalidActionError(f"not an action: {action!r:.80}")
        return rules.reasons(self, action)

    def apply(self, action: Action) -> None:
        """Carry out ``action``, or IllegalActionError with every reason it is
        refused. An action this game has just proposed and judged legal in
        this very position (``random_legal_action``, ``legal_actions``, a
        bot's ``first_legal``) is not judged again; anything else is."""
        if not self._proven.holds(self.state, len(self.history), action):
            reasons = self.check(action)
            if reasons:
                raise IllegalActionError(action, reasons)
        rules.perform(self, action)
        self.history.append(action)

    def is_over(self) -> bool:
        return self.state.phase == "over"

    def score(self) -> list[int]:
        return list(self.state.scores)

    @property
    def to_act(self) -> int:
        """Who acts now: player 0 at setup; in an attack's response window,
        the player who answers; else the player whose turn it is."""
        if self.state.phase == "setup":
            return 0
        on_spot = answering(self.state)
        return self.state.current if on_spot is None else on_spot

    # -- saving -----------------------------------------------------------

    def save(self) -> dict[str, Any]:
        return saves.envelope(SAVE_FORMAT, self.catalog.fingerprint, self.seed, self.state.players, self.rules, self.history)

    def dumps(self) -> str:
        return json.dumps(self.save(), indent=1, sort_keys=True)

    def state_json(self) -> str:
        return json.dumps(self.state.to_json(), sort_keys=True)

    @classmethod
    def replay(cls, catalog: Catalog, save: object) -> Game:
        """Rebuild a game from a save, or SaveError saying why not."""

        def foreign(data: dict[str, Any]) -> str | None:
            if data.get("format") == SAVE_FORMAT:
                return None
            if data.get("format") == _BEFORE_ATTACKS:
                return f"a save from before opponent-directed cards were dealt (format {_BEFORE_ATTACKS!r}): its deck is not this engine's, so it cannot be replayed; start a new game"
            return saves.foreign_format(data, SAVE_FORMAT, "Station Master")

        data, actions, house = saves.opened(save, foreign, catalog.fingerprint)

        def start() -> Game:
            return cls(catalog, players=data.get("players"), seed=data.get("seed"), house_rules=house)  # type: ignore[arg-type]

        return saves.replayed(start, lambda game, action: game.apply(from_json(action)), actions)

    @classmethod
    def loads(cls, catalog: Catalog, text: str) -> Game:
        return cls.replay(catalog, saves.parsed(text))

    def census(self) -> Counter[str]:
        """Every copy of every Home Office card, wherever it is now: piles,
        hands, the timetable, queued and running Extras, cards played onto the
        Mainline and Office upgrades. Equal to the dealt deck at all times."""
        s = self.state
        found: Counter[str] = Counter(s.deck)
        for pile in [*s.departments, s.salvage, *s.hands, *s.office_cards]:
            found.update(pile)
        found.update(card for card in s.timetable if card is not None)
        found.update(order.card for order in s.extras_queue)
        for district in s.districts:
            for square in district.squares.values():
                if square.kind != "office":
                    found[square.card] += 1
                if square.enhancement:
                    found[square.enhancement] += 1
        found.update(t.card for t in s.trains if t.player is not None)
        for slot in s.mainline:
            found.update(slot.modifiers)
        return found

    # convenience for callers that only need the office ladder
    def ladder(self) -> Sequence[str]:
        return _derived(self.catalog, ("office ladder",), lambda: tuple(t.id for t in office_ladder(self.catalog)))
