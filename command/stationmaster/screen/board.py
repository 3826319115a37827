"""The table beyond the player's district: the header, the Mainline and its
trains, the Departments, the timetable and the scores."""

from __future__ import annotations

from command.stationmaster.screen.names import and_list, card_name, describe_cars, load_words, slot_name
from command.words import counted
from engine.stationmaster.content.model import Enhancement, MainlineCard
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import MainlineSlot, Train

PHASES = {"setup": "Setup", "local": "Local Operations", "over": "Game over"}


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
        head += "\nThis turn so far: " + (and_list(done) if done else "nothing")
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
    if game.is_over():  # the trains stop with the game: none is left standing anywhere
        return "\n".join(lines)
    trays = counted(s.crew_trays_free, "Crew Tray")
    if s.trains:
        lines.append(f"Trains on the Mainline ({trays} and {counted(s.cabooses_free, 'caboose')} free):")
        lines += [_train_line(game, n, t) for n, t in enumerate(s.trains, start=1)]
    else:
        lines.append(f"Trains on the Mainline: none ({trays} free)")
    for order in s.extras_queue:
        chosen = "" if order.load is None else load_words(order.load)
        lines.append(f"  queued: {card_name(game, order.card)} of player {order.player}, to start at {slot_name(game, order.start)} heading {order.heading}{chosen}")
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


def render_final(game: Game) -> str:
    s = game.state
    days = min(s.day, game.catalog.game.table.game_days)
    lines = [f"Game over after {counted(days, 'Day')}.", "Final scores: " + "; ".join(f"district {p}: {v}" for p, v in enumerate(game.score()))]
    scores = game.score()
    if len(scores) > 1:
        best = max(scores)
        winners = [str(p) for p, v in enumerate(scores) if v == best]
        lines.append(("Winner: district " if len(winners) == 1 else "Tied: districts ") + and_list(winners))
    return "\n".join(lines)


# -- the same, short: a line or two each, for a screen that must fit -----------------


def mainline_brief(game: Game) -> str:
    """The Mainline in one flowing line: each position's number and card."""
    s = game.state
    names = []
    for index, slot in enumerate(s.mainline):
        name = f"Office {slot.player}" if slot.kind == "office" else card_name(game, slot.card)
        if slot.modifiers or slot.abs_signals:
            name += "*"
        names.append(f"[{index}] {name}")
    return "Mainline, west to east: " + " - ".join(names) + (" (* cards on it: see mainline)" if any("*" in n for n in names) else "")


def train_brief(game: Game, number: int, train: Train) -> str:
    """One train in a short line: where, which way, how laden."""
    where = f"[{train.position}]"
    place = f"crossing {where}, {counted(train.remaining, 'Stage')} left" if train.remaining > 0 else f"at {where}"
    if train.position is not None and 0 <= train.position < len(game.state.mainline):
        slot = game.state.mainline[train.position]
        if slot.kind == "office" and train.remaining <= 0:
            place = f"at the Office of district {slot.player} {where}"
    cars = f"{counted(len(train.cars), 'car')}" + (" + caboose" if train.caboose else "")
    held = f", held {counted(train.held, 'Phase')}" if train.held else ""
    return f"  {number}. {card_name(game, train.card)}, {place}, heading {train.heading}, {cars}{held}"


def trains_brief(game: Game) -> list[str]:
    """The trains running, one short line each, with the free Crew Trays."""
    s = game.state
    if game.is_over():
        return []
    trays = counted(s.crew_trays_free, "Crew Tray")
    if not s.trains:
        return [f"Trains on the Mainline: none ({trays} free)"]
    lines = [f"Trains on the Mainline ({trays} free):"]
    lines += [train_brief(game, n, t) for n, t in enumerate(s.trains, start=1)]
    if s.extras_queue:
        lines.append("  queued to start: " + ", ".join(card_name(game, order.card) for order in s.extras_queue))
    return lines


def trains_count(game: Game) -> str:
    """The trains in a line of their own, for the smallest screen."""
    s = game.state
    if game.is_over():
        return ""
    trays = counted(s.crew_trays_free, "Crew Tray")
    running = ", ".join(f"{n}. {card_name(game, t.card)} [{t.position}]" for n, t in enumerate(s.trains, start=1)) or "none"
    return f"Trains: {running} ({trays} free)"


def timetable_brief(game: Game) -> str:
    """This Stage's train and the ones still due today, in one line."""
    s = game.state
    due = [(n, card_id) for n, card_id in enumerate(s.timetable, start=1) if card_id and n >= s.stage]
    if not due:
        return "Timetable: no train due for the rest of the Day"
    words = [f"Stage {n}{' (now)' if n == s.stage else ''}: {card_name(game, card_id)}" for n, card_id in due]
    return "Timetable, trains still due today: " + "; ".join(words)


def piles_brief(game: Game) -> str:
    s = game.state
    tops = [f"{n} {card_name(game, pile[-1])} ({len(pile)})" if pile else f"{n} empty" for n, pile in enumerate(s.departments, start=1)]
    return f"Departments: {', '.join(tops)}; deck {len(s.deck)}; Salvage Yard {len(s.salvage)}"


def header_brief(game: Game) -> str:
    """Whose turn it is and what the turn has done, in one line."""
    s = game.state
    table = game.catalog.game.table
    if s.phase == "over":
        return f"=== Game over: {table.game_days} Days played ==="
    head = f"Day {s.day} of {table.game_days}, Stage {s.stage} of {table.stages_per_day}: "
    if s.phase == "setup":
        return head + "player 0 places the Mainline"
    head += f"player {game.to_act} to act"
    done = [words for words, flag in (("drew", s.turn.drawn), ("played", s.turn.played), ("discarded", s.turn.discarded)) if flag]
    if s.turn.switched:
        done.append(f"switched ({counted(s.moves_left, 'move')} left)")
    return head + (f"; this turn so far: {and_list(done)}" if done else "")
