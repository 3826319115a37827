"""Trick of the Rails as plain text, for the terminal game.

``render_view(game, player)`` is the table as ``player`` may see it: the
lane, the trick so far, each railway with its locomotive and share value,
everyone's shares, the cards out of the game, and ``player``'s own hand;
never another player's hand (only how many cards it holds).
``describe_action`` says an action in words, with the share values it would
change; ``render_actions`` numbers actions; ``render_final`` is the end.
Everything here only reads a game, so the same game prints the same text.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Sequence

from command.fit import Part, grow, sized
from command.words import counted, gathered_words
from engine.trickoftherails.content.model import Card
from engine.trickoftherails.rules.actions import Action, LayTrack, PlaceCity, PlaceLocomotive, Play
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.lanecards import trick_kind


def card_label(card: Card) -> str:
    """A card's name, with its station value where it has one: ``NYC 6 (40)``."""
    return f"{card.name} ({card.station_value})" if card.station_value is not None else card.name


def label(game: Game, card_id: str) -> str:
    card = game.catalog.by_id.get(card_id)
    return card_label(card) if card is not None else repr(card_id)


def company_name(game: Game, company: str) -> str:
    return game.catalog.company(company).name


WIDTH = 80  # the widest line the view lays out (a terminal's usual width)


def lane_words(game: Game, card_id: str) -> str:
    """A lane card, and the kind of trick it makes when leftmost."""
    card = game.catalog.by_id[card_id]
    kind = trick_kind(card)
    if kind == "city":
        return f"{card.name} (City {card.station_value})"
    if kind == "locomotive":
        brings = f", then {game.catalog.by_id[card.brings].name}" if card.brings else ""
        return f"{card.name} (cost {card.cost}{brings})"
    if card.company is None:
        return f"{card.name} (stock: a card to come)"
    return f"{card.name} (stock)"


def what_the_trick_does(game: Game, card_id: str) -> str:
    """The trick a lane card decides, in a sentence."""
    card = game.catalog.by_id[card_id]
    kind = trick_kind(card)
    if kind == "stock":
        return f"A stock trick: the winner takes {card.name} as a share and gives up the card they played; everyone else keeps the card they played as a share of its own company."
    if kind == "city":
        return f"A City trick: the winner adds {card_label(card)} to an end of any railway; then every card played is laid on its own company's railway."
    return f"A Locomotive trick: the winner puts {card.name} on a railway without one; then every card played is laid on its own company's railway."


def flowing(items: Sequence[str], first: str = "  ", separator: str = " | ", width: int = WIDTH, indent: str | None = None) -> list[str]:
    """``items`` one after another with ``separator`` between, in lines of
    at most ``width`` (an item longer than that gets a line of its own): the
    first line starts with ``first``, the others with ``indent`` (as many
    spaces as ``first`` is long unless given)."""
    pad = " " * len(first) if indent is None else indent
    if len(pad) > width // 2:
        pad = "      "
    lines: list[str] = []
    line = first
    fresh = True
    for item in items:
        if not fresh and len(line) + len(separator) + len(item) + len(separator.rstrip()) > width:
            lines.append(line + separator.rstrip())
            line, fresh = pad, True
        line = line + item if fresh else line + separator + item
        fresh = False
    return lines + [line]


def prose(text: str, indent: str = "", width: int = WIDTH) -> list[str]:
    """A sentence or two, wrapped to ``width``."""
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False)


def _seat(player: int, seats: Sequence[str] | None, viewer: int | None) -> str:
    text = f"player {player}"
    if viewer == player:
        text += " (you)"
    elif seats is not None and seats[player]:
        text += f" ({seats[player]} bot)"
    return text


def _title(game: Game, viewer: int | None, seats: Sequence[str] | None) -> str:
    s = game.state
    if s.phase == "over":
        return f"=== Trick of the Rails: the game is over after {s.tricks_played} tricks ==="
    number = s.tricks_played + (1 if s.phase == "play" else 0)
    actor = game.to_act
    doing = "plays a card" if s.phase == "play" else "places"
    return f"=== Trick of the Rails: trick {number} of {s.tricks_played + len(s.lane)}; {_seat(actor, seats, viewer) if actor is not None else ''} {doing} ==="


def _lane_lines(game: Game, width: int, first: int | None = None) -> list[str]:
    """The lane, leftmost first (``first``: only that many cards, and how many more)."""
    s = game.state
    head = "Lane, leftmost first" + (" (the leftmost decides this trick):" if s.phase == "play" else " (the leftmost decides the next trick):")
    cards = [f"{i}. {lane_words(game, card)}" for i, card in enumerate(s.lane, start=1)]
    if first is not None and len(cards) > first:
        cards = [*cards[:first], f"{len(cards) - first} more"]
    return [head, *flowing(cards, width=width)]


def _railway_lines(game: Game, width: int) -> list[str]:
    s, catalog = game.state, game.catalog
    values = game.share_values()
    lines = prose("Railways: a share is worth the best run of cards in a row its locomotive counts, less its cost (total: every station value added up)", width=width)
    name_width = max(len(c.name) for c in catalog.companies)
    locos = {company: catalog.by_id[loco].name for company, loco in s.locomotives.items()}
    loco_width = max([len("locomotive"), *(len(name) for name in locos.values())])
    lines.append(f"  {'':<{name_width}}  {'locomotive':<{loco_width}}  share  total  cards, left to right")
    for company, cards in s.railways.items():
        total = sum(catalog.by_id[c].station_value or 0 for c in cards)
        head = f"  {company_name(game, company):<{name_width}}  {locos.get(company, '-'):<{loco_width}}  {values[company]:>5}  {total:>5}  "
        lines += flowing([label(game, c) for c in cards], head, " - ", width=width)
    return lines


def _railways_brief(game: Game, width: int) -> list[str]:
    """Each railway in a few words: its locomotive, share value and length."""
    s, catalog = game.state, game.catalog
    values = game.share_values()
    items = []
    for company, cards in s.railways.items():
        loco = catalog.by_id[s.locomotives[company]].name if company in s.locomotives else "no locomotive"
        items.append(f"{company_name(game, company)}: share {values[company]}, {counted(len(cards), 'card')}, {loco}")
    return flowing(items, "Railways: ", "; ", width=width, indent="  ")


def _share_lines(game: Game, viewer: int | None, seats: Sequence[str] | None) -> list[str]:
    s, catalog = game.state, game.catalog
    lines = ["Shares held (and what they are worth at the share values now):"]
    scores = game.score()
    for p, held in enumerate(s.shares):
        counts = Counter(catalog.by_id[c].company for c in held)
        listed = ", ".join(f"{company_name(game, company)} x{counts[company]}" for company in s.railways if counts[company]) or "none yet"
        hand = f"; {counted(len(s.hands[p]), 'card')} in hand" if s.phase != "over" else ""
        lines.append(f"  {_seat(p, seats, viewer)}: {listed}; worth {scores[p]}{hand}")
    return lines


def _shares_brief(game: Game, viewer: int | None, seats: Sequence[str] | None, width: int) -> list[str]:
    scores = game.score()
    return flowing([f"{_seat(p, seats, viewer)} {scores[p]}" for p in range(len(scores))], "Shares worth now: ", ", ", width=width, indent="  ")


def render_view(game: Game, viewer: int | None, seats: Sequence[str] | None = None, choices: Sequence[Action] = (), width: int = WIDTH) -> str:
    """The table as ``viewer`` sees it (``None``: as anyone may, no hand at
    all). ``seats`` names the bot in each seat ("" for a person); the cards
    of ``choices`` (the viewer's legal plays) are numbered in the hand."""
    s = game.state
    lines = [_title(game, viewer, seats)]
    if s.phase != "over":
        lines += ["", *_lane_lines(game, width)]
        lines += _trick_lines(game, viewer, seats)
    lines += ["", *_railway_lines(game, width)]
    lines += ["", *_share_lines(game, viewer, seats)]
    if s.removed:
        lines += ["", *flowing([label(game, c) for c in s.removed], "Out of the game: ", ", ", width=width, indent="  ")]
    if viewer is not None and s.phase != "over":
        lines += ["", *_hand_lines(game, viewer, choices, width)]
    return "\n".join(lines)


def render_screen(game: Game, viewer: int, seats: Sequence[str] | None, choices: Sequence[Action], what: str, tail: str, width: int, height: int) -> str:
    """The turn screen at a terminal of ``width`` x ``height``: the title,
    the lane's next cards, the trick, ``viewer``'s hand, ``what`` the
    trick or placement is about, the choices and ``tail`` (the prompt's
    help) always; the railways, the shares and the cards out of the game as
    room allows, in short forms first. At most ``height - 1`` lines (the
    prompt takes the last), none wider than ``width``."""
    s = game.state
    trick = _trick_lines(game, viewer, seats)[1:]
    removed = flowing([label(game, c) for c in s.removed], "Out of the game: ", ", ", width=width, indent="  ") if s.removed else []
    listed = render_actions(game, choices, width).splitlines()
    parts = [
        Part("title", sized(width, [_title(game, viewer, seats)])),
        Part("lane", sized(width, _lane_lines(game, width, first=3), ["", *_lane_lines(game, width)])),
        Part("trick", sized(width, trick, ["", *trick])),
        Part("railways", sized(width, [], _railways_brief(game, width), ["", *_railway_lines(game, width)])),
        Part("shares", sized(width, [], _shares_brief(game, viewer, seats, width), ["", *_share_lines(game, viewer, seats)])),
        Part("removed", sized(width, [], removed, ["", *removed] if removed else [])),
        Part("hand", sized(width, _hand_brief(game, viewer, choices, width), _hand_lines(game, viewer, choices, width), ["", *_hand_lines(game, viewer, choices, width)])),
        Part("what", sized(width, prose(what, width=width), ["", *prose(what, width=width)])),
        Part("choices", sized(width, _choices_brief(game, choices, width) if listed else [], listed)),
    ]
    footer = sized(width, [tail])[0]
    room = height - 1 - len(footer)
    grow(parts, _GROWTH, room)
    return "\n".join([line for part in parts for line in part.lines] + footer)


# Which part grows to which size, in turn, while the screen fits.
_GROWTH = (("railways", 1), ("hand", 1), ("choices", 1), ("shares", 1), ("lane", 1), ("trick", 1), ("railways", 2), ("shares", 2), ("removed", 1), ("hand", 2), ("what", 1), ("removed", 2))


def _hand_brief(game: Game, viewer: int, choices: Sequence[Action], width: int) -> list[str]:
    """The hand in flowing lines, when none of it is played now (a
    placement); else as ``_hand_lines``, whose numbers name the plays."""
    if any(isinstance(a, Play) for a in choices):
        return _hand_lines(game, viewer, choices, width)
    hand = sorted(game.state.hands[viewer], key=game.order)
    return flowing([label(game, c) for c in hand], f"Your hand ({counted(len(hand), 'card')}): ", ", ", width=width, indent="  ")


def _choices_brief(game: Game, choices: Sequence[Action], width: int) -> list[str]:
    """The placing choices gathered in one line: each railway with the
    numbers of its left and right ends, or what the choices share and each
    one's own words."""
    ends = [a for a in choices if isinstance(a, (PlaceCity, LayTrack))]
    if ends and len(ends) == len(choices):
        card = game.catalog.by_id[game.state.pending[0].card] if game.state.pending else None
        by_railway: dict[str, list[str]] = {}
        for n, action in enumerate(ends, start=1):
            company = action.company if isinstance(action, PlaceCity) else (card.company if card is not None else None)
            by_railway.setdefault(company_name(game, company) if company else "its railway", []).append(f"{action.end} {n}")
        what = card_label(card) if card is not None else "the card"
        items = [f"{railway} ({', '.join(numbers)})" for railway, numbers in by_railway.items()]
        return ["Your choices:", *flowing(items, f"  Place {what} at an end: ", "; ", width=width, indent="      ")]
    shared, own = gathered_words([describe_action(game, a) for a in choices])
    items = [f"[{n}] {words}" for n, words in enumerate(own, start=1)]
    return ["Your choices:", *textwrap.wrap(f"  {shared}: {'; '.join(items)}", width, subsequent_indent="      ", break_on_hyphens=False)]


def _hand_lines(game: Game, viewer: int, choices: Sequence[Action], width: int = WIDTH) -> list[str]:
    """The viewer's hand by company, then number; a card they may play now
    carries the number of that choice, one they may not a dash."""
    hand = sorted(game.state.hands[viewer], key=game.order)
    numbered = {a.card: i for i, a in enumerate(choices, start=1) if isinstance(a, Play)}
    if not hand:
        return [f"Your hand (player {viewer}): empty"]
    if not numbered:
        head = f"Your hand (player {viewer}), {counted(len(hand), 'card')}:"
        items = [label(game, c) for c in hand]
    else:
        led = game.catalog.by_id[game.state.trick.plays[0][1]].company if game.state.trick.plays else None
        must = f" ({company_name(game, led)} was led and you hold {company_name(game, led)})" if led is not None and len(numbered) < len(hand) else ""
        head = f"Your hand (player {viewer}), {counted(len(hand), 'card')}; the numbered cards may be played now{must}:"
        items = [f"{numbered[c]:>2}. {label(game, c)}" if c in numbered else f" -  {label(game, c)}" for c in hand]
    lines = prose(head, width=width)
    by_company: dict[str | None, list[str]] = {}
    for card, item in zip(hand, items):
        by_company.setdefault(game.catalog.by_id[card].company, []).append(item)
    cell = max(len(item) for item in items) + 2
    per_row = max(1, (width - 2) // cell)
    for row in by_company.values():
        for at in range(0, len(row), per_row):
            lines.append("  " + "".join(item.ljust(cell) for item in row[at : at + per_row]).rstrip())
    return lines


def _trick_lines(game: Game, viewer: int | None, seats: Sequence[str] | None) -> list[str]:
    s, catalog = game.state, game.catalog
    trick = s.trick
    if s.phase == "over":
        return []
    if s.phase == "play":
        if not trick.plays:
            return ["", f"Trick so far: nothing played; {_seat(trick.leader, seats, viewer)} leads"]
        led = catalog.by_id[trick.plays[0][1]].company
        assert led is not None
        name = company_name(game, led)
        lines = ["", f"Trick so far ({name} led: the highest {name} card wins):"]
        return lines + [f"  {_seat(p, seats, viewer)} {'led' if i == 0 else 'played'} {label(game, c)}" for i, (p, c) in enumerate(trick.plays)]
    assert trick.winner is not None
    lines = ["", f"Trick won by {_seat(trick.winner, seats, viewer)} with {label(game, trick.card_of(trick.winner))}; placing now:"]
    for pending in s.pending:
        card = catalog.by_id[pending.card]
        if pending.what == "lay":
            assert card.company is not None
            lines.append(f"  - {_seat(pending.player, seats, viewer)} lays {card_label(card)} on the {company_name(game, card.company)} railway")
        elif pending.what == "city":
            lines.append(f"  - {_seat(pending.player, seats, viewer)} adds {card_label(card)} to an end of any railway")
        else:
            lines.append(f"  - {_seat(pending.player, seats, viewer)} puts {card.name} on a railway without a locomotive")
    return lines


def _value_changes(game: Game, action: Action) -> str:
    """The share values ``action`` would change, tried on a copy."""
    before = game.share_values()
    twin = game.copy()
    twin.apply(action)
    after = twin.share_values()
    changed = [f"{company_name(game, c)} share value: {before[c]} -> {after[c]}" for c in before if after[c] != before[c]]
    if not changed and isinstance(action, PlaceLocomotive):
        changed = [f"{company_name(game, action.company)} share value stays {before[action.company]}"]
    return f" ({'; '.join(changed)})" if changed else ""


def describe_action(game: Game, action: Action) -> str:
    """An action in words, as a choice offered to its player."""
    s, catalog = game.state, game.catalog
    if isinstance(action, Play):
        return f"Play {label(game, action.card)}"
    pending = s.pending[0] if s.pending else None
    card = catalog.by_id[pending.card] if pending is not None else None
    legal = not game.check(action)
    if isinstance(action, PlaceCity):
        said = f"Add {card_label(card) if card else 'the City'} at the {action.end} end of the {company_name(game, action.company)} railway"
    elif isinstance(action, PlaceLocomotive):
        said = f"Put {card.name if card else 'the locomotive'} on the {company_name(game, action.company)} railway"
    elif isinstance(action, LayTrack):
        company = card.company if card is not None else None
        where = f"the {company_name(game, company)} railway" if company else "its railway"
        said = f"Lay {card_label(card) if card else 'your card'} at the {action.end} end of {where}"
    else:  # pragma: no cover - every kind is above
        said = str(action)
    return said + (_value_changes(game, action) if legal else "")


def describe_move(game: Game, action: Action) -> str:
    """What a player did, for everyone to read (before it is applied)."""
    if isinstance(action, Play):
        verb = "leads" if not game.state.trick.plays else "plays"
        return f"player {action.player} {verb} {label(game, action.card)}"
    return f"player {action.player}: {describe_action(game, action)}"


def render_actions(game: Game, actions: Sequence[Action], width: int = WIDTH) -> str:
    """The choices numbered, one a line (plays are numbered in the hand instead)."""
    if all(isinstance(a, Play) for a in actions):
        return ""
    lines = ["Your choices:"]
    for i, action in enumerate(actions, start=1):
        lines += textwrap.wrap(f"{i:>3}. {describe_action(game, action)}", width, subsequent_indent="       ", break_on_hyphens=False)
    return "\n".join(lines)


def render_final(game: Game, seats: Sequence[str] | None = None) -> str:
    s = game.state
    values = game.share_values()
    scores = game.score()
    lines = ["=== Game over ===", "", *flowing([f"{company_name(game, c)}: {v}" for c, v in values.items()], "Final share values: ", ", ", indent="  "), "", "Scores (shares held x share value):"]
    for p, held in enumerate(s.shares):
        counts = Counter(game.catalog.by_id[c].company for c in held)
        sums = [f"{counts[c]} {company_name(game, c)} x {values[c]}" for c in s.railways if counts[c]]
        lines += flowing(sums, f"  {_seat(p, seats, None)}: {scores[p]} = ", " + ", indent="      ")
    winners = game.winners()
    top = scores[winners[0]]
    if len(winners) == 1:
        lines += ["", f"Winner: {_seat(winners[0], seats, None)} with {top}"]
    else:
        lines += ["", f"Shared win: {' and '.join(_seat(p, seats, None) for p in winners)} with {top} each"]
    return "\n".join(lines)
