"""The game as plain text, for the terminal game (``stationmaster play``).

Everything here only reads a Game: ``render_state`` draws the table for the
player to act (the Mainline and its trains, that player's district as a grid,
the hand, the Departments, the timetable, the scores and what the trains at
the player's Office may do there); ``describe_action`` says an action in
words, with card names; ``ActionKeys`` gives each legal action the key the
player types, and ``render_actions`` lists them by key. The output is a pure
function of the game and the actions already taken this turn, so a seed and
a list of inputs always print the same thing.

The keys (``KEYS_HELP`` says them for the player): letters for the turn's
own steps, which mean the same action whatever else is offered (``d`` draws
from the deck, ``d1`` to ``d3`` from a Department, ``e`` ends the turn,
``h2`` holds train 2 at the Office, ``r2`` spends a Red Flag on train 2);
numbers for the plays and moves, each keeping its number for the rest of the
turn once offered (a new turn counts from 1 again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from command.stationmaster import attack_text
from command.words import counted
from engine.stationmaster.content.model import Enhancement, Facility, FacilityModifier, MainlineCard, OfficeTier, SecondSection, TrackShape, TrainCard
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.actions import Action, ChooseGrade, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, RedFlag, SortCars, Spot
from engine.stationmaster.rules.consist import car_label
from engine.stationmaster.rules.district import grant_note
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import ORTHOGONAL, coords, neighbour
from engine.stationmaster.rules.held import spends
from engine.stationmaster.rules.state import Car, District, MainlineSlot, Square, Train
from engine.stationmaster.rules.switching import reachable, train_district

PHASES = {"setup": "Setup", "local": "Local Operations", "over": "Game over"}

KEYS_HELP = (
    "Keys: letters choose the turn's own steps and always mean the same thing "
    "(d: draw from the deck; d1, d2, d3: draw from that Department; e: end the turn; "
    "h1: hold train 1 at your Office; r1: stop train 1 where it stands with a held card); "
    "numbers choose plays and moves, and each keeps its number until the turn ends."
)


def keys_help(game: Game) -> str:
    """``KEYS_HELP`` with the held card that r1 spends named from the catalog."""
    flag = next((c.name for c in spends(game, RedFlag)), None)
    return KEYS_HELP if flag is None else KEYS_HELP.replace("with a held card", f"with {a_or_an(flag)} from your hand")


# Track cards carry their own grid label (track.yaml); any other card is
# abbreviated from its name to this width (see ``short_label``).
_LABEL_WIDTH = 9

# How a card's family is named in the hand.
_FAMILY_WORDS = {
    "track": "track",
    "facilities": "facility",
    "modifiers": "facility modifier",
    "enhancements": "enhancement",
    "maneuvers": "maneuver",
    "mainline-modifiers": "Mainline modifier",
    "offices": "Office upgrade",
    "opponent": "played against a rival",
}

# What a Facility Modifier's grant adds to the card it stands beside.
_GRANT_WORDS = {
    "inboundBox": "an inbound box",
    "outboundBox": "an outbound box",
    "inboundSlot": "an inbound slot",
    "outboundSlot": "an outbound slot",
    "porter": "a Porter",
}

_TRAFFIC_WORDS = {"inbound": "receives", "outbound": "ships", "both": "ships and receives"}


# -- small helpers -----------------------------------------------------------------


def card_name(game: Game, card_id: str | None) -> str:
    """A card's printed name; an unknown id is shown as itself, never raises."""
    if card_id is None:
        return "nothing"
    card = game.catalog.by_id.get(card_id)
    return card.name if card is not None else repr(card_id)


def _load_words(load: Sequence[str]) -> str:
    """An Extra's chosen load, as the text view says it."""
    return f", taking {', '.join(load)}" if load else ", leaving light"


def a_or_an(words: str) -> str:
    """``words`` with its indefinite article: 'an empty boxcar', 'a loaded reefer'."""
    return f"{'an' if words[:1].lower() in 'aeiou' else 'a'} {words}"


def describe_cars(cars: Sequence[Car]) -> str:
    if not cars:
        return "no cars"
    return f"{counted(len(cars), 'car')} ({', '.join(car_label(c) for c in cars)})"


def _or_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def _and_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def slot_name(game: Game, index: int | None) -> str:
    """A Mainline position by what stands there: 'Heavy Grade [3]'."""
    mainline = game.state.mainline
    if index is None or not 0 <= index < len(mainline):
        return f"Mainline position {index}"
    slot = mainline[index]
    if slot.kind == "office":
        return f"the Office of district {slot.player} [{index}]"
    return f"{card_name(game, slot.card)} [{index}]"


def train_number(game: Game, train_id: str | None) -> int | None:
    """A train's number in the Mainline's list of trains (from 1), which the
    keys h1 and r1 name; None for a train not on the Mainline."""
    for n, train in enumerate(game.state.trains, start=1):
        if train.id == train_id:
            return n
    return None


def _train_label(game: Game, train_id: str | None) -> str:
    number = train_number(game, train_id)
    if number is None:
        return repr(train_id)
    return f"{card_name(game, game.state.trains[number - 1].card)} (train {number})"


def _top(game: Game, department: int) -> str:
    piles = game.state.departments
    if not 1 <= department <= len(piles):
        return "no such Department"
    pile = piles[department - 1]
    return card_name(game, pile[-1]) if pile else "empty"


def short_label(game: Game, square: Square) -> str:
    """A square's card in at most nine characters, for the grid: a track
    card's own label, else its name, cut at a word where it must be."""
    card = game.catalog.by_id.get(square.card)
    label = card.label if isinstance(card, TrackShape) else None
    if label is None:
        name = card_name(game, square.card)
        name = name.replace(" (left)", "-L").replace(" (right)", "-R")
        label = _abbreviate(name, _LABEL_WIDTH)
    return label


def _abbreviate(name: str, width: int) -> str:
    """``name`` in at most ``width`` characters: whole words while they fit,
    then the next word cut short with a full stop if two or more of its
    letters fit ('Power Pl.'), never a stop after a space."""
    if len(name) <= width:
        return name
    shown = ""
    for word in name.split():
        joined = f"{shown} {word}" if shown else word
        if len(joined) <= width:
            shown = joined
            continue
        room = width - len(shown) - (1 if shown else 0) - 1
        if room >= 2 or not shown:
            cut = word[: max(room, 1)].rstrip(" .'")
            shown = f"{shown} {cut}." if shown else f"{cut}."
        break
    return shown


def _cell(game: Game, square: Square) -> str:
    text = short_label(game, square)
    if square.rotation == 180:
        text += "~"
    if square.enhancement:
        text += "*"
    if square.cars:
        text += f" {len(square.cars)}c"
    if square.caboose_of:
        text += " +cab"
    return text


# -- keys: what the player types to choose an action ---------------------------------


def letter_key(game: Game, action: Action) -> str | None:
    """The letter key of one of the turn's own steps, None for a play or move."""
    if isinstance(action, Draw):
        return "d" if action.source == "deck" else f"d{action.source}"
    if isinstance(action, EndTurn):
        return "e"
    if isinstance(action, (Hold, RedFlag)):
        number = train_number(game, action.train)
        if number is not None:
            return f"{'h' if isinstance(action, Hold) else 'r'}{number}"
    return None


def _turn_of(game: Game) -> tuple[object, ...]:
    s = game.state
    return (s.phase, s.day, s.stage, s.current, tuple(s.pending_grades))


_ORDER = {"d": 0, "r": 2, "h": 3, "e": 4}


def _list_order(key: str) -> tuple[int, int, str]:
    """Draws first, then the numbered plays and moves, Red Flags, holds, and
    ending the turn last."""
    if key.isdecimal():
        return (1, int(key), "")
    return (_ORDER.get(key[0], 5), len(key), key)


class ActionKeys:
    """The key of each action offered, kept from one prompt to the next.

    A letter names one of the turn's own steps (``letter_key``); a play or
    move gets the lowest number not yet given this turn the first time it is
    offered, and keeps it while the turn lasts, so a number typed twice never
    means two different actions in one turn."""

    def __init__(self) -> None:
        self._turn: tuple[object, ...] | None = None
        self._numbers: dict[Action, int] = {}

    def assign(self, game: Game, actions: Sequence[Action]) -> dict[str, Action]:
        """Each offered action by its key, in the order the list shows them."""
        turn = _turn_of(game)
        if turn != self._turn:
            self._turn, self._numbers = turn, {}
        keyed: dict[str, Action] = {}
        for action in dict.fromkeys(actions):  # an action offered twice is listed once
            key = letter_key(game, action)
            if key is None:
                key = str(self._numbers.setdefault(action, len(self._numbers) + 1))
            keyed.setdefault(key, action)
        return {key: keyed[key] for key in sorted(keyed, key=_list_order)}

    def named(self, game: Game, key: str) -> Action | None:
        """The action ``key`` names even when it is not offered now: a turn
        step's letter, or a number given earlier this turn (None if neither)."""
        key = key.lower()
        if key.isdecimal():
            if _turn_of(game) != self._turn:
                return None
            return next((action for action, number in self._numbers.items() if str(number) == key), None)
        s, player = game.state, game.to_act
        letter, digits = key[:1], key[1:]
        if key == "d":
            return Draw(player, "deck")
        if key == "e":
            return EndTurn(player)
        if not digits.isdecimal() or len(digits) > 3:
            return None
        number = int(digits)
        if letter == "d" and 1 <= number <= len(s.departments):
            return Draw(player, str(number))
        if letter in "hr" and 1 <= number <= len(s.trains):
            train = s.trains[number - 1].id
            return Hold(player, train=train) if letter == "h" else RedFlag(player, train=train)
        return None

    @classmethod
    def resumed(cls, game: Game) -> ActionKeys:
        """The keys as an unbroken session would hold them after ``game``'s
        history: the actions of the turn under way are offered again, in order,
        on a replay of the game up to that turn's start."""
        keys = cls()
        history = game.history
        start = max((i + 1 for i, a in enumerate(history) if isinstance(a, (EndTurn, ChooseGrade))), default=0)
        if start < len(history):
            again = Game.replay(game.catalog, dict(game.save(), actions=[a.to_json() for a in history[:start]]))
            for action in history[start:]:
                keys.assign(again, again.legal_actions())
                again.apply(action)
        return keys


def key_summary(keyed: Mapping[str, Action]) -> str:
    """The keys offered, short: '1-4, 7, d, d1-d3, e'."""
    parts: list[str] = []
    run: list[tuple[str, int]] = []

    def flush() -> None:
        if run:
            (prefix, first), (_, last) = run[0], run[-1]
            parts.append(f"{prefix}{first}" if first == last else f"{prefix}{first}-{prefix}{last}" if prefix else f"{first}-{last}")
            run.clear()

    for key in keyed:
        prefix = key.rstrip("0123456789")
        digits = key[len(prefix) :]
        if not digits:
            flush()
            parts.append(key)
            continue
        number = int(digits)
        if run and run[-1][0] == prefix and run[-1][1] + 1 == number:
            run.append((prefix, number))
            continue
        flush()
        run.append((prefix, number))
    flush()
    return ", ".join(parts)


# -- describing actions ------------------------------------------------------------


def describe_action(game: Game, action: Action) -> str:
    """An action in words, with card names; works for any well-formed action,
    legal or not (unknown cards and trains are shown by their ids)."""
    if isinstance(action, Draw):
        if action.source == "deck":
            return f"Draw from the deck ({counted(len(game.state.deck), 'card')})"
        department = int(action.source) if action.source.isdigit() else 0
        return f"Draw from Department {action.source} ({_top(game, department)})"
    if isinstance(action, Discard):
        top = _top(game, action.department)
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
        return f"{flag}: hold {_train_label(game, action.train)} where it stands for one Mainline Phase"
    if isinstance(action, SortCars):
        return _describe_sort(game, action)
    if isinstance(action, Spot):
        parts = [f"its rear {counted(action.cars, 'car')}" if action.cars > 1 else "its rear car"] if action.cars else []
        if action.caboose:
            parts.append("its caboose")
        return f"Switch: {_train_label(game, action.train)} sets out {' and '.join(parts) or 'nothing'} at ({action.x}, {action.y})"
    if isinstance(action, Pull):
        return f"Switch: {_train_label(game, action.train)} runs to ({action.x}, {action.y}) and couples what stands there"
    if isinstance(action, Hold):
        return f"Hold {_train_label(game, action.train)} at the Office through the next Mainline Phase"
    if isinstance(action, attack_text.KINDS):
        return attack_text.describe(game, action)
    if isinstance(action, FlyingSwitch):
        switch = next((c.name for c in spends(game, FlyingSwitch)), "a held card")
        return f"{switch}: {_train_label(game, action.train)} cuts off its rear car on the move, and it rolls to ({action.x}, {action.y})"
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
    label = _train_label(game, action.train)
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
                    return f"Play {name} at {where}, beside {_or_list(hosts)}"
            return f"Play {name} at {where}{turned}"
        if isinstance(card, Enhancement):
            # an Enhancement goes onto the card standing there, which stays
            return f"Play {name} onto the {card_name(game, there.card)} at {where}, which it enhances"
        return f"Play {name} at {where}{turned}, replacing the {card_name(game, there.card)}"
    if action.heading is not None or (isinstance(card, TrainCard) and card.service == "extra"):
        text = f"Play {name} starting at {slot_name(game, action.slot)}, heading {action.heading}"
        if action.load is not None:
            text += _load_words(action.load)
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


# -- the table ---------------------------------------------------------------------


def render_header(game: Game) -> str:
    s = game.state
    table = game.catalog.game.table
    phase = PHASES.get(s.phase, s.phase)
    if s.phase == "over":
        return f"=== {phase}: {table.game_days} Days played ==="
    head = f"=== Day {s.day} of {table.game_days}, Stage {s.stage} of {table.stages_per_day} - {phase}"
    if s.phase == "setup":
        head += " - player 0 places the Mainline"
    elif s.phase == "local":
        head += f" - player {game.to_act} to act"
    head += " ==="
    done = [words for words, flag in (("drew a card", s.turn.drawn), ("played a card", s.turn.played), ("discarded a card", s.turn.discarded)) if flag]
    if s.turn.switched:
        done.append(f"switched ({counted(s.moves_left, 'move')} left)")
    if s.phase == "local":
        head += "\nThis turn so far: " + (_and_list(done) if done else "nothing")
    return head


def _slot_line(game: Game, index: int, slot: MainlineSlot) -> str:
    s = game.state
    if slot.kind == "office":
        text = f"Office of district {slot.player} ({card_name(game, s.slot_card(slot))})"
    elif slot.kind == "divisionPoint":
        text = card_name(game, slot.card)
    else:
        text = card_name(game, slot.card)
        land = game.catalog.by_id.get(slot.card)
        if isinstance(land, MainlineCard):
            if land.speed_mph is not None:
                text += f", {land.speed_mph.passenger}/{land.speed_mph.freight} mph (passenger/freight)"
            if land.passing:
                text += ", passing track"
            if land.grade:
                if slot.uphill is not None:
                    text += f", climbs {slot.uphill}ward"
                else:
                    text += ", grade direction not chosen yet" if index in s.pending_grades else ", no grade direction"
        if slot.printed and slot.printed != slot.card:
            text += f" (realigned from {card_name(game, slot.printed)})"
        if slot.modifiers:
            text += "; cards on it: " + ", ".join(card_name(game, m) for m in slot.modifiers)
        # the card that sets the flag is an Enhancement played onto the Mainline,
        # already named among the cards on it
        signalled = any(isinstance(game.catalog.by_id.get(m), Enhancement) for m in slot.modifiers)
        if slot.abs_signals and not signalled:
            text += "; ABS signals"
    if slot.yard:
        loaded = sum(1 for c in slot.yard if c.loaded)
        text += f"; yard: {counted(len(slot.yard), 'car')} ({loaded} loaded)"
    return f"  [{index}] {text}"


def _train_line(game: Game, number: int, train: Train) -> str:
    where = slot_name(game, train.position)
    if train.remaining > 0:
        place = f"crossing {where}, {counted(train.remaining, 'Stage')} left"
    else:
        place = f"standing at {where}"
    owner = "timetabled" if train.player is None else f"Extra of player {train.player}"
    text = f"  {number}. {card_name(game, train.card)} ({owner}), {place}, heading {train.heading}, {describe_cars(train.cars)}"
    if train.caboose:
        text += " and a caboose"
    if train.held:
        text += f"; held for {counted(train.held, 'Mainline Phase')}"
    return text + f" [id {train.id}]"


def render_mainline(game: Game) -> str:
    s = game.state
    lines = ["Mainline, west to east:"]
    lines += [_slot_line(game, i, slot) for i, slot in enumerate(s.mainline)]
    trays = counted(s.crew_trays_free, "Crew Tray")
    if s.trains:
        lines.append(f"Trains on the Mainline ({trays} and {counted(s.cabooses_free, 'caboose')} free):")
        lines += [_train_line(game, n, t) for n, t in enumerate(s.trains, start=1)]
    else:
        lines.append(f"Trains on the Mainline: none ({trays} free)")
    for order in s.extras_queue:
        chosen = "" if order.load is None else _load_words(order.load)
        lines.append(f"  queued: {card_name(game, order.card)} of player {order.player}, to start at {slot_name(game, order.start)} heading {order.heading}{chosen}")
    return "\n".join(lines)


def _car_types(types: Sequence[str]) -> str:
    return _or_list([f"{t}s" for t in types])


def _square_detail(game: Game, district: District, where: str, square: Square) -> str:
    x, y = coords(where)
    card = game.catalog.by_id.get(square.card)
    text = f"  ({x}, {y}) {card_name(game, square.card)}"
    if square.rotation == 180:
        text += ", turned 180°"
    if isinstance(card, Facility):
        boxes = ", ".join(f"{box} {n}" for box, n in zip(game.catalog.facility_start.pipeline, square.pipeline))
        text += f" ({_TRAFFIC_WORDS.get(card.traffic, card.traffic)} {card.commodity} in {_car_types(card.car_types)}): {counted(square.laborers, 'Laborer')}"
        if boxes:
            text += f"; loads in its boxes: {boxes}"
        if card.traffic != "inbound":
            text += f"; {counted(square.waiting, 'load')} waiting for a car"
    elif isinstance(card, FacilityModifier) and square.modifies:
        hx, hy = coords(square.modifies)
        host = district.squares.get(square.modifies)
        idle = grant_note(game, district, card, host) if host is not None else None
        if host is None or idle is not None:
            text += f", beside the {card_name(game, host.card) if host else 'card'} at ({hx}, {hy}), where {idle or 'it does nothing'}"
        else:
            text += f", serving the {card_name(game, host.card)} at ({hx}, {hy})"
    elif isinstance(card, OfficeTier):
        text += f" (Office: {counted(card.ad_tracks, 'A/D track')})"
    if square.cars:
        text += f"; standing there: {describe_cars(square.cars)}"
    if square.caboose_of:
        text += f"; the caboose of {_train_label(game, square.caboose_of)}"
    if square.enhancement:
        text += f"; enhancement: {card_name(game, square.enhancement)}"
    return text


def render_district(game: Game, player: int) -> str:
    """The district as a grid: rows by y (north at the top), columns by x from
    the west Limits sign to the east one; row 0 is the Running Track."""
    district = game.state.districts[player]
    squares = {coords(k): sq for k, sq in district.squares.items()}
    xs = [x for x, _ in squares] + [district.west_limit, district.east_limit]
    ys = [y for _, y in squares] + [0]
    columns = range(min(xs), max(xs) + 1)
    rows = range(min(ys), max(ys) + 1)  # y grows southward: north is up
    cells: dict[tuple[int, int], str] = {}
    for x in columns:
        for y in rows:
            square = squares.get((x, y))
            if square is not None:
                cells[x, y] = _cell(game, square)
            elif y == 0 and x == district.west_limit:
                cells[x, y] = "|W Limits"
            elif y == 0 and x == district.east_limit:
                cells[x, y] = "E Limits|"
            elif district.west_limit < x < district.east_limit:
                cells[x, y] = "."
            else:
                cells[x, y] = ""
    width = max([len(c) for c in cells.values()] + [len(f"x={x}") for x in columns]) + 1
    office = card_name(game, game.state.office(player))
    lines = [f"District {player} (its Office: {office}); its Limits signs stand at columns {district.west_limit} and {district.east_limit}:"]
    lines.append("        " + "".join(f"{f'x={x}':<{width}}" for x in columns).rstrip())
    for y in rows:
        row = "".join(f"{cells[x, y]:<{width}}" for x in columns).rstrip()
        mark = "  <- Running Track" if y == 0 else ""
        lines.append(f"  y={y:<3} {row}{mark}")
    lines.append("  (north is up; ~ turned 180°, * carries an enhancement, 2c two cars standing, +cab a caboose standing)")
    lines += [_square_detail(game, district, k, sq) for k, sq in sorted(district.squares.items(), key=lambda kv: coords(kv[0])[::-1])]
    return "\n".join(lines)


def _card_kind(game: Game, card_id: str) -> str:
    """What a card in hand is and, where the card has one, what it does."""
    card = game.catalog.by_id.get(card_id)
    if card is None:
        return "[unknown card]"
    if isinstance(card, TrainCard):
        room = [counted(n, word, many) for n, word, many in ((card.consist.coach, "coach", "coaches"), (card.consist.freight, "freight car", None)) if n]
        text = f"[{'Extra' if card.service == 'extra' else 'timetabled'} train]: up to {_and_list([*room, *(['a caboose'] if card.caboose else [])]) or 'no cars'}"
        for restriction in card.restrictions:
            rule = card.restriction_rules.get(restriction)
            if rule is not None:
                text += f"; {rule.words}"
        return text
    kind = f"[{_FAMILY_WORDS.get(card.family, card.family.replace('-', ' '))}]"
    if isinstance(card, FacilityModifier):
        host = "the Office" if card.hosts == "office" else "a facility"
        return f"{kind}: adds {_GRANT_WORDS.get(card.grant, card.grant)} to {host} it stands beside"
    if isinstance(card, Facility):
        return f"{kind}: {_TRAFFIC_WORDS.get(card.traffic, card.traffic)} {card.commodity} in {_car_types(card.car_types)}"
    if isinstance(card, SecondSection):
        return f"{kind}: runs behind the train due out this Stage"
    effect = getattr(card, "effect", None)
    known = game.catalog.effects.get(effect) if isinstance(effect, str) else None
    if known is not None:
        if effect not in load_handlers():
            return f"{kind}: what it does is not built yet"
        return f"{kind}: {known.summary}"
    return kind


def render_hand(game: Game, player: int) -> str:
    from engine.stationmaster.rules.hand import hand_limit

    hand = game.state.hands[player]
    limit = hand_limit(game, player)
    over = f"; {len(hand) - limit} over the limit: play or discard before the turn ends" if len(hand) > limit else ""
    lines = [f"Hand of player {player} ({counted(len(hand), 'card')}, limit {limit}{over}):"]
    lines += [f"  - {card_name(game, card_id)} {_card_kind(game, card_id)}" for card_id in hand]
    if not hand:
        lines.append("  (empty)")
    return "\n".join(lines)


def render_piles(game: Game) -> str:
    s = game.state
    tops = []
    for n, pile in enumerate(s.departments, start=1):
        tops.append(f"{n}: {card_name(game, pile[-1])} on top ({counted(len(pile), 'card')})" if pile else f"{n}: empty")
    return "\n".join(
        [
            "Departments: " + "; ".join(tops),
            f"Home Office deck: {counted(len(s.deck), 'card')}; Salvage Yard: {counted(len(s.salvage), 'card')}",
        ]
    )


def render_timetable(game: Game) -> str:
    s = game.state
    entries = []
    for n, card_id in enumerate(s.timetable, start=1):
        mark = ">" if n == s.stage and s.phase != "over" else " "
        entries.append(f"{mark}{n:>2}: {card_name(game, card_id) if card_id else '-'}")
    half = (len(entries) + 1) // 2
    lines = ["Timetable (the train due to leave at each Stage; > marks this Stage):"]
    for i in range(half):
        left = entries[i]
        right = entries[i + half] if i + half < len(entries) else ""
        lines.append(f"  {left:<32}{right}".rstrip())
    if s.second_sections:
        lines.append("  Second Sections ordered this Stage: " + ", ".join(card_name(game, t) for t in s.second_sections))
    return "\n".join(lines)


def render_scores(game: Game) -> str:
    return "Scores: " + "; ".join(f"district {p}: {score}" for p, score in enumerate(game.score()))


# -- switching: what the trains at the player's Office may do -----------------------


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
        parts.append(f"set out its rear {_or_list(counts)}")
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
    lines = [f"Switching at your Office: {_train_label(game, train.id)}, {describe_cars(train.cars)}{caboose}"]
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
            what += f", the caboose of {_train_label(game, square.caboose_of)}"
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
            lines.append(f"  (the rails from the Office reach {_and_list([where for where, *_ in per_square])})")
            per_square = []
    idle = [where for where, _, offers, refused in per_square if not offers and not refused]
    for where, what, offers, refused in per_square:
        if offers or refused:
            lines.append(f"  {where} {what}: " + ("; ".join(offers) if offers else ("no move here. " if len(refused) > 1 else "no move here: ") + _refusal_words(refused)))
    if idle:
        lines.append(f"  {_and_list(idle)}: no move there: nothing stands there to couple, and the train has nothing to set out")
    kicks = [(k, a) for k, a in offered if isinstance(a, FlyingSwitch)]
    if kicks:
        name = next((c.name for c in spends(game, FlyingSwitch)), "a held card")
        targets = [f"({a.x}, {a.y}) {_keys([k])}" for k, a in kicks if isinstance(a, FlyingSwitch)]
        lines.append(f"  {name}: its rear car can be cut off on the move to roll to {_or_list(targets)}")
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


def render_state(game: Game, keyed: Mapping[str, Action] | None = None) -> str:
    """The whole table as the player to act sees it (``keyed``: the actions
    offered by their keys, for the switching panel); once the game is over,
    the Mainline, every district and the scores."""
    if game.is_over():
        districts = [render_district(game, p) for p in range(game.state.players)]
        return "\n".join([render_header(game), render_mainline(game), *districts, render_scores(game)])
    player = game.to_act
    parts = [
        render_header(game),
        render_mainline(game),
        render_district(game, player),
        render_hand(game, player),
        render_piles(game),
        render_timetable(game),
        render_scores(game),
    ]
    switching = render_switching(game, player, keyed)
    if switching:
        parts.append(switching)
    attacks = attack_text.render_attacks(game, player)
    if attacks:
        parts.append(attacks)
    return "\n".join(parts)


def render_final(game: Game) -> str:
    s = game.state
    days = min(s.day, game.catalog.game.table.game_days)
    lines = [f"Game over after {counted(days, 'Day')}.", "Final scores: " + "; ".join(f"district {p}: {v}" for p, v in enumerate(game.score()))]
    scores = game.score()
    if len(scores) > 1:
        best = max(scores)
        winners = [str(p) for p, v in enumerate(scores) if v == best]
        lines.append(("Winner: district " if len(winners) == 1 else "Tied: districts ") + _and_list(winners))
    return "\n".join(lines)
