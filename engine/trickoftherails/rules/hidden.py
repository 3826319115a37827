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
    size, none a card of a company in their ``void``. The cards go out one
    at a time in a shuffled order, each to a player drawn in proportion to
    the room left in their hand among those who may take it without leaving
    the rest undealable (a check over every group of players, at most 16:
    the cards only they may hold must fit in their room), so a deal always
    comes out when one exists, as the real one does. ValueError when none
    does (hands that were never dealt from these cards)."""
    company = catalog.company_of
    players = sorted(sizes)
    room = {p: sizes[p] for p in players}
    if sum(room.values()) != len(cards):
        raise ValueError(f"{len(cards)} unseen cards cannot fill hands of {sum(room.values())}")
    left: dict[str | None, int] = {}
    for card in cards:
        left[company[card]] = left.get(company[card], 0) + 1
    takers = {c: frozenset(p for p in players if c not in void.get(p, frozenset())) for c in left}
    groups = [frozenset(g) for k in range(1, len(players)) for g in combinations(players, k)]

    def feasible() -> bool:
        if any(n and not takers[c] for c, n in left.items()):
            return False
        return all(sum(n for c, n in left.items() if takers[c] <= group) <= sum(room[p] for p in group) for group in groups)

    if not feasible():
        raise ValueError("no deal of the unseen cards keeps every known void")
    order = sorted(cards)  # in no order the real hands could betray
    stream.shuffle(order)
    hands: dict[int, list[str]] = {p: [] for p in players}
    for card in order:
        c = company[card]
        left[c] -= 1
        open_: list[int] = []
        for p in takers[c]:
            if room[p]:
                room[p] -= 1
                if feasible():
                    open_.append(p)
                room[p] += 1
        open_.sort()
        pick = stream.below(sum(room[p] for p in open_))
        for p in open_:
            pick -= room[p]
            if pick < 0:
                break
        hands[p].append(card)
        room[p] -= 1
    return hands
