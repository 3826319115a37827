"""The hand: its limit, Draw and Discard (the first Local Operations option)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import InvalidActionError, Reason
from engine.stationmaster.content.model import Card, Catalog, Maneuver, TrainCard
from engine.stationmaster.rules.actions import Discard, Draw
from engine.stationmaster.rules.piles import can_draw_from_deck, draw_top, take_from_department

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def limit_bonuses(catalog: Catalog) -> dict[str, int]:
    """Each card id that raises the hand limit while held, with its bonus."""
    return {c.id: c.hand_limit_bonus for c in catalog.cards if isinstance(c, Maneuver) and c.hand_limit_bonus}


def hand_limit(game: RulesContext, player: int) -> int:
    """Three, raised while a card that grants a bonus is held; bonuses do not
    stack (the sources say four while you hold a Red Flag, not per flag).
    Asked on nearly every check, so the bonuses are looked up, not derived."""
    bonus = 0
    if game.limit_bonus:
        for card_id in game.state.hands[player]:
            held = game.limit_bonus.get(card_id, 0)
            if held > bonus:
                bonus = held
    return game.catalog.game.table.hand_limit + bonus


def discard_refusal(game: RulesContext, card: Card) -> Reason | None:
    if isinstance(card, TrainCard):
        if card.service == "extra":
            return Reason("extra-never-discarded", f"{card.name} is an Extra, and an Extra can never be discarded")
        if not game.rules["discardTimetabled"]:
            return Reason("timetabled-not-discarded", f"{card.name} is a timetabled train; the discardTimetabled house rule is off, so it can only be played")
    return None


def card(game: RulesContext, card_id: str) -> Card:
    found = game.catalog.by_id.get(card_id)
    if found is None:
        raise InvalidActionError(f"unknown card {card_id!r}")
    return found


def over_limit(game: RulesContext, player: int) -> bool:
    held = len(game.state.hands[player])
    # A bonus only ever raises the limit (``hand_limit`` takes the largest, or
    # none), so a hand within the printed limit is within it: asked about twice
    # an action, and nearly always answered here without reading the hand.
    if held <= game.catalog.game.table.hand_limit:
        return False
    return held > hand_limit(game, player)


def must_play(game: RulesContext, player: int) -> bool:
    """Over the limit with nothing that may be discarded: playing is the way out."""
    hand = game.state.hands[player]
    return over_limit(game, player) and all(discard_refusal(game, game.catalog.by_id[c]) for c in hand)


def from_hand_reasons(game: RulesContext, player: int, played: Card) -> list[Reason]:
    """What refuses any card put to use from the hand, a Play or an Attack
    alike: it must be held, only one card is used a turn (unless the hand is
    over its limit and must shed one), and a Draw followed by a discard ends
    what the turn may do."""
    s = game.state
    found = []
    if played.id not in s.hands[player]:
        found.append(Reason("not-in-hand", f"{played.name} is not in player {player}'s hand"))
    if s.turn.played and not must_play(game, player):
        found.append(Reason("already-played", "a card has already been played this turn"))
    if s.turn.discarded and not over_limit(game, player):
        found.append(Reason("discarded-this-turn", "this turn's Draw was followed by a discard, which ends what the turn may do"))
    return found


def draw_reasons(game: RulesContext, action: Draw) -> list[Reason]:
    s = game.state
    found = []
    if s.turn.drawn or s.turn.played:
        found.append(Reason("draw-taken", "Draw is a Local Operations option taken at the start of a turn, and this turn has already " + ("drawn" if s.turn.drawn else "played")))
    if action.source == "deck":
        if not can_draw_from_deck(s):
            found.append(Reason("deck-empty", "the Home Office deck is empty and there is nothing to rebuild it from"))
    elif not s.departments[int(action.source) - 1]:  # check_well_formed has checked the number
        found.append(Reason("department-empty", f"Department {action.source} is empty"))
    return found


def discard_reasons(game: RulesContext, action: Discard) -> list[Reason]:
    s = game.state
    discarded = card(game, action.card)
    found = []
    if action.card not in s.hands[action.player]:
        found.append(Reason("not-in-hand", f"{discarded.name} is not in player {action.player}'s hand"))
    why = discard_refusal(game, discarded)
    if why:
        found.append(why)
    if not over_limit(game, action.player) and not (s.turn.drawn and not s.turn.played and not s.turn.discarded):
        found.append(Reason("discard-not-now", "a discard follows a Draw (draw, then play or discard), or brings a hand over the limit back down"))
    return found


def perform_draw(game: RulesContext, action: Draw) -> None:
    s = game.state
    if action.source == "deck":
        card_id = draw_top(s, game.rng)
        assert card_id is not None
    else:
        card_id = take_from_department(s, game.rng, int(action.source) - 1)
    s.hands[action.player].append(card_id)
    s.turn.drawn = True


def perform_discard(game: RulesContext, action: Discard) -> None:
    s = game.state
    s.hands[action.player].remove(action.card)
    s.departments[action.department - 1].append(action.card)
    s.turn.discarded = True
