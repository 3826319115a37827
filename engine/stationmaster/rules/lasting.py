"""What attacks leave in force (``GameState.lasting``), asked where the rules
apply it, and lifted when its time runs out.

An entry names the attack card; that card's handler says what it does
through the query events (``WORK_HALTED`` for a Facility's work at the end of
its player's turn, ``LINE_CLOSED`` for trains starting onto a Mainline card,
``SQUARE_HELD`` for building on a district square). An entry with ``left``
counts down: on a district, one for each turn its player ends; on the
Mainline, one for each Mainline Phase. At zero it lifts; ``None`` lasts the
game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason, reasons_from
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.events import LINE_CLOSED, SQUARE_HELD, WORK_HALTED
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.lookups import effect_of, log
from engine.stationmaster.rules.state import Lasting

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def halted_work(game: RulesContext, player: int, square_key: str) -> set[str]:
    """What attacks in force stop at the Facility on ``square_key`` of
    ``player``'s district this turn: "work" (all of it), "inbound" (taking in
    loads); empty when it works as usual."""
    halted: set[str] = set()
    registry = load_handlers()
    for entry in game.state.lasting:
        if entry.player == player and entry.square == square_key:
            card = game.catalog.by_id[entry.card]
            ask = registry.get_handler(WORK_HALTED, effect_of(card))
            what = ask(game, entry, card) if ask is not None else None
            if what is not None:
                halted.add(what)
    return halted


def line_closed(game: RulesContext, slot: int) -> str | None:
    """Why no train may start onto Mainline position ``slot`` now, or None."""
    registry = load_handlers()
    for entry in game.state.lasting:
        if entry.player is None and entry.slot == slot:
            card = game.catalog.by_id[entry.card]
            ask = registry.get_handler(LINE_CLOSED, effect_of(card))
            why = ask(game, entry, card) if ask is not None else None
            if why is not None:
                return why
    return None


def square_refusals(game: RulesContext, player: int, x: int, y: int) -> list[Reason]:
    """Every reason an attack in force forbids building on (x, y) of ``player``'s district."""
    found: list[Reason] = []
    where = key(x, y)
    for entry in game.state.lasting:
        if entry.player == player and entry.square == where:
            card = game.catalog.by_id[entry.card]
            ask = load_handlers().get_handler(SQUARE_HELD, effect_of(card))
            if ask is not None:
                found += reasons_from(f"effect:{effect_of(card)}", ask(game, entry, card))
    return found


def in_force(game: RulesContext, card_id: str, *, player: int | None = None, square: str | None = None, slot: int | None = None) -> Lasting | None:
    """The entry ``card_id`` left on that square or Mainline position, if any."""
    for entry in game.state.lasting:
        if entry.card == card_id and entry.player == player and entry.square == square and entry.slot == slot:
            return entry
    return None


def turn_ended(game: RulesContext, player: int) -> None:
    """``player``'s turn has ended (and, after the last player's, a Mainline
    Phase has run): count down what stands in force, and lift what is spent."""
    s = game.state
    phase_ran = player == s.players - 1
    kept: list[Lasting] = []
    for entry in s.lasting:
        counts = entry.player == player if entry.player is not None else phase_ran
        if counts and entry.left is not None:
            entry.left -= 1
            if entry.left <= 0:
                log(s, f"the {game.catalog.by_id[entry.card].name} played by player {entry.attacker} is over: {_where(game, entry)} is back to normal")
                continue
        kept.append(entry)
    s.lasting = kept


def _where(game: RulesContext, entry: Lasting) -> str:
    if entry.player is None:
        slot = entry.slot if entry.slot is not None else 0
        return f"Mainline position {slot} ({game.catalog.by_id[game.state.slot_card(game.state.mainline[slot])].name})"
    x, y = (int(v) for v in (entry.square or "0,0").split(","))
    square = game.state.districts[entry.player].squares.get(key(x, y))
    what = game.catalog.by_id[square.card].name if square is not None else "the square"
    return f"player {entry.player}'s {what} at ({x}, {y})"
