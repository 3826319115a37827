"""The hand: each card, what it is, and what it does."""

from __future__ import annotations

from collections.abc import Mapping

from command.stationmaster.screen.names import FAMILY_WORDS, GRANT_WORDS, TRAFFIC_WORDS, and_list, car_types, card_name
from command.words import counted
from engine.stationmaster.content.model import Facility, FacilityModifier, SecondSection, TrainCard
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.game import Game


def _card_kind(game: Game, card_id: str) -> str:
    """What a card in hand is and, where the card has one, what it does."""
    card = game.catalog.by_id.get(card_id)
    if card is None:
        return "[unknown card]"
    if isinstance(card, TrainCard):
        room = [counted(n, word, many) for n, word, many in ((card.consist.coach, "coach", "coaches"), (card.consist.freight, "freight car", None)) if n]
        text = f"[{'Extra' if card.service == 'extra' else 'timetabled'} train]: up to {and_list([*room, *(['a caboose'] if card.caboose else [])]) or 'no cars'}"
        for restriction in card.restrictions:
            rule = card.restriction_rules.get(restriction)
            if rule is not None:
                text += f"; {rule.words}"
        return text
    kind = f"[{FAMILY_WORDS.get(card.family, card.family.replace('-', ' '))}]"
    if isinstance(card, FacilityModifier):
        host = "the Office" if card.hosts == "office" else "a facility"
        return f"{kind}: adds {GRANT_WORDS.get(card.grant, card.grant)} to {host} it stands beside"
    if isinstance(card, Facility):
        return f"{kind}: {TRAFFIC_WORDS.get(card.traffic, card.traffic)} {card.commodity} in {car_types(card.car_types)}"
    if isinstance(card, SecondSection):
        return f"{kind}: runs behind the train due out this Stage"
    effect = getattr(card, "effect", None)
    known = game.catalog.effects.get(effect) if isinstance(effect, str) else None
    if known is not None:
        if effect not in load_handlers():
            return f"{kind}: what it does is not built yet"
        return f"{kind}: {known.summary}"
    return kind


def render_hand(game: Game, player: int, notes: Mapping[int, str] | None = None, *, brief: bool = False) -> str:
    """The hand, each card numbered from 1 with what it is (``brief``: its
    kind only, else what it does too) and, where ``notes`` holds one for its
    place in the hand (0 for the first card), why it cannot be played now."""
    from engine.stationmaster.rules.hand import hand_limit

    hand = game.state.hands[player]
    limit = hand_limit(game, player)
    over = f"; {len(hand) - limit} over the limit: play or discard before the turn ends" if len(hand) > limit else ""
    lines = [f"Hand of player {player} ({counted(len(hand), 'card')}, limit {limit}{over}):"]
    for index, card_id in enumerate(hand):
        kind = _card_kind(game, card_id)
        if brief:
            kind = kind.partition(":")[0]
        note = (notes or {}).get(index)
        lines.append(f"  {index + 1}. {card_name(game, card_id)} {kind}" + (f" -- not now: {note}" if note else ""))
    if not hand:
        lines.append("  (empty)")
    return "\n".join(lines)
