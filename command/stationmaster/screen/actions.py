"""Every action in words, with card names, and the list of choices by key."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from command.stationmaster import attack_text
from command.stationmaster.screen.keys import ActionKeys
from command.stationmaster.screen.names import a_or_an, card_name, department_top, load_words, or_list, slot_name, train_label, train_number
from command.words import counted
from engine.stationmaster.content.model import Enhancement, FacilityModifier, OfficeTier, TrackShape, TrainCard
from engine.stationmaster.rules.actions import Action, ChooseGrade, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, RedFlag, SortCars, Spot
from engine.stationmaster.rules.consist import car_label
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import ORTHOGONAL, neighbour
from engine.stationmaster.rules.held import spends
from engine.stationmaster.rules.state import District


def describe_action(game: Game, action: Action) -> str:
    """An action in words, with card names; works for any well-formed action,
    legal or not (unknown cards and trains are shown by their ids)."""
    if isinstance(action, Draw):
        if action.source == "deck":
            return f"Draw from the deck ({counted(len(game.state.deck), 'card')})"
        department = int(action.source) if action.source.isdigit() else 0
        return f"Draw from Department {action.source} ({department_top(game, department)})"
    if isinstance(action, Discard):
        top = department_top(game, action.department)
        where = "now empty" if top == "empty" else "on top of " + top
        return f"Discard {card_name(game, action.card)} onto Department {action.department} ({where})"
    if isinstance(action, EndTurn):
        return _describe_end(game)
    if isinstance(action, ChooseGrade):
        return f"Set the grade at {slot_name(game, action.slot)} to climb {action.uphill}ward"
    if isinstance(action, Play):
        return _describe_play(game, action)
    if isinstance(action, RedFlag):
        flag = next((c.name for c in spends(game, RedFlag)), "a held card")
        return f"{flag}: hold {train_label(game, action.train)} where it stands for one Mainline Phase"
    if isinstance(action, SortCars):
        return _describe_sort(game, action)
    if isinstance(action, Spot):
        parts = [f"its rear {counted(action.cars, 'car')}" if action.cars > 1 else "its rear car"] if action.cars else []
        if action.caboose:
            parts.append("its caboose")
        return f"Switch: {train_label(game, action.train)} sets out {' and '.join(parts) or 'nothing'} at ({action.x}, {action.y})"
    if isinstance(action, Pull):
        return f"Switch: {train_label(game, action.train)} runs to ({action.x}, {action.y}) and couples what stands there"
    if isinstance(action, Hold):
        return f"Hold {train_label(game, action.train)} at the Office through the next Mainline Phase"
    if isinstance(action, attack_text.KINDS):
        return attack_text.describe(game, action)
    if isinstance(action, FlyingSwitch):
        switch = next((c.name for c in spends(game, FlyingSwitch)), "a held card")
        return f"{switch}: {train_label(game, action.train)} cuts off its rear car on the move, and it rolls to ({action.x}, {action.y})"
    return str(action)  # pragma: no cover - every action kind is listed above


def _describe_end(game: Game) -> str:
    s = game.state
    if s.phase != "local":
        return "End the turn"
    if s.current + 1 < s.players:
        return f"End the turn (player {s.current + 1} is next)"
    table = game.catalog.game.table
    if s.day == table.game_days and s.stage == table.stages_per_day:
        return "End the turn (the trains run, and the game ends)"
    return "End the turn (the trains run, then the next Stage begins)"


def _describe_sort(game: Game, action: SortCars) -> str:
    label = train_label(game, action.train)
    number = train_number(game, action.train)
    cars = game.state.trains[number - 1].cars if number is not None else []
    if cars and sorted(action.order) == list(range(len(cars))):
        order = ", ".join(car_label(cars[i]) for i in action.order)
        return f"Sort the cars of {label}, front to back: {order}"
    return f"Sort the cars of {label} into the order {', '.join(str(i + 1) for i in action.order)}"


def _describe_play(game: Game, action: Play) -> str:
    name = card_name(game, action.card)
    card = game.catalog.by_id.get(action.card)
    if action.x is not None or action.y is not None:
        where = f"({action.x}, {action.y})"
        turned = f" turned {action.rotation}°" if action.rotation else ""
        districts = game.state.districts
        there = None
        if 0 <= action.player < len(districts):
            there = districts[action.player].squares.get(f"{action.x},{action.y}")
        if there is None:
            district = districts[action.player] if 0 <= action.player < len(districts) else None
            if isinstance(card, TrackShape) and district is not None and action.y == 0 and action.x in (district.west_limit, district.east_limit):
                side, out = ("west", district.west_limit - 1) if action.x == district.west_limit else ("east", district.east_limit + 1)
                return f"Play {name} at {where}{turned}, moving the {side} Limits sign out to column {out}"
            if isinstance(card, FacilityModifier) and district is not None:
                hosts = _hosts_beside(game, district, card, action.x or 0, action.y or 0)
                if hosts:
                    return f"Play {name} at {where}, beside {or_list(hosts)}"
            return f"Play {name} at {where}{turned}"
        if isinstance(card, Enhancement):
            # an Enhancement goes onto the card standing there, which stays
            return f"Play {name} onto the {card_name(game, there.card)} at {where}, which it enhances"
        return f"Play {name} at {where}{turned}, replacing the {card_name(game, there.card)}"
    if action.heading is not None or (isinstance(card, TrainCard) and card.service == "extra"):
        text = f"Play {name} starting at {slot_name(game, action.slot)}, heading {action.heading}"
        if action.load is not None:
            text += load_words(action.load)
        return text
    if action.slot is not None:
        return f"Play {name} onto {slot_name(game, action.slot)}"
    if action.train is not None:
        return f"Play {name} behind {card_name(game, action.train)}"
    if isinstance(card, TrainCard):
        return f"Play {name} onto the timetable (a die roll picks its Stage)"
    if isinstance(card, OfficeTier):
        office = card_name(game, game.state.office(action.player)) if 0 <= action.player < len(game.state.districts) else "Office"
        return f"Play {name}: your Office, {a_or_an(office)}, becomes {a_or_an(name)}"
    return f"Play {name}"


def _hosts_beside(game: Game, district: District, card: FacilityModifier, x: int, y: int) -> list[str]:
    """The cards beside (x, y), north, east, south or west, that ``card`` could serve."""
    found = []
    for port in ORTHOGONAL:
        nx, ny = neighbour(x, y, port)
        square = district.squares.get(f"{nx},{ny}")
        if square is None:
            continue
        if square.kind == "office" if card.hosts == "office" else square.kind == "facility" and (card.hosts == "anyFreight" or square.card in card.hosts):
            found.append(f"the {card_name(game, square.card)} at ({nx}, {ny})")
    return found


def render_actions(game: Game, actions: Sequence[Action] | Mapping[str, Action]) -> str:
    """The actions offered, each by its key (a list gets fresh keys)."""
    keyed = actions if isinstance(actions, Mapping) else ActionKeys().assign(game, actions)
    width = max((len(k) for k in keyed), default=1)
    lines = ["Your choices (type a key):"]
    lines += [f"  {key:<{width}}  {describe_action(game, action)}" for key, action in keyed.items()]
    return "\n".join(lines)
