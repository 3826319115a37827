"""Eminent Domain: claims an empty square inside a rival's Limits, beside
what the district has built; nothing may be built on it for the rest of the
game. Deed of Title answers it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card
from engine.stationmaster.effects import on
from engine.stationmaster.rules.actions import Attack
from engine.stationmaster.rules.events import ATTACK_PROPOSALS, ATTACK_REFUSALS, ATTACK_RESOLVED, SQUARE_HELD
from engine.stationmaster.rules.geometry import DELTA, coords, key
from engine.stationmaster.rules.lasting import in_force
from engine.stationmaster.rules.state import District, Lasting
from engine.stationmaster.rules.targets import rivals

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay

EFFECT = "eminent-domain"


def _beside(district: District, x: int, y: int) -> bool:
    """Whether a card of the district touches (x, y), by a side or a corner."""
    return any(key(x + dx, y + dy) in district.squares for dx, dy in DELTA.values())


def _claimable(district: District) -> list[tuple[int, int]]:
    spots = {(x + dx, y + dy) for x, y in (coords(k) for k in district.squares) for dx, dy in DELTA.values()}
    return sorted((x, y) for x, y in spots if key(x, y) not in district.squares and district.west_limit < x < district.east_limit)


@on(ATTACK_PROPOSALS, EFFECT)
def eminent_domain_targets(game: RulesContext, player: int, card: Card) -> list[Attack]:
    return [
        Attack(player, card.id, rival=rival, x=x, y=y)
        for rival in rivals(game, player)
        for x, y in _claimable(game.state.districts[rival])
        if in_force(game, card.id, player=rival, square=key(x, y)) is None
    ]


@on(ATTACK_REFUSALS, EFFECT)
def eminent_domain_refusals(game: RulesContext, action: Attack, card: Card) -> list[str]:
    if action.x is None or action.y is None or action.rival is None:
        return [Reason("needs-square", f"{card.name} claims a square of a rival's district: give it (x, y)")]
    district = game.state.districts[action.rival]
    x, y = action.x, action.y
    found: list[str] = []
    if not district.west_limit < x < district.east_limit:
        found.append(Reason("outside-limits", f"({x}, {y}) is not inside player {action.rival}'s Limits (columns {district.west_limit} and {district.east_limit})"))
    here = district.squares.get(key(x, y))
    if here is not None:
        found.append(Reason("square-taken", f"({x}, {y}) of player {action.rival}'s district holds {game.catalog.by_id[here.card].name}: only an empty square is claimed"))
    elif not _beside(district, x, y):
        found.append(Reason("not-beside-the-district", f"({x}, {y}) touches nothing player {action.rival} has built"))
    if in_force(game, card.id, player=action.rival, square=key(x, y)) is not None:
        found.append(Reason("already-claimed", f"({x}, {y}) of player {action.rival}'s district is claimed already"))
    return found


@on(ATTACK_RESOLVED, EFFECT)
def eminent_domain(game: RulesContext, attack: AttackInPlay, card: Card) -> None:
    assert attack.rival is not None and attack.x is not None and attack.y is not None
    game.state.lasting.append(Lasting(card.id, attack.attacker, attack.rival, square=key(attack.x, attack.y)))
    game.state.districts[attack.rival].revision += 1  # what may be built there has changed
    game.state.log.append(f"player {attack.attacker} claims ({attack.x}, {attack.y}) of player {attack.rival}'s district: nothing may be built there")


@on(SQUARE_HELD, EFFECT)
def claimed(game: RulesContext, lasting: Lasting, card: Card) -> list[str]:
    x, y = coords(lasting.square or "0,0")
    return [Reason("square-claimed", f"({x}, {y}) is claimed by player {lasting.attacker}'s {card.name}: nothing may be built there")]
