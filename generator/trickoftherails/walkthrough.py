"""The worked game (``worked.py``) told trick by trick, for a reader learning
the game: before each trick the lane and who leads, then the cards played,
who won, and what the lane card made of the trick (the shares taken, the
cards placed and laid), with the railways as they stand after it.

Nothing here applies a rule: the bot plays through the game's own API and
each step is read off the engine's state before and after, so the page tells
whatever the engine does today."""

from __future__ import annotations

from dataclasses import dataclass

from engine.trickoftherails.bots import BOT_FUNCTIONS
from engine.trickoftherails.content.model import Card, Catalog, Company
from engine.trickoftherails.rules.actions import LayTrack, PlaceCity, PlaceLocomotive
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.lanecards import TrickKind, trick_kind
from engine.trickoftherails.rules.state import GameState
from generator.remembered import by_content
from generator.trickoftherails.worked import WORKED_BOT, WORKED_PLAYERS, WORKED_SEED


@dataclass(frozen=True)
class Placement:
    """A card put on a railway: a City or a played card at an ``end``, or a
    Locomotive at the head (``end`` None); ``chosen`` is False for the card
    that comes with another and goes where the rules send it."""

    player: int  # 0-based seat
    card: Card
    company: Company
    end: str | None
    chosen: bool = True


@dataclass(frozen=True)
class Railway:
    """A company's railway as it stands: its Locomotive, its cards left to
    right, which of them came this trick, and a share's worth if the game
    ended now."""

    company: Company
    locomotive: Card | None
    cards: tuple[Card, ...]
    new: frozenset[int]  # positions in ``cards`` laid this trick
    new_locomotive: bool
    share_value: int


@dataclass(frozen=True)
class TrickTold:
    number: int  # 1-based
    lane: tuple[Card, ...]  # before the trick, front first: the front decides it
    kind: TrickKind
    leader: int
    plays: tuple[tuple[int, Card], ...]  # seat and card, the lead first
    winner: int
    shares: tuple[tuple[int, Card], ...]  # the shares taken, the winner's first
    reserved: Card | None  # the winner's card, waiting in the lane as a later prize
    removed: tuple[Card, ...]  # cards that left the game
    placements: tuple[Placement, ...]
    railways: tuple[Railway, ...]  # after the trick
    held: tuple[tuple[int, ...], ...]  # after the trick: each seat's shares per company (catalog order)


@dataclass(frozen=True)
class Walkthrough:
    seed: int
    players: int
    bot: str
    variant: str
    hands: tuple[tuple[Card, ...], ...]  # as dealt, in the catalog's order
    start: tuple[Railway, ...]  # the railways after setup
    tricks: tuple[TrickTold, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


def _railways(game: Game, before: GameState | None) -> tuple[Railway, ...]:
    s, catalog = game.state, game.catalog
    values = game.share_values()
    found = []
    for company in catalog.companies:
        cards = s.railways[company.id]
        old = before.railways[company.id] if before is not None else cards
        # Cards go on at either end, so the old railway is a run inside the new one.
        start = next(i for i in range(len(cards) - len(old) + 1) if cards[i : i + len(old)] == old)
        new = frozenset(i for i in range(len(cards)) if not start <= i < start + len(old))
        loco = s.locomotives.get(company.id)
        new_loco = loco is not None and before is not None and company.id not in before.locomotives
        found.append(Railway(company, catalog.by_id[loco] if loco else None, tuple(catalog.by_id[c] for c in cards), new, new_loco, values[company.id]))
    return tuple(found)


def _held(game: Game) -> tuple[tuple[int, ...], ...]:
    catalog = game.catalog
    return tuple(tuple(sum(1 for c in shares if catalog.by_id[c].company == company.id) for company in catalog.companies) for shares in game.state.shares)


@by_content
def walkthrough(catalog: Catalog, seed: int = WORKED_SEED, players: int = WORKED_PLAYERS, bot: str = WORKED_BOT) -> Walkthrough:
    """The game ``worked.play`` plays, step by step through the same bot."""
    choose = BOT_FUNCTIONS[bot]
    game = Game(catalog, players=players, seed=seed)
    by_id = catalog.by_id
    hands = tuple(tuple(by_id[c] for c in hand) for hand in game.state.hands)
    start = _railways(game, None)
    tricks: list[TrickTold] = []
    while not game.is_over():
        before = game.state.copy()
        placements: list[Placement] = []
        while game.state.tricks_played == before.tricks_played or game.state.phase == "place":
            action = choose(game)
            pending = game.state.pending[0] if game.state.pending else None
            placed_before = dict(game.state.locomotives)
            game.apply(action)
            if pending is None:
                continue
            if isinstance(action, PlaceCity):
                placements.append(Placement(action.player, by_id[pending.card], catalog.company(action.company), action.end))
            elif isinstance(action, LayTrack):
                company = by_id[pending.card].company
                assert company is not None
                placements.append(Placement(action.player, by_id[pending.card], catalog.company(company), action.end))
            elif isinstance(action, PlaceLocomotive):
                placements.append(Placement(action.player, by_id[pending.card], catalog.company(action.company), None))
                for company_id, loco in game.state.locomotives.items():
                    if company_id not in placed_before and company_id != action.company:
                        placements.append(Placement(action.player, by_id[loco], catalog.company(company_id), None, chosen=False))
        s = game.state
        trick = s.last_trick
        assert trick is not None and trick.winner is not None
        plays = tuple((seat, by_id[card]) for seat, card in trick.plays)
        won_first = [(trick.winner + i) % players for i in range(players)]  # the winner, then clockwise
        shares = tuple((p, by_id[c]) for p in won_first for c in s.shares[p][len(before.shares[p]) :])
        # A Railway card new to the lane is the winner's, put in a Reservation's place.
        reserved = next((by_id[c] for c in s.lane if c not in before.lane[1:] and by_id[c].family == "railway"), None)
        tricks.append(
            TrickTold(
                number=len(tricks) + 1,
                lane=tuple(by_id[c] for c in before.lane),
                kind=trick_kind(by_id[before.lane[0]]),
                leader=trick.leader,
                plays=plays,
                winner=trick.winner,
                shares=shares,
                reserved=reserved,
                removed=tuple(by_id[c] for c in s.removed[len(before.removed) :]),
                placements=tuple(placements),
                railways=_railways(game, before),
                held=_held(game),
            )
        )
    return Walkthrough(seed, players, bot, str(game.rules["variant"]), hands, start, tuple(tricks), tuple(game.score()), tuple(game.winners()))
