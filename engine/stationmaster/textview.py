"""The game as plain text, for the terminal game (``stationmaster play``).

Everything here only reads a Game: ``render_state`` draws the table for the
player to act (the Mainline and its trains, that player's district as a grid,
the hand, the Departments, the timetable, the scores and what the trains at
the player's Office may reach); ``describe_action`` says an action in words,
with card names; ``render_actions`` numbers the legal actions. The output is
a pure function of the game state, so a seed and a list of inputs always
print the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.stationmaster.actions import Action, ChooseGrade, Discard, Draw, EndTurn, FlyingSwitch, Hold, Play, Pull, RedFlag, SortCars, Spot
from engine.stationmaster.content.model import Facility, FacilityModifier, MainlineCard, Maneuver, OfficeTier, TrackShape, TrainCard
from engine.stationmaster import attack_text
from engine.stationmaster.game import Game
from engine.stationmaster.held import spends
from engine.stationmaster.geometry import coords
from engine.stationmaster.state import Car, MainlineSlot, Square, Train
from engine.stationmaster.switching import switch_view, train_district

PHASES = {"setup": "Setup", "local": "Local Operations", "over": "Game over"}

# Track cards carry their own grid label (track.yaml); any other card is
# abbreviated from its name to this width (see ``short_label``).
_LABEL_WIDTH = 9


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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_car(car: Car) -> str:
    return f"{'loaded' if car.loaded else 'empty'} {car.type}"


def describe_cars(cars: Sequence[Car]) -> str:
    if not cars:
        return "no cars"
    return f"{_plural(len(cars), 'car')} ({', '.join(describe_car(c) for c in cars)})"


def slot_name(game: Game, index: int | None) -> str:
    """A Mainline position by what stands there: 'Heavy Grade [3]'."""
    mainline = game.state.mainline
    if index is None or not 0 <= index < len(mainline):
        return f"Mainline position {index}"
    slot = mainline[index]
    if slot.kind == "office":
        return f"the Office of district {slot.player} [{index}]"
    return f"{card_name(game, slot.card)} [{index}]"


def _train_label(game: Game, train_id: str | None) -> str:
    for train in game.state.trains:
        if train.id == train_id:
            return f"{card_name(game, train.card)} ({train.id})"
    return repr(train_id)


def _top(game: Game, department: int) -> str:
    piles = game.state.departments
    if not 1 <= department <= len(piles):
        return "no such Department"
    pile = piles[department - 1]
    return card_name(game, pile[-1]) if pile else "empty"


def short_label(game: Game, square: Square) -> str:
    """A square's card in at most nine characters, for the grid."""
    card = game.catalog.by_id.get(square.card)
    label = card.label if isinstance(card, TrackShape) else None
    if label is None:
        name = card_name(game, square.card)
        name = name.replace(" (left)", "-L").replace(" (right)", "-R")
        label = name if len(name) <= _LABEL_WIDTH else name[: _LABEL_WIDTH - 1] + "."
    return label


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


# -- describing actions ------------------------------------------------------------


def describe_action(game: Game, action: Action) -> str:
    """An action in words, with card names; works for any well-formed action,
    legal or not (unknown cards and trains are shown by their ids)."""
    if isinstance(action, Draw):
        if action.source == "deck":
            return f"Draw from the deck ({_plural(len(game.state.deck), 'card')})"
        department = int(action.source) if action.source.isdigit() else 0
        return f"Draw from Department {action.source} ({_top(game, department)})"
    if isinstance(action, Discard):
        top = _top(game, action.department)
        return f"Discard {card_name(game, action.card)} onto Department {action.department} ({'now empty' if top == 'empty' else 'over ' + top})"
    if isinstance(action, EndTurn):
        return "End the turn"
    if isinstance(action, ChooseGrade):
        return f"Set the grade at {slot_name(game, action.slot)} to climb {action.uphill}ward"
    if isinstance(action, Play):
        return _describe_play(game, action)
    if isinstance(action, RedFlag):
        flag = next((c.name for c in spends(game, RedFlag)), "a held card")
        return f"{flag}: hold {_train_label(game, action.train)} where it stands for one Mainline Phase"
    if isinstance(action, SortCars):
        order = ", ".join(str(i + 1) for i in action.order)
        return f"Sort the cars of {_train_label(game, action.train)} into the order {order}"
    if isinstance(action, Spot):
        parts = [f"its rear {_plural(action.cars, 'car')}"] if action.cars else []
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


def _describe_play(game: Game, action: Play) -> str:
    name = card_name(game, action.card)
    card = game.catalog.by_id.get(action.card)
    if action.x is not None or action.y is not None:
        text = f"Play {name} at ({action.x}, {action.y})"
        if action.rotation:
            text += f" turned {action.rotation}°"
        districts = game.state.districts
        if 0 <= action.player < len(districts):
            there = districts[action.player].squares.get(f"{action.x},{action.y}")
            if there is not None:
                text += f" (over {card_name(game, there.card)})"
        return text
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
        return f"Play {name}: upgrade your Office to a {name}"
    return f"Play {name}"


def render_actions(game: Game, actions: Sequence[Action]) -> str:
    width = len(str(len(actions)))
    lines = [f"Legal actions ({len(actions)}):"]
    lines += [f"  {n:>{width}}. {describe_action(game, a)}" for n, a in enumerate(actions, start=1)]
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
    done = [word for word, flag in (("drawn", s.turn.drawn), ("played", s.turn.played), ("discarded", s.turn.discarded)) if flag]
    if s.turn.switched:
        done.append(f"switching ({_plural(s.moves_left, 'move')} left)")
    if s.phase == "local":
        head += "\nThis turn: " + (", ".join(done) if done else "nothing done yet")
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
                    text += f", climbs {slot.uphill}ward (uphill heading {slot.uphill})"
                else:
                    text += ", grade direction not chosen yet" if index in s.pending_grades else ", no grade direction"
        if slot.printed and slot.printed != slot.card:
            text += f" (realigned from {card_name(game, slot.printed)})"
        if slot.modifiers:
            text += "; cards on it: " + ", ".join(card_name(game, m) for m in slot.modifiers)
        if slot.abs_signals:
            text += "; ABS signals"
    if slot.yard:
        loaded = sum(1 for c in slot.yard if c.loaded)
        text += f"; yard: {_plural(len(slot.yard), 'car')} ({loaded} loaded)"
    return f"  [{index}] {text}"


def _train_line(game: Game, train: Train) -> str:
    where = slot_name(game, train.position)
    if train.remaining > 0:
        place = f"crossing {where}, {_plural(train.remaining, 'stage')} left"
    else:
        place = f"standing at {where}"
    owner = "timetabled" if train.player is None else f"Extra of player {train.player}"
    text = f"  {train.id}: {card_name(game, train.card)} ({owner}), {place}, heading {train.heading}, {describe_cars(train.cars)}"
    if train.caboose:
        text += ", caboose"
    if train.held:
        text += f", held for {_plural(train.held, 'Mainline Phase')}"
    return text


def render_mainline(game: Game) -> str:
    s = game.state
    lines = ["Mainline, west to east:"]
    lines += [_slot_line(game, i, slot) for i, slot in enumerate(s.mainline)]
    if s.trains:
        lines.append(f"Trains on the Mainline ({s.crew_trays_free} Crew Tray(s) and {s.cabooses_free} caboose(s) free):")
        lines += [_train_line(game, t) for t in s.trains]
    else:
        lines.append(f"Trains on the Mainline: none ({s.crew_trays_free} Crew Tray(s) free)")
    for order in s.extras_queue:
        chosen = "" if order.load is None else _load_words(order.load)
        lines.append(f"  queued: {card_name(game, order.card)} of player {order.player}, to start at {slot_name(game, order.start)} heading {order.heading}{chosen}")
    return "\n".join(lines)


def _square_detail(game: Game, where: str, square: Square) -> str:
    x, y = coords(where)
    card = game.catalog.by_id.get(square.card)
    text = f"  ({x}, {y}) {card_name(game, square.card)}"
    if square.rotation == 180:
        text += ", turned 180°"
    if isinstance(card, Facility):
        pipeline = "/".join(str(n) for n in square.pipeline)
        boxes = "/".join(game.catalog.facility_start.pipeline)
        text += f" ({card.traffic}, {card.commodity}): laborers {square.laborers}, {boxes} {pipeline}, {square.waiting} load(s) waiting"
    elif isinstance(card, FacilityModifier) and square.modifies:
        hx, hy = coords(square.modifies)
        text += f", serving ({hx}, {hy})"
    elif isinstance(card, OfficeTier):
        text += f" (Office: {_plural(card.ad_tracks, 'A/D track')})"
    if square.cars:
        text += f"; {describe_cars(square.cars)}"
    if square.caboose_of:
        text += f"; the caboose of {square.caboose_of}"
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
    rows = range(min(ys), max(ys) + 1)
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
    lines = [f"District {player} ({office}); Limits at columns {district.west_limit} and {district.east_limit}:"]
    lines.append("        " + "".join(f"{f'x={x}':<{width}}" for x in columns).rstrip())
    for y in rows:
        row = "".join(f"{cells[x, y]:<{width}}" for x in columns).rstrip()
        mark = "  <- Running Track" if y == 0 else ""
        lines.append(f"  y={y:<3} {row}{mark}")
    lines.append("  (~ turned 180°, * enhancement, Nc cars standing, +cab a caboose; north is up)")
    lines += [_square_detail(game, k, sq) for k, sq in sorted(district.squares.items(), key=lambda kv: coords(kv[0])[::-1])]
    return "\n".join(lines)


def render_hand(game: Game, player: int) -> str:
    from engine.stationmaster.hand import hand_limit

    hand = game.state.hands[player]
    lines = [f"Hand of player {player} ({_plural(len(hand), 'card')}, limit {hand_limit(game, player)}):"]
    for n, card_id in enumerate(hand, start=1):
        card = game.catalog.by_id.get(card_id)
        family = card.family if card is not None else "?"
        if isinstance(card, TrainCard):
            family = f"{card.service} train"
        lines.append(f"  {n}. {card_name(game, card_id)} [{family}]")
    if not hand:
        lines.append("  (empty)")
    return "\n".join(lines)


def render_piles(game: Game) -> str:
    s = game.state
    tops = []
    for n, pile in enumerate(s.departments, start=1):
        tops.append(f"{n}: {card_name(game, pile[-1])} ({_plural(len(pile), 'card')})" if pile else f"{n}: empty")
    return "\n".join(
        [
            "Departments (top cards): " + "; ".join(tops),
            f"Home Office deck: {_plural(len(s.deck), 'card')}; Salvage Yard: {_plural(len(s.salvage), 'card')}",
        ]
    )


def render_timetable(game: Game) -> str:
    s = game.state
    entries = []
    for n, card_id in enumerate(s.timetable, start=1):
        mark = ">" if n == s.stage and s.phase != "over" else " "
        entries.append(f"{mark}{n:>2}: {card_name(game, card_id) if card_id else '-'}")
    half = (len(entries) + 1) // 2
    lines = ["Timetable (Stage: train due; > this Stage):"]
    for i in range(half):
        left = entries[i]
        right = entries[i + half] if i + half < len(entries) else ""
        lines.append(f"  {left:<32}{right}".rstrip())
    if s.second_sections:
        lines.append("  Second Sections ordered this Stage: " + ", ".join(card_name(game, t) for t in s.second_sections))
    return "\n".join(lines)


def render_scores(game: Game) -> str:
    return "Scores: " + "; ".join(f"district {p}: {score}" for p, score in enumerate(game.score()))


def render_switching(game: Game, player: int) -> str:
    """For each train standing at the player's Office: the squares the rails
    reach, and for each blocked one the rule that forbids it."""
    lines: list[str] = []
    for train in game.state.trains:
        district = train_district(game, train)
        if district is None or district.player != player:
            continue
        view = switch_view(game, train)
        lines.append(f"Switching at your Office: {card_name(game, train.card)} ({train.id}), {describe_cars(train.cars)}")
        if not view:
            lines.append("  no square of the district can be reached from the Office")
        for where, why in view.items():
            x, y = coords(where)
            square = district.squares[where]
            what = card_name(game, square.card) + (f", {describe_cars(square.cars)}" if square.cars else "")
            card = game.catalog.by_id.get(train.card)
            whole = isinstance(card, TrainCard) and "mayNotSwitch" in card.restrictions
            if why is not None and (whole or not (square.cars or square.caboose_of)):
                verdict = f"blocked: {why}"
            elif why is not None:
                # switch_view judges a square with cars by coupling (Pull);
                # setting out more cars there (Spot) is judged separately.
                verdict = f"blocked for coupling: {why}"
            elif square.cars or square.caboose_of:
                verdict = "may run here and couple what stands there"
            else:
                verdict = "may run here and set out cars"
            lines.append(f"  ({x}, {y}) {what}: {verdict}")
    return "\n".join(lines)


def render_state(game: Game) -> str:
    """The whole table as the player to act sees it."""
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
    switching = render_switching(game, player)
    if switching:
        parts.append(switching)
    attacks = attack_text.render_attacks(game, player)
    if attacks:
        parts.append(attacks)
    return "\n".join(parts)


def render_final(game: Game) -> str:
    s = game.state
    days = min(s.day, game.catalog.game.table.game_days)
    lines = [f"Game over after {_plural(days, 'Day')}.", "Final scores: " + "; ".join(f"district {p}: {v}" for p, v in enumerate(game.score()))]
    scores = game.score()
    if len(scores) > 1:
        best = max(scores)
        winners = [str(p) for p, v in enumerate(scores) if v == best]
        lines.append(("Winner: district " if len(winners) == 1 else "Tied: districts ") + ", ".join(winners))
    return "\n".join(lines)
