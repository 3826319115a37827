"""What an attack may be aimed at, for the attack handlers in ``effects/``:
a rival's Facilities and squares, the trains on the Mainline. Each finder
returns what it found with every reason the target named is not there, so a
handler's refusals read as the rules do."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason
from engine.stationmaster.content.model import Card, Facility
from engine.stationmaster.rules.actions import Attack
from engine.stationmaster.rules.geometry import coords, key
from engine.stationmaster.rules.lookups import find_train
from engine.stationmaster.rules.state import Square, Train

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext


def rivals(game: RulesContext, player: int) -> list[int]:
    """Every other player, in seat order from ``player``'s left."""
    players = game.state.players
    return [(player + step) % players for step in range(1, players)]


def rival_facilities(game: RulesContext, player: int) -> list[tuple[int, int, int, Facility]]:
    """(rival, x, y, Facility) for every Facility in every rival's district."""
    found = []
    for rival in rivals(game, player):
        for where, square in sorted(game.state.districts[rival].squares.items()):
            card = game.catalog.by_id[square.card]
            if square.kind == "facility" and isinstance(card, Facility):
                x, y = coords(where)
                found.append((rival, x, y, card))
    return found


def facility_target(game: RulesContext, action: Attack, card: Card) -> tuple[Square | None, Facility | None, list[str]]:
    """The rival's Facility at the attack's (x, y), or the reasons it is not there."""
    if action.x is None or action.y is None or action.rival is None:
        return None, None, [Reason("needs-square", f"{card.name} is aimed at a Facility: give its square (x, y)")]
    square = game.state.districts[action.rival].squares.get(key(action.x, action.y))
    target = game.catalog.by_id[square.card] if square is not None else None
    if square is None or square.kind != "facility" or not isinstance(target, Facility):
        what = f"a {target.name}" if target is not None else "nothing"
        return None, None, [Reason("no-facility-there", f"({action.x}, {action.y}) of player {action.rival}'s district holds {what}, not a Facility")]
    return square, target, []


def named_train(game: RulesContext, action: Attack, card: Card) -> tuple[Train | None, list[str]]:
    """The train the attack names, or the reasons it is not there."""
    if action.train is None:
        return None, [Reason("needs-train", f"{card.name} is aimed at a train: name it (train)")]
    train = find_train(game, action.train)
    if train is None:
        return None, [Reason("no-such-train", f"there is no train {action.train!r} on the Mainline")]
    return train, []


def train_name(game: RulesContext, train: Train) -> str:
    return f"{game.catalog.by_id[train.card].name} ({train.id})"
