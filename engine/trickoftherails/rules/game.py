"""A game of Trick of the Rails, with the same small API as every pack's
game: ``legal_actions()``, ``check(action)`` giving every reason it is
refused, ``apply(action)`` raising with those reasons, and one seeded stream,
so a game is its seed, its configuration and its actions."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from engine import saves
from engine.errors import ConfigurationError, IllegalActionError, InvalidActionError, Reason
from engine.proven import Proven
from engine.rng import SeededStream
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.effects import load_handlers
from engine.trickoftherails.rules import dispatch as rules
from engine.trickoftherails.rules.actions import ENDS, Action, LayTrack, PlaceCity, PlaceLocomotive, Play, from_json
from engine.trickoftherails.rules.events import RAILWAY_STARTED
from engine.trickoftherails.rules.hidden import deal as deal_hidden
from engine.trickoftherails.rules.hidden import voids
from engine.trickoftherails.rules.houserules import HouseRuleValue, resolve
from engine.trickoftherails.rules.scoring import scores, share_values, winners
from engine.trickoftherails.rules.setup import build_lane, deal
from engine.trickoftherails.rules.state import GameState, Trick
from engine.trickoftherails.rules.tricks import playable

SAVE_FORMAT = "trickoftherails-save/1"
GAME_ID = "trickoftherails"


def _place_city(actor: int, where: tuple[str, str]) -> PlaceCity:
    return PlaceCity(actor, where[0], where[1])


class Game:
    def __init__(self, catalog: Catalog, players: int = 3, seed: int = 0, house_rules: Mapping[str, HouseRuleValue] | None = None) -> None:
        if not isinstance(players, int) or isinstance(players, bool) or players not in catalog.hands:
            counts = ", ".join(str(p) for p in catalog.player_counts)
            raise ConfigurationError(f"Trick of the Rails is played by {counts} players, not {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigurationError(f"seed must be a whole number, not {seed!r}")
        self.catalog = catalog
        self.rules = resolve(catalog, dict(house_rules or {}), players)
        self.seed = seed
        self.rng = SeededStream(seed)
        # Bots draw from a fork: their picks become recorded actions, so they
        # must not move the stream the setup shuffles come from.
        self.bot = self.rng.fork("bot")
        self.history: list[Action] = []
        # What this game proposed and judged legal in the position it is in
        # now (engine.proven): ``apply`` of a bot's pick does not judge it
        # twice. The state changes only through ``apply``.
        self._proven = Proven()
        self._order = catalog.card_order
        self.state = GameState(players=players)
        self._setup()

    def _setup(self) -> None:
        s, c = self.state, self.catalog
        hands, starting = deal(c, s.players, self.rng)
        s.hands = [sorted(hand, key=self._order.__getitem__) for hand in hands]
        s.shares = [[] for _ in range(s.players)]
        registry = load_handlers()
        begins = registry.subscribed(RAILWAY_STARTED)
        for card in c.cards:
            if card.effect in begins:
                start = registry.get_handler(RAILWAY_STARTED, card.effect)
                assert start is not None
                start(self, card)
        s.railways = {company.id: s.railways.get(company.id, []) for company in c.companies}
        for card_id in starting:
            company = c.by_id[card_id].company
            assert company is not None
            s.railways[company].append(card_id)
        s.lane = build_lane(c, s.players, str(self.rules["variant"]), self.rng)
        s.trick = Trick(self._first_leader())
        self.log(f"player {s.trick.leader} leads the first trick")

    def _first_leader(self) -> int:
        """game.yaml's ``firstLeader``: ``random`` is a draw from the seeded
        stream (the schema allows nothing else yet)."""
        if self.catalog.first_leader != "random":
            raise ConfigurationError(f"firstLeader {self.catalog.first_leader!r}: the engine knows only 'random'")
        return self.rng.below(self.state.players)

    # -- helpers ------------------------------------------------------------

    def order(self, card_id: str) -> tuple[int, int]:
        """Sort key: the catalog's order (company by company, number by number)."""
        return self._order[card_id]

    def log(self, text: str) -> None:
        self.state.log.append(text)

    @property
    def to_act(self) -> int | None:
        return rules.to_act(self)

    # -- the API ------------------------------------------------------------

    def candidates(self) -> list[Action]:
        """What the rules could allow now; ``check`` judges each."""
        make, choices = self._proposals()
        return [make(choice) for choice in choices]

    def _proposals(self) -> tuple[Callable[[Any], Action], list[Any]]:
        """The proposals as one maker and its inputs, so a random pick builds
        only the action it picks (there are many more proposals than picks)."""
        s = self.state
        actor = rules.to_act(self)
        if actor is None:
            return Play, []
        if s.phase == "play":
            # Only the cards that follow suit are worth proposing.
            return partial(Play, actor), playable(self.catalog, s.hands[actor], s.trick)
        what = s.pending[0].what
        if what == "city":
            return partial(_place_city, actor), [(company, end) for company in s.railways for end in ENDS]
        if what == "locomotive":
            return partial(PlaceLocomotive, actor), list(s.railways)
        return partial(LayTrack, actor), list(ENDS)

    def legal_actions(self) -> list[Action]:
        found = [a for a in self.candidates() if not rules.judged(self, a)]
        for action in found:
            self._proven.record(self.state, len(self.history), action)
        return found

    def random_legal_action(self, stream: SeededStream | None = None) -> Action | None:
        """A legal action drawn uniformly (from the bot stream unless another
        is given): draw a proposal, check it, drop it if refused, draw again;
        the same distribution as choosing from legal_actions()."""
        make, pool = self._proposals()
        stream = stream or self.bot
        while pool:
            i = stream.below(len(pool)) if len(pool) > 1 else 0
            action = make(pool[i])
            if not rules.judged(self, action):
                self._proven.record(self.state, len(self.history), action)
                return action
            pool[i] = pool[-1]
            pool.pop()
        return None

    def check(self, action: Action) -> list[Reason]:
        """Every reason ``action`` is refused now; empty when it is allowed."""
        if not isinstance(action, Action):
            raise InvalidActionError(f"not an action: {action!r:.80}")
        return rules.reasons(self, action)

    def apply(self, action: Action) -> None:
        """Carry out ``action``, or IllegalActionError with every reason it is
        refused. An action this game has just proposed and judged legal in
        this very position (``random_legal_action``, ``legal_actions``) is
        not judged again; anything else is."""
        if not self._proven.holds(self.state, len(self.history), action):
            found = self.check(action)
            if found:
                raise IllegalActionError(action, found)
        rules.perform(self, action)
        self.history.append(action)

    def is_over(self) -> bool:
        return self.state.phase == "over"

    def share_values(self) -> dict[str, int]:
        """Each company's share value as the railways stand now."""
        return share_values(self.catalog, self.state.railways, self.state.locomotives)

    def score(self) -> list[int]:
        """Each player's score as things stand (final once the game is over)."""
        return scores(self.catalog, self.state.shares, self.share_values(), teams=bool(self.rules["teams"]))

    def winners(self) -> list[int]:
        return winners(self.score(), self.catalog.ties_share_the_win)

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see: everything public, and their own hand only."""
        data = self.state.to_json()
        data["hands"] = [hand if p == player else len(hand) for p, hand in enumerate(self.state.hands)]
        data["shareValues"] = self.share_values()
        return data

    def copy(self) -> Game:
        """An independent game in the same position, to try actions on (a
        bot's lookahead): the catalog is shared, and everything that changes
        (state, history, streams) is the copy's own."""
        from copy import copy

        twin = copy(self)
        twin.state = self.state.copy()
        twin.history = list(self.history)
        twin.rng, twin.bot = self.rng.copy(), self.bot.copy()
        twin._proven = self._proven.carried(self.state, twin.state)
        return twin

    def determinized(self, stream: SeededStream) -> Game:
        """A copy in which what the player to act cannot see is dealt afresh
        from ``stream``: the other players' hands, dealt again at their sizes
        from the cards in them, none a card of a company its holder has failed
        to follow (``engine.trickoftherails.rules.hidden``). Everything on the
        table and the player's own hand are as they are; the copy's streams
        come from ``stream`` (the rules draw nothing after setup, so only a
        bot playing the copy on draws from them). Once the game is over,
        nothing is hidden any more: the copy is dealt as the game was."""
        twin = self.copy()
        twin._proven = Proven()  # another deal of the hidden cards: another position, nothing proven in it
        twin.rng = SeededStream(stream.below(2**62), "determinized")
        twin.bot = twin.rng.fork("bot")
        me = self.to_act
        if me is None:
            return twin
        s = twin.state
        sizes = {p: len(hand) for p, hand in enumerate(s.hands) if p != me}
        unseen = [card for p in sizes for card in s.hands[p]]
        hands = deal_hidden(self.catalog, unseen, sizes, voids(self.catalog, s.players, self.history), stream)
        for p, hand in hands.items():
            s.hands[p] = sorted(hand, key=self._order.__getitem__)
        return twin

    def census(self) -> Counter[str]:
        """Where every Railway card is now (hands, railways, shares, lane,
        out of the game, the trick on the table): each exactly once."""
        s = self.state
        found: Counter[str] = Counter()
        for pile in [*s.hands, *s.railways.values(), *s.shares, s.lane, s.removed]:
            found.update(c for c in pile if self.catalog.by_id[c].family == "railway")
        if s.phase == "play":
            found.update(card for _, card in s.trick.plays)
        else:
            found.update(p.card for p in s.pending if p.what == "lay")
        return found

    # -- saving -------------------------------------------------------------

    def save(self) -> dict[str, Any]:
        return saves.envelope(SAVE_FORMAT, self.catalog.fingerprint, self.seed, self.state.players, self.rules, self.history, game=GAME_ID)

    def dumps(self) -> str:
        return json.dumps(self.save(), indent=1, sort_keys=True, ensure_ascii=False)

    def state_json(self) -> str:
        return json.dumps(self.state.to_json(), sort_keys=True, ensure_ascii=False)

    @classmethod
    def replay(cls, catalog: Catalog, save: object) -> Game:
        """Rebuild a game from a save, or SaveError saying why not."""

        def foreign(data: dict[str, Any]) -> str | None:
            why = saves.foreign_format(data, SAVE_FORMAT, "Trick of the Rails")
            if why is not None or data.get("game") == GAME_ID:
                return why
            return f"the save's game field is {data.get('game')!r}, not {GAME_ID!r}, though its format is a Trick of the Rails save's: was it edited?"

        data, actions, house = saves.opened(save, foreign, catalog.fingerprint)

        def start() -> Game:
            # Game() refuses a player count or seed that is not a whole number.
            return cls(catalog, data.get("players"), data.get("seed"), house)  # type: ignore[arg-type]

        return saves.replayed(start, lambda game, action: game.apply(from_json(action)), actions)

    @classmethod
    def loads(cls, catalog: Catalog, text: str) -> Game:
        return cls.replay(catalog, saves.parsed(text))
