"""The opponent-directed cards in plain words, for the terminal game: the
attack, answer and decline actions, the response window waiting on a player,
and what attacks have left in force. Like ``textview``, it only reads a Game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.stationmaster.rules.actions import Action, Answer, Attack, Decline
from engine.stationmaster.rules.response import aimed_at, answering

if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game
    from engine.stationmaster.rules.state import Lasting

KINDS = (Attack, Answer, Decline)


def _name(game: Game, card_id: str) -> str:
    card = game.catalog.by_id.get(card_id)
    return card.name if card is not None else repr(card_id)


def describe(game: Game, action: Action) -> str:
    """An attack, an answer or a decline in words."""
    attack = game.state.attack
    waiting = _name(game, attack.card) if attack is not None else "the attack"
    if isinstance(action, Attack):
        return f"Play {_name(game, action.card)} at {aimed_at(game, action)}"
    if isinstance(action, Answer):
        return f"Answer the {waiting} with {_name(game, action.card)}"
    return f"Let the {waiting} stand (no answer)"


def render_attacks(game: Game, player: int) -> str:
    """The attack waiting on ``player`` (if any) and what is in force; empty
    when there is nothing to say."""
    s = game.state
    lines: list[str] = []
    attack = s.attack
    if attack is not None and answering(s) == player:
        lines.append(f"Attack on you: player {attack.attacker} plays {_name(game, attack.card)} at {aimed_at(game, attack)}.")
        lines.append("  Answer it with a defence you hold, or let it stand.")
    if s.lasting:
        lines.append("Attacks in force:")
        lines += [f"  {_lasting_line(game, entry)}" for entry in s.lasting]
    return "\n".join(lines)


def _lasting_line(game: Game, entry: Lasting) -> str:
    card = _name(game, entry.card)
    if entry.player is None:
        where, unit, whose = f"Mainline position {entry.slot}", "Mainline Phase", ""
    else:
        x, y = (int(v) for v in (entry.square or "0,0").split(","))
        where, unit, whose = f"({x}, {y}) of district {entry.player}", "turn", f" of player {entry.player}"
    if entry.left is None:
        left = "for the rest of the game"
    else:
        left = f"{entry.left} more {unit}{'' if entry.left == 1 else 's'}{whose}"
    return f"{card} of player {entry.attacker} on {where}, {left}"
