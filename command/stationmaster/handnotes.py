"""Why a card in the hand cannot be played now, in the rules' own words.

A card no offered action uses would otherwise sit in the hand unexplained.
Here each such card is tried the ways it could be played (the engine's own
proposals for it, and every square of the district or every target a
rival offers) and every try is judged by ``Game.check``, so
the words are always the engine's reasons, never a rule restated here.
``hand_notes`` gives each unplayable card its most telling reason, for the
screen; ``why_not`` gives them all, for ``why N``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.stationmaster.content.model import Enhancement, Facility, FacilityModifier, OpponentCard, TrackShape
from engine.stationmaster.rules.actions import Action, Attack, Discard, FlyingSwitch, Play, RedFlag
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import coords
from engine.stationmaster.rules.held import spends
from engine.stationmaster.rules.proposals import candidates
from engine.stationmaster.rules.response import answering


@dataclass(frozen=True)
class Refusal:
    """One reason the rules gave against a card: its text as first given,
    and how many of the ways tried it refused (``tries`` in all)."""

    text: str
    count: int
    tries: int


def usable_cards(game: Game, offered: Iterable[Action]) -> set[str]:
    """The cards some offered action plays, aims or spends (a discard is not a use)."""
    used: set[str] = set()
    offered = list(offered)
    for action in offered:
        card = getattr(action, "card", None)
        if isinstance(card, str) and not isinstance(action, Discard):
            used.add(card)
    for kind in (RedFlag, FlyingSwitch):
        if any(isinstance(action, kind) for action in offered):
            used.update(card.id for card in spends(game, kind))
    return used


def hand_notes(game: Game, offered: Iterable[Action]) -> dict[int, str]:
    """For the player to act, each card in hand (by its place, from 0) that
    no ``offered`` action uses, with the rules' most telling reason against
    it. Empty outside a turn (setup, an attack's answer, the game's end)."""
    if game.is_over() or game.state.phase != "local" or answering(game.state) is not None:
        return {}
    player = game.to_act
    hand = game.state.hands[player]
    used = usable_cards(game, offered)
    proposed = _proposed(game)
    notes: dict[int, str] = {}
    reasons: dict[str, str] = {}
    for place, card_id in enumerate(hand):
        if card_id in used:
            continue
        if card_id not in reasons:
            reasons[card_id] = _short(game, card_id, proposed.get(card_id, []))
        notes[place] = reasons[card_id]
    return notes


def _short(game: Game, card_id: str, proposed: list[Action]) -> str:
    """The most telling reason against a card: one that refuses every way
    the engine proposes (the places it thinks worth trying, when there are
    several), else the commonest of all, as an example ("e.g.")."""
    ours = [action for action in proposed if not isinstance(game.catalog.by_id.get(card_id), OpponentCard) or isinstance(action, Attack)]
    if len(ours) > 1:  # one proposal's reason is only about its one place
        found = _counted(game, ours)
        if found and found[0].count == found[0].tries:
            return found[0].text
    found = refusals(game, card_id, proposed)
    if not found:
        return ""
    return found[0].text if found[0].count == found[0].tries else f"e.g. {found[0].text}"


def why_not(game: Game, card_id: str) -> list[Refusal]:
    """Every reason the rules give against playing ``card_id`` now, the
    commonest first (empty when some way of playing it is allowed)."""
    return refusals(game, card_id, _proposed(game).get(card_id))


def refusals(game: Game, card_id: str, proposed: Sequence[Action] | None = None) -> list[Refusal]:
    """The reasons against each way of playing ``card_id`` tried (the
    engine's ``proposed`` ways and ``tries_for``'s), each once with how many
    tries it refused, the commonest first; empty if a try is allowed."""
    tries = [action for action in proposed or () if not isinstance(game.catalog.by_id.get(card_id), OpponentCard) or isinstance(action, Attack)]
    tries += [action for action in tries_for(game, card_id) if action not in tries]
    return _counted(game, tries)


def _counted(game: Game, tries: Sequence[Action]) -> list[Refusal]:
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for action in tries:
        reasons = game.check(action)
        if not reasons:
            return []
        for code in dict.fromkeys(reason.code for reason in reasons):
            counts[code] += 1
        for reason in reasons:
            first.setdefault(reason.code, " ".join(str(reason).split()))
    order = {code: n for n, code in enumerate(first)}
    ranked = sorted(counts, key=lambda code: (-counts[code], order[code]))
    return [Refusal(first[code], counts[code], len(tries)) for code in ranked]


def _proposed(game: Game) -> dict[str, list[Action]]:
    """The engine's own proposals to play, aim or spend each card (not to discard it)."""
    found: dict[str, list[Action]] = {}
    for action in candidates(game):
        card = getattr(action, "card", None)
        if isinstance(card, str) and not isinstance(action, Discard):
            found.setdefault(card, []).append(action)
    return found


def tries_for(game: Game, card_id: str) -> list[Action]:
    """Ways to play ``card_id`` beyond the engine's proposals, to ask it
    why not: a card for the district on every square of the district and one
    beyond its edges, an attack at every target of every rival, anything
    else as a plain play."""
    s = game.state
    player = game.to_act
    card = game.catalog.by_id.get(card_id)
    if isinstance(card, OpponentCard):
        return [attack for rival in range(s.players) if rival != player for attack in _attacks(game, player, rival, card)]
    if isinstance(card, (TrackShape, Facility, FacilityModifier)) or (isinstance(card, Enhancement) and card.placement == "district"):
        district = s.districts[player]
        ys = [coords(square)[1] for square in district.squares] + [0]
        track = isinstance(card, TrackShape)
        turns = (0, 180) if track else (0,)
        # between the Limits signs; for track also on a sign's own square in the Running Track (it moves the sign out)
        inside = {y: 0 if track and y == 0 else 1 for y in range(min(ys) - 1, max(ys) + 2)}
        return [Play(player, card_id, x=x, y=y, rotation=turn) for y, edge in inside.items() for x in range(district.west_limit + edge, district.east_limit + 1 - edge) for turn in turns]
    return [Play(player, card_id)]


def _attacks(game: Game, player: int, rival: int, card: OpponentCard) -> list[Action]:
    """``card`` aimed at each target of its kind that ``rival`` offers."""
    s = game.state
    if card.attacks == "train" and s.trains:
        return [Attack(player, card.id, rival=rival, train=train.id) for train in s.trains]
    if card.attacks in ("facility", "districtSquare") and s.districts[rival].squares:
        return [Attack(player, card.id, rival=rival, x=x, y=y) for x, y in (coords(square) for square in s.districts[rival].squares)]
    slots = [n for n, slot in enumerate(s.mainline) if slot.kind == "terrain"]
    if card.attacks == "mainlineCard" and slots:
        return [Attack(player, card.id, rival=rival, slot=n) for n in slots]
    return [Attack(player, card.id, rival=rival)]
