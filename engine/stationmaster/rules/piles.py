"""The Home Office deck, the Departments and the Salvage Yard."""

from __future__ import annotations

from engine.rng import SeededStream
from engine.stationmaster.rules.state import GameState


def rebuild_deck(state: GameState, rng: SeededStream, *, turn_up: bool = True) -> bool:
    """Gather the Salvage Yard and every Department card into a new shuffled
    deck, then (with ``turn_up``) turn one card up on each Department so three
    piles stay on the table. Played timetabled trains are on the timetable, so
    they stay out. Returns False when there was nothing to gather."""
    gathered = state.salvage + [card for pile in state.departments for card in pile]
    if not gathered:
        return False
    state.salvage = []
    state.departments = [[] for _ in state.departments]
    rng.shuffle(gathered)
    state.deck = gathered
    if turn_up:
        turn_up_departments(state)
    state.log.append(f"the Home Office deck ran out: rebuilt from the Salvage Yard and the Departments ({len(gathered)} cards)")
    return True


def turn_up_departments(state: GameState) -> None:
    """One card from the deck onto each empty Department."""
    for pile in state.departments:
        if not pile and state.deck:
            pile.append(state.deck.pop())


def draw_top(state: GameState, rng: SeededStream) -> str | None:
    """The deck's top card, rebuilding the deck first if it is empty. After a
    rebuild the draw comes first, then the Departments are turned up, so a
    small rebuilt deck still yields the card that was asked for."""
    if state.deck:
        return state.deck.pop()
    if not rebuild_deck(state, rng, turn_up=False):
        return None
    card = state.deck.pop()
    turn_up_departments(state)
    return card


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
