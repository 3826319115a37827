"""Bots for Trick of the Rails: each picks one legal action through the
game's own API, drawing any chance from the game's bot stream, so a bot's
game replays from its seed.

- ``random``: any legal action, uniformly.
- ``greedy``: values the companies by what it expects their shares to be
  worth at the end (:class:`Outlook`) and its standing by the shares it
  holds against the others'; it tries each placement on a copy of the game
  and keeps the one that leaves it standing best, and it plays the card
  whose trick turns out best on average over a few deals of the hidden
  cards that agree with everything public (``engine.trickoftherails.bots.knowledge``),
  the others playing any legal card. It never reads another player's hand.
- ``pimc-N``: the search rungs (``engine.trickoftherails.bots.search``):
  greedy's few best actions, each played out to the end of the game on
  ``N`` deals of the hidden cards, the one that wins most taken.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.rng import SeededStream
from engine.trickoftherails.bots.knowledge import companies, knowledge, sample_hands
from engine.trickoftherails.content.model import Card
from engine.trickoftherails.rules.actions import Action, Play
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.lanecards import trick_kind
from engine.trickoftherails.rules.scoring import run_value

Bot = Callable[[Game], Action]

# Deals of the hidden cards the greedy bot imagines for each card it plays.
SAMPLES = 12
# How many shares a player is expected to take in each stock trick still in
# the lane, counted toward their stake (weighed by the cards they may hold).
FUTURE = 1.0
# Any hand of this game is smaller than 16 cards, so one draw below the
# least common multiple of 1..16 picks uniformly from any of them.
_LCM = 720720
_TIE = 1e-9


def random_bot(game: Game) -> Action:
    """Any legal action, uniformly."""
    action = game.random_legal_action()
    assert action is not None, "a game that is not over always has a legal action"
    return action


class Outlook:
    """What ``player`` expects each company's share to be worth at the end,
    from the public table alone, and how much each player holds of each.

    A company's worth is its share value averaged over the locomotives it
    may still get (its own once placed), on its railway as it stands plus
    the cards still to be laid on it: each card of the company still in a
    hand is laid with the chance that the trick it is played to is an
    operating one (the lane's share of them), at the average station value
    of those cards. A player's standing is the sum over companies of worth
    times their *stake*: shares held, and those they may yet take, less the
    others' average. A player takes one share in each stock trick left, and
    is expected to take it in the companies of the cards they may hold:
    their own hand for ``player``, the unseen cards for everyone else."""

    def __init__(self, game: Game, player: int) -> None:
        s, catalog = game.state, game.catalog
        self.catalog = catalog
        self.company = companies(game)
        self.player = player
        n = s.players
        names = list(s.railways)
        held: list[dict[str, float]] = [dict.fromkeys(names, 0.0) for _ in range(n)]
        for p, shares in enumerate(s.shares):
            for card in shares:
                held[p][self.company[card] or ""] += 1
        unseen = knowledge(game, player).unseen
        kinds = [trick_kind(catalog.by_id[c]) for c in s.lane[(1 if s.phase == "play" else 0) :]]
        stock_left = sum(k == "stock" for k in kinds)
        if FUTURE and stock_left:
            mine, others = s.hands[player], unseen
            for p in range(n):
                pool = mine if p == player else others
                if pool:
                    for card in pool:
                        held[p][self.company[card] or ""] += FUTURE * stock_left / len(pool)
        self.stake = [{c: held[p][c] - (sum(h[c] for h in held) - held[p][c]) / (n - 1) for c in names} for p in range(n)]
        station = {c.id: c.station_value or 0 for c in catalog.cards}
        self.station = station
        self.railways = {c: [station[card] for card in cards] for c, cards in s.railways.items()}
        self.locomotives: dict[str, Card] = {c: catalog.by_id[loco] for c, loco in s.locomotives.items()}
        coming = [card for card in (catalog.by_id[c] for c in s.lane) if card.is_locomotive]
        coming += [catalog.by_id[pending.card] for pending in s.pending if pending.what == "locomotive"]
        coming += [catalog.by_id[card.brings] for card in coming if card.brings is not None]
        self.coming = coming
        # Cards still to be laid: those a pending placement lays, and the
        # expected share of the cards in hands (public: every Railway card
        # not on the table is in some hand).
        tail: dict[str, list[int]] = {c: [] for c in names}
        for pending in s.pending:
            if pending.what == "lay":
                tail[self.company[pending.card] or ""].append(station[pending.card])
        in_hands = unseen + tuple(s.hands[player])
        laid_share = sum(k != "stock" for k in kinds) / len(kinds) if kinds else 0.0
        for c in names:
            values = [station[card] for card in in_hands if self.company[card] == c]
            expected = round(len(values) * laid_share)
            if expected:
                tail[c] += [round(sum(values) / len(values))] * expected
        self.tail = tail
        self.worth = {c: self.company_worth(c) for c in names}

    def company_worth(self, company: str, railway: Sequence[int] | None = None, locomotive: Card | None = None, coming: Sequence[Card] | None = None) -> float:
        """The company's expected share value, on ``railway`` (station values;
        its own by default) with ``locomotive`` (its own by default) or,
        without one, any of ``coming`` alike."""
        values = [*(self.railways[company] if railway is None else railway), *self.tail[company]]
        loco = locomotive or self.locomotives.get(company)
        if loco is not None:
            return run_value(self.catalog, values, loco)
        pool = self.coming if coming is None else coming
        if not pool:
            return self.catalog.share_floor
        return sum(run_value(self.catalog, values, ln) for ln in pool) / len(pool)

    def standing(self, player: int, worth: Mapping[str, float] | None = None) -> float:
        values = self.worth if worth is None else worth
        return sum(self.stake[player][c] * values[c] for c in values)

    def laid(self, company: str, value: int, end: str) -> float:
        """The company's worth once a card of ``value`` is laid at ``end``."""
        railway = self.railways[company]
        return self.company_worth(company, [value, *railway] if end == "left" else [*railway, value])


def greedy_bot(game: Game) -> Action:
    """The legal action that leaves the player to act standing best (see the
    module's docstring); ties are broken from the game's bot stream."""
    legal = game.legal_actions()
    assert legal, "a game that is not over always has a legal action"
    if len(legal) == 1:
        return legal[0]
    me = legal[0].player
    if isinstance(legal[0], Play):
        return _best(game.bot, legal, _play_values(game, me, legal))
    return _best(game.bot, legal, [_after(game, me, action) for action in legal])


def _best(stream: SeededStream, actions: Sequence[Action], values: Sequence[float]) -> Action:
    top = max(values)
    return stream.choice([a for a, v in zip(actions, values) if v >= top - _TIE])


def _after(game: Game, me: int, action: Action) -> float:
    """``me``'s standing once ``action`` is taken, tried on a copy."""
    twin = game.copy()
    twin.apply(action)
    return Outlook(twin, me).standing(me)


def _play_values(game: Game, me: int, legal: Sequence[Action]) -> list[float]:
    """Each card's average outcome over SAMPLES deals of the hidden cards."""
    s, catalog = game.state, game.catalog
    outlook = Outlook(game, me)
    company, number = outlook.company, {c.id: c.number or 0 for c in catalog.cards}
    n = s.players
    lane_card = catalog.by_id[s.lane[0]]
    kind = trick_kind(lane_card)
    cards = [a.card for a in legal if isinstance(a, Play)]
    before = list(s.trick.plays)
    later = [(me + i) % n for i in range(1, n - len(before))]
    known = knowledge(game, me)
    outcome = _stock_outcome(outlook, me, n, lane_card) if kind == "stock" else _operating_outcome(outlook, game, me, lane_card)
    totals = [0.0] * len(cards)
    for _ in range(SAMPLES):
        hands = sample_hands(game, known, game.bot)
        draws = {p: game.bot.below(_LCM) for p in later}
        picks: dict[tuple[int, str | None], str] = {}
        for i, card in enumerate(cards):
            plays = [*before, (me, card)]
            led = company[plays[0][1]]
            for p in later:
                pick = picks.get((p, led))
                if pick is None:
                    hand = hands[p]
                    follow = [c for c in hand if company[c] == led] or hand
                    pick = picks[(p, led)] = follow[draws[p] % len(follow)]
                plays.append((p, pick))
            winner = max((p for p in plays if company[p[1]] == led), key=lambda p: number[p[1]])[0]
            totals[i] += outcome(plays, winner)
    return [t / SAMPLES for t in totals]


Outcome = Callable[[list[tuple[int, str]], int], float]


def _stock_outcome(outlook: Outlook, me: int, n: int, lane_card: Card) -> Outcome:
    """A stock trick: the winner takes the prize, everyone else their own
    card, as shares; what ``me`` gains less what the others gain on average."""
    worth, company = outlook.worth, outlook.company
    prize = worth[lane_card.company or ""]

    def outcome(plays: list[tuple[int, str]], winner: int) -> float:
        total = 0.0
        for p, card in plays:
            gain = prize if p == winner else worth[company[card] or ""]
            total += gain if p == me else -gain / (n - 1)
        return total

    return outcome


def _operating_outcome(outlook: Outlook, game: Game, me: int, lane_card: Card) -> Outcome:
    """An operating trick: the winner places the lane card where it suits
    them best, then each card played is laid at the end that suits its
    player best; what that does to ``me``'s standing."""
    placing = _placement_gains(outlook, game, me, lane_card)
    stake, company, station = outlook.stake, outlook.company, outlook.station
    lays: dict[tuple[int, str], float] = {}

    def lay(p: int, card: str) -> float:
        c = company[card] or ""
        ends = [outlook.laid(c, station[card], end) - outlook.worth[c] for end in ("left", "right")]
        chosen = max(ends) if stake[p][c] >= 0 else min(ends)
        return stake[me][c] * chosen

    def outcome(plays: list[tuple[int, str]], winner: int) -> float:
        total = placing[winner]
        for p, card in plays:
            key = (p, card)
            if key not in lays:
                lays[key] = lay(p, card)
            total += lays[key]
        return total

    return outcome


def _placement_gains(outlook: Outlook, game: Game, me: int, lane_card: Card) -> list[float]:
    """For each player, the change in ``me``'s standing when that player
    wins and places ``lane_card`` where it raises their own standing most."""
    s = game.state
    options: list[dict[str, float]] = []
    if lane_card.is_locomotive:
        coming = list(outlook.coming)
        coming.remove(lane_card)
        for c in s.railways:
            if c not in s.locomotives:
                options.append({**outlook.worth, **{o: outlook.company_worth(o, coming=coming) for o in s.railways if o not in s.locomotives}, c: outlook.company_worth(c, locomotive=lane_card)})
    else:
        for c in s.railways:
            for end in ("left", "right"):
                options.append({**outlook.worth, c: outlook.laid(c, lane_card.station_value or 0, end)})
    if not options:
        return [0.0] * s.players
    mine = outlook.standing(me)
    gains = []
    for p in range(s.players):
        chosen = max(options, key=lambda worth: outlook.standing(p, worth))
        gains.append(outlook.standing(me, chosen) - mine)
    return gains


def searching(name: str) -> Bot:
    """The search rung ``name`` (``engine.trickoftherails.bots.search``),
    at the budget ``SEARCH_RUNGS`` gives it (read at each decision)."""

    def bot(game: Game) -> Action:
        from engine.trickoftherails.bots.search import choose_searching

        return choose_searching(game, *SEARCH_RUNGS[name])

    return bot


# The search rungs: deals of the hidden cards a decision, and how many of
# greedy's best actions are played out on each (see
# ``engine.trickoftherails.bots.search``).
SEARCH_RUNGS: dict[str, tuple[int, int]] = {"pimc-12": (12, 3), "pimc-48": (48, 3)}
BOT_FUNCTIONS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, **{name: searching(name) for name in SEARCH_RUNGS}}
BOTS: tuple[str, ...] = tuple(BOT_FUNCTIONS)
# The skill ladder, weakest first: each rung beats the one below (bench/ladder.py).
LADDER: tuple[str, ...] = ("random", "greedy", *SEARCH_RUNGS)
