"""What the trains standing at the player's Office may do there, drawn
from the actions offered, with the rules' reasons where nothing is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from command.stationmaster.screen.keys import ActionKeys
from command.stationmaster.screen.names import and_list, card_name, describe_cars, or_list, train_label
from command.words import counted
from engine.stationmaster.rules.actions import Action, FlyingSwitch, Hold, Pull, SortCars, Spot
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import coords
from engine.stationmaster.rules.held import spends
from engine.stationmaster.rules.state import District, Square, Train
from engine.stationmaster.rules.switching import reachable, train_district

_SWITCHING = (Spot, Pull, FlyingSwitch, SortCars, Hold)


def _keys(keys: Sequence[str]) -> str:
    return f"[{', '.join(keys)}]"


def _refusals(game: Game, actions: Sequence[Action]) -> list[str]:
    """Every reason the rules give against any of ``actions``, each once."""
    found: dict[str, None] = {}
    for action in actions:
        for reason in game.check(action):
            found.setdefault(" ".join(str(reason).split()), None)
    return list(found)


def _square_offers(square: Square, offered: Sequence[tuple[str, Action]]) -> list[str]:
    """What the offered moves do at one square, each with its key."""
    parts: list[str] = []
    for key, action in offered:
        if isinstance(action, Pull):
            if square.cars:
                parts.append(f"couple the {counted(len(square.cars), 'car')} standing there {_keys([key])}")
            else:
                parts.append(f"take back its caboose {_keys([key])}")
    cars = [(action.cars, key) for key, action in offered if isinstance(action, Spot) and action.cars and not action.caboose]
    if cars:
        counts = [f"{counted(n, 'car') if len(cars) > 1 else 'car'} {_keys([k])}" for n, k in sorted(cars)]
        parts.append(f"set out its rear {or_list(counts)}")
    parts += [f"set out its caboose {_keys([key])}" for key, action in offered if isinstance(action, Spot) and action.caboose]
    return parts


def _square_refusals(game: Game, player: int, train: Train, square: Square, x: int, y: int) -> list[tuple[str, list[str]]]:
    """The moves a square could see and the rules' reasons against each:
    coupling what stands there (if anything does) and setting out."""
    tries: list[tuple[str, Action]] = []
    if square.cars or square.caboose_of:
        tries.append(("to couple", Pull(player, train=train.id, x=x, y=y)))
    if train.cars:
        tries.append(("to set out", Spot(player, train=train.id, x=x, y=y, cars=1)))
    elif train.caboose:
        tries.append(("to set out its caboose", Spot(player, train=train.id, x=x, y=y, cars=0, caboose=True)))
    return [(what, _refusals(game, [action])) for what, action in tries]


def _refusal_words(refused: Sequence[tuple[str, list[str]]], said: Sequence[str] = ()) -> str:
    parts = []
    for what, reasons in refused:
        left = [r for r in reasons if r not in said]
        if left:
            parts.append(f"{what[0].upper()}{what[1:]}: {'; '.join(left)}" if len(refused) > 1 else "; ".join(left))
    return ". ".join(parts)


def _train_switching(game: Game, player: int, district: District, train: Train, offered: Sequence[tuple[str, Action]]) -> list[str]:
    caboose = " and a caboose" if train.caboose else ""
    lines = [f"Switching at your Office: {train_label(game, train.id)}, {describe_cars(train.cars)}{caboose}"]
    squares = sorted(reachable(game, district), key=lambda k: coords(k)[::-1])
    moves = [(k, a) for k, a in offered if isinstance(a, (Spot, Pull))]
    # where, what stands there, the offers there, and what the rules refuse there
    per_square: list[tuple[str, str, list[str], list[tuple[str, list[str]]]]] = []
    for square_key in squares:
        x, y = coords(square_key)
        square = district.squares[square_key]
        here = [(k, a) for k, a in moves if isinstance(a, (Spot, Pull)) and (a.x, a.y) == (x, y)]
        what = card_name(game, square.card)
        if square.cars:
            what += f", {describe_cars(square.cars)}"
        if square.caboose_of:
            what += f", the caboose of {train_label(game, square.caboose_of)}"
        offers = _square_offers(square, here) if here else []
        refused = [] if here else _square_refusals(game, player, train, square, x, y)
        per_square.append((f"({x}, {y})", what, offers, refused))
    if not squares:
        lines.append("  the rails from the Office reach no square it may stop on")
    elif not moves:
        # a reason given against every move tried at every square (the Switch
        # option is closed, say) is said once, for the train
        tried = [reasons for *_, refused in per_square for reasons in ([r for _, r in refused] or [[]])]
        common = [r for r in tried[0] if all(r in reasons for reasons in tried)] if tried else []
        if common:
            lines.append(f"  no switching move now: {'; '.join(common)}")
            lines.append(f"  (the rails from the Office reach {and_list([where for where, *_ in per_square])})")
            per_square = []
    idle = [where for where, _, offers, refused in per_square if not offers and not refused]
    for where, what, offers, refused in per_square:
        if offers or refused:
            lines.append(f"  {where} {what}: " + ("; ".join(offers) if offers else ("no move here. " if len(refused) > 1 else "no move here: ") + _refusal_words(refused)))
    if idle:
        lines.append(f"  {and_list(idle)}: no move there: nothing stands there to couple, and the train has nothing to set out")
    kicks = [(k, a) for k, a in offered if isinstance(a, FlyingSwitch)]
    if kicks:
        name = next((c.name for c in spends(game, FlyingSwitch)), "a held card")
        targets = [f"({a.x}, {a.y}) {_keys([k])}" for k, a in kicks if isinstance(a, FlyingSwitch)]
        lines.append(f"  {name}: its rear car can be cut off on the move to roll to {or_list(targets)}")
    for key, action in offered:
        if isinstance(action, SortCars):
            lines.append(f"  it may sort its cars here {_keys([key])}")
        elif isinstance(action, Hold):
            lines.append(f"  it may be held at the Office through the next Mainline Phase {_keys([key])}")
    return lines


def render_switching(game: Game, player: int, keyed: Mapping[str, Action] | None = None) -> str:
    """For each train standing at the player's Office: what the moves offered
    now do at each square the rails reach (with their keys), and where none
    is offered, the rules' reasons. Drawn from the offered actions
    (``keyed``; by default the legal actions now), so it never promises a
    move the list does not hold. Nothing once the game is over."""
    if game.is_over():
        return ""
    if keyed is None:
        keyed = ActionKeys().assign(game, game.legal_actions())
    lines: list[str] = []
    for train in game.state.trains:
        district = train_district(game, train)
        if district is None or district.player != player:
            continue
        offered = [(k, a) for k, a in keyed.items() if isinstance(a, _SWITCHING) and a.train == train.id]
        lines += _train_switching(game, player, district, train, offered)
    return "\n".join(lines)
