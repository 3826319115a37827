"""What one player can know of the hands they cannot see, from what is public:
which Railway cards are unseen (so in someone else's hand), how many cards
each other player holds, and which companies a player has shown they hold
none of (by not following suit). ``sample_hands`` deals the unseen cards
out again consistently with all of that, for a bot that guesses.

Nothing here reads another player's hand: only its size, the table, and the
actions played so far (every one of them was played face up)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.rng import SeededStream
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.hidden import voids

# Tries at a deal that honours every known void before giving up on them.
_DEAL_TRIES = 20


@dataclass(frozen=True)
class Knowledge:
    """``player``'s knowledge of the others' hands."""

    player: int
    unseen: tuple[str, ...]  # Railway cards in no public place and not in the player's hand
    sizes: Mapping[int, int]  # each other player's hand size
    voids: Mapping[int, frozenset[str]]  # companies each other player is known to hold none of


def knowledge(game: Game, player: int) -> Knowledge:
    s, catalog = game.state, game.catalog
    seen = set(s.hands[player])
    for pile in (*s.railways.values(), *s.shares, s.lane, s.removed):
        seen.update(pile)
    seen.update(card for _, card in s.trick.plays)
    unseen = tuple(c.id for c in catalog.railway_cards if c.id not in seen)
    others = [p for p in range(s.players) if p != player]
    shown_out = voids(catalog, s.players, game.history)
    return Knowledge(player, unseen, {p: len(s.hands[p]) for p in others}, {p: shown_out[p] for p in others})


def companies(game: Game) -> dict[str, str | None]:
    """Each card's company (None for a card of none)."""
    return {c.id: c.company for c in game.catalog.cards}


def sample_hands(game: Game, known: Knowledge, stream: SeededStream) -> dict[int, list[str]]:
    """A deal of the unseen cards to the other players: each gets as many as
    they hold, and no card of a company they are known to be out of (when
    the known voids leave no such deal after a few tries, they are dropped)."""
    company = companies(game)
    players = sorted(known.sizes)
    cards = list(known.unseen)
    for _ in range(_DEAL_TRIES):
        stream.shuffle(cards)
        # The most constrained cards first: those the fewest players may hold.
        eligible = {card: [p for p in players if company[card] not in known.voids[p]] for card in cards}
        cards.sort(key=lambda card: len(eligible[card]))
        room = dict(known.sizes)
        hands: dict[int, list[str]] = {p: [] for p in players}
        for card in cards:
            open_ = [p for p in eligible[card] if room[p]]
            if not open_:
                break
            weights = sum(room[p] for p in open_)
            pick = stream.below(weights)
            for p in open_:
                pick -= room[p]
                if pick < 0:
                    break
            hands[p].append(card)
            room[p] -= 1
        else:
            return hands
    stream.shuffle(cards)
    hands, at = {}, 0
    for p in players:
        hands[p] = cards[at : at + known.sizes[p]]
        at += known.sizes[p]
    return hands
