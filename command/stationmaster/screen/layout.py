"""The turn screen, fitted to the terminal, and the views a player asks for
by name.

``render_screen`` lays out what the player to act needs first (whose turn,
their hand, their choices, their own district) and summarises the rest
(the Mainline, the trains, the timetable, the piles, the scores) so that
the whole screen, the prompt included, fits ``height`` lines, every line
wrapped between words to ``width``. Each part comes in sizes, smallest
first; every part starts at its smallest, then parts grow, the most needed
first, while the screen still fits. ``render_view`` prints one part in
full on request (``board``, ``mainline``, ``district N``, ``hand``,
``choices``, ``words``, ``score``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from command.fit import Part, grow, sized, used, wrap_lines
from command.stationmaster import attack_text
from command.stationmaster.screen import board, choices, district, glossary
from command.stationmaster.screen.actions import render_actions
from command.stationmaster.screen.hand import render_hand
from command.stationmaster.screen.switching import render_switching
from command.words import or_words
from engine.stationmaster.rules.actions import Action
from engine.stationmaster.rules.game import Game

# The names a player types for a view, and what each shows (``VIEWS_HELP``).
VIEWS = ("board", "mainline", "district N", "hand", "choices", "words", "score")
VIEWS_HELP = (
    "board: the whole table; mainline: the Mainline, its trains and the timetable; district N: that district in full; "
    "hand: your cards and what each does; choices: every choice, one a line; words: what the game's words mean; score: how points are earned."
)
FOOTER = "Type a key; to see more: board, mainline, district N, hand, choices, words, score; or help, save FILE, quit."


def render_state(game: Game, keyed: Mapping[str, Action] | None = None, width: int | None = None) -> str:
    """The whole table as the player to act sees it (``keyed``: the actions
    offered by their keys, for the switching panel); once the game is over,
    the Mainline, every district and the scores. Nothing is cut: this is
    the ``board`` view, and what is printed where no terminal sets a size."""
    if game.is_over():
        districts = [district.render_district(game, p, width) for p in range(game.state.players)]
        return "\n".join([board.render_header(game), board.render_mainline(game), *districts, board.render_scores(game)])
    player = game.to_act
    parts = [
        board.render_header(game),
        board.render_mainline(game),
        district.render_district(game, player, width),
        render_hand(game, player),
        board.render_piles(game),
        board.render_timetable(game),
        board.render_scores(game),
    ]
    switching = render_switching(game, player, keyed)
    if switching:
        parts.append(switching)
    attacks = attack_text.render_attacks(game, player)
    if attacks:
        parts.append(attacks)
    return "\n".join(parts)


def _switching_brief(text: str) -> list[str]:
    """The switching panel cut to the lines that carry a key (and each
    train's heading line), with a pointer to the rest."""
    lines = text.splitlines()
    kept = [line for line in lines if line.startswith("Switching at") or "[" in line]
    if len(kept) < len(lines):
        kept.append("  (type board for every square the rails reach, and why nothing else can move)")
    return kept


def _scores(game: Game) -> list[str]:
    return [board.render_scores(game) + " (type score for how points are earned)"]


def _parts(game: Game, keyed: Mapping[str, Action], width: int, notes: Mapping[int, str] | None) -> list[Part]:
    """Every part of the turn screen, in the order printed, each in its sizes."""
    player = game.to_act
    grid = [district.district_heading(game, player), *district.district_grid(game, player, width), f"  {district.LEGEND}"]
    parts = [
        Part("header", sized(width, [board.header_brief(game)], board.render_header(game).splitlines())),
        Part("mainline", sized(width, [], [board.trains_count(game)], [board.mainline_brief(game), *board.trains_brief(game)], board.render_mainline(game).splitlines())),
        Part("timetable", sized(width, [], [board.timetable_brief(game)], board.render_timetable(game).splitlines())),
        Part("piles", sized(width, [], [board.piles_brief(game)], board.render_piles(game).splitlines())),
        Part("scores", sized(width, [], _scores(game))),
        Part("district", sized(width, [], district.district_brief(game, player), grid, [*grid, *district.district_details(game, player)])),
        Part("hand", sized(width, render_hand(game, player, notes, brief=True).splitlines(), render_hand(game, player, notes).splitlines())),
    ]
    switching = render_switching(game, player, keyed)
    if switching:
        parts.append(Part("switching", sized(width, [], _switching_brief(switching), switching.splitlines())))
    attacks = attack_text.render_attacks(game, player)
    if attacks:
        waiting = attacks.split("\nAttacks in force:")[0] if attacks.startswith("Attack on you") else ""
        parts.append(Part("attacks", sized(width, waiting.splitlines(), attacks.splitlines())))
    parts.append(Part("choices", sized(width, choices.choices_counted(game, keyed), choices.choices_brief(game, keyed), choices.choices_gathered(game, keyed), choices.choices_full(game, keyed))))
    return parts


# Which part grows to which size, in turn, while the screen fits: first
# what the player acts on, then the board around it. Whose turn it is, the
# hand and the choices are there from the start (at their smallest); every
# other part starts out left out.
_GROWTH = (
    ("choices", 1),
    ("district", 1),
    ("choices", 2),
    ("mainline", 1),
    ("scores", 1),
    ("choices", 3),
    ("hand", 1),
    ("attacks", 1),
    ("timetable", 1),
    ("mainline", 2),
    ("district", 2),
    ("words", 1),
    ("switching", 1),
    ("header", 1),
    ("piles", 1),
    ("district", 3),
    ("switching", 2),
    ("words", 2),
    ("timetable", 2),
    ("mainline", 3),
    ("piles", 2),
)


def _words_part(game: Game, shown: str, width: int) -> Part:
    found = glossary.terms_in(game, shown)
    if not found:
        return Part("words", [[]])
    named = or_words([term for term, _ in found]).replace(" or ", " and ")
    return Part("words", sized(width, [], [f"Words on this screen: {named} (type words for what they mean)"], glossary.explain(found)))


def render_screen(game: Game, keyed: Mapping[str, Action], width: int, height: int, notes: Mapping[int, str] | None = None) -> str:
    """The turn screen in at most ``height - 1`` lines (the prompt takes the
    last), none wider than ``width``; ``notes``: why hand cards (by their
    place in the hand, from 0) cannot be played now."""
    if game.is_over():
        return _final_screen(game, width, height)
    parts = _parts(game, keyed, width, notes)
    footer = wrap_lines([FOOTER], width)
    shown = "\n".join(line for part in parts for size in part.sizes for line in size)
    parts.insert(len(parts) - 1, _words_part(game, shown, width))
    room = height - 1 - len(footer)
    by_name = {part.name: part for part in parts}
    grow(parts, _GROWTH, room)
    choices_part = by_name["choices"]
    if used(parts) > room:  # the moves to each square told together, and the rest may grow again
        choices_part.sizes[0] = wrap_lines(choices.choices_counted(game, keyed, alike=True), width)
        grow(parts, _GROWTH, room)
    most = len(choices_part.lines)
    while used(parts) > room and most > 2:  # the choices alone are too long: fewer, fuller lines
        most -= 1
        choices_part.sizes[0] = wrap_lines(choices.choices_counted(game, keyed, most), width)
        choices_part.size = 0
    return "\n".join([line for part in parts for line in part.lines] + footer)


def _final_screen(game: Game, width: int, height: int) -> str:
    """The table at the end: the Mainline, each district, the scores."""
    players = range(game.state.players)
    parts = [
        Part("header", sized(width, [board.header_brief(game)])),
        Part("mainline", sized(width, [board.mainline_brief(game)], board.render_mainline(game).splitlines())),
        *(
            Part(
                f"district {p}",
                sized(
                    width,
                    district.district_brief(game, p),
                    [district.district_heading(game, p), *district.district_grid(game, p, width)],
                ),
            )
            for p in players
        ),
        Part("scores", sized(width, [board.render_scores(game) + " (type district N for a district in full)"])),
    ]
    room = height - 4  # the final lines (render_final) follow
    for name in [*(f"district {p}" for p in players), "mainline"]:
        part = next(p for p in parts if p.name == name)
        part.size = 1
        if sum(len(p.lines) for p in parts) > room:
            part.size = 0
    return "\n".join(line for part in parts for line in part.lines)


# -- views on request -----------------------------------------------------------------


def render_view(game: Game, line: str, keyed: Mapping[str, Action], width: int | None, notes: Mapping[int, str] | None = None) -> str | None:
    """The view ``line`` names, wrapped to ``width`` (None: as it is); None
    when ``line`` names no view. ``district`` alone is the player's own."""
    word, _, rest = line.strip().lower().partition(" ")
    rest = rest.strip()
    player = game.to_act if not game.is_over() else 0
    views: dict[str, Callable[[], list[str]]] = {
        "board": lambda: [render_state(game, keyed, width), *([] if game.is_over() else [render_actions(game, keyed)])],
        "mainline": lambda: [board.render_mainline(game), board.render_timetable(game), board.render_piles(game)],
        "hand": lambda: [render_hand(game, player, notes)] if not game.is_over() else ["The game is over: no hand is played any more."],
        "choices": lambda: choices.choices_full(game, keyed) if keyed else ["No choices now."],
        "words": lambda: glossary.explain(glossary.terms_in(game, None)),
        "score": lambda: glossary.scoring_lines(game),
    }
    if word == "district":
        return _district_view(game, rest, player, width)
    if word not in views or rest:
        return None
    return "\n".join(wrap_lines(views[word](), width))


def _district_view(game: Game, rest: str, player: int, width: int | None) -> str:
    players = game.state.players
    if not rest:
        number = player
    elif rest.isdecimal() and int(rest) < players:
        number = int(rest)
    else:
        return f"error: no district {rest[:12]}: the districts are {or_words([str(p) for p in range(players)])}"
    return "\n".join(wrap_lines([district.render_district(game, number, width)], width))
