"""What one player cannot see, and a fresh deal of it that agrees with
everything they can: the cards in the other hands, dealt again at their
sizes, never giving a player a card of a company they have shown they hold
none of (by not following it). ``Game.determinized`` deals with it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from engine.rng import SeededStream
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.actions import Action, Play

# Deals tried before the cards are dealt one at a time around the voids.
_SHUFFLES = 4


def voids(catalog: Catalog, players: int, history: Sequence[Action]) -> dict[int, frozenset[str]]:
    """The companies each player failed to follow. Every trick is
    ``players`` plays in a row, so the plays of the history group into tricks."""
    company = catalog.company_of
    found: dict[int, set[str]] = {p: set() for p in range(players)}
    plays = [a for a in history if isinstance(a, Play)]
    for start in range(0, len(plays), players):
        trick = plays[start : start + players]
        led = company[trick[0].card]
        for play in trick[1:]:
            if led is not None and company[play.card] != led:
                found[play.player].add(led)
    return {p: frozenset(v) for p, v in found.items()}


def deal(catalog: Catalog, cards: Sequence[str], sizes: Mapping[int, int], void: Mapping[int, frozenset[str]], stream: SeededStream) -> dict[int, list[str]]:
    """``cards`` dealt to the players of ``sizes``, each as many as their
    size, none a card of a company in their ``void``.

    The cards are shuffled and dealt in turn; with voids, a deal that breaks
    one is dealt again, a few times (each deal that keeps them is as likely
    as any other). Failing that, they go out one at a time in a shuffled order, each to a
    player drawn in proportion to the room left in their hand among those
    who may take it without leaving the rest undealable: for every group of
    players (at most 15), the cards only that group may hold must fit in the
    group's room, a *slack* kept up to date card by card. So a deal always
    comes out when one exists, as the real one does; ValueError when none
    does (hands that were never dealt from these cards)."""
    company = catalog.company_of
    players = sorted(sizes)
    if sum(sizes[p] for p in players) != len(cards):
        raise ValueError(f"{len(cards)} unseen cards cannot fill hands of {sum(sizes.values())}")
    order = sorted(cards)  # in no order the real hands could betray
    stream.shuffle(order)
    voided = any(void.get(p) for p in players)
    for attempt in range(_SHUFFLES if voided else 1):
        if attempt:
            stream.shuffle(order)
        hands, at = {}, 0
        for p in players:
            hands[p] = order[at : at + sizes[p]]
            at += sizes[p]
        if not voided or not any(company[card] in void.get(p, ()) for p, hand in hands.items() for card in hand):
            return hands
    takers = {c: frozenset(p for p in players if c not in void.get(p, frozenset())) for c in {company[card] for card in cards}}
    groups = [frozenset(g) for k in range(1, len(players)) for g in combinations(players, k)]
    # A group's slack: its room less the cards only its players may hold.
    slack = [sum(sizes[p] for p in g) for g in groups]
    for card in cards:
        who = takers[company[card]]
        if not who:
            raise ValueError("no deal of the unseen cards keeps every known void")
        for i, g in enumerate(groups):
            if who <= g:
                slack[i] -= 1
    if min(slack, default=0) < 0:
        raise ValueError("no deal of the unseen cards keeps every known void")
    room = dict(sizes)
    hands = {p: [] for p in players}
    for card in order:
        who = takers[company[card]]
        inside = [who <= g for g in groups]
        open_ = [p for p in players if p in who and room[p] and all(s - (p in g) + own >= 0 for s, g, own in zip(slack, groups, inside))]
        pick = stream.below(sum(room[p] for p in open_))
        for p in open_:
            pick -= room[p]
            if pick < 0:
                break
        hands[p].append(card)
        room[p] -= 1
        slack = [s - (p in g) + own for s, g, own in zip(slack, groups, inside)]
    return hands
