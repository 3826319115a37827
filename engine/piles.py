"""The Home Office deck, the Departments and the Salvage Yard."""

from __future__ import annotations

from engine.rng import SeededStream
from engine.state import GameState


def rebuild_deck(state: GameState, rng: SeededStream) -> bool:
    """Gather the Salvage Yard and every Department card into a new shuffled
    deck, then turn one card up on each Department so three piles stay on the
    table. Played timetabled trains are on the timetable, so they stay out.
    Returns False when there was nothing to gather."""
    gathered = state.salvage + [card for pile in state.departments for card in pile]
    if not gathered:
        return False
    state.salvage = []
    state.departments = [[] for _ in state.departments]
    rng.shuffle(gathered)
    state.deck = gathered
    for pile in state.departments:
        if state.deck:
            pile.append(state.deck.pop())
    state.log.append(f"the Home Office deck ran out: rebuilt from the Salvage Yard and the Departments ({len(gathered)} cards)")
    return True


def draw_top(state: GameState, rng: SeededStream) -> str | None:
    """The deck's top card, rebuilding the deck first if it is empty."""
    if not state.deck and not rebuild_deck(state, rng):
        return None
    return state.deck.pop() if state.deck else None


def take_from_department(state: GameState, rng: SeededStream, index: int) -> str:
    """The top card of a Department; an emptied Department is refilled at once."""
    pile = state.departments[index]
    card = pile.pop()
    if not pile:
        if state.deck:
            pile.append(state.deck.pop())
        else:
            rebuild_deck(state, rng)  # turns a card up on every Department, this one included
    return card


def can_draw_from_deck(state: GameState) -> bool:
    return bool(state.deck or state.salvage or any(state.departments))
