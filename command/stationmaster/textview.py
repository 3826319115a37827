"""The game as plain text, for the terminal game (``stationmaster play``).

Everything here only reads a Game: ``render_state`` draws the table for the
player to act (the Mainline and its trains, that player's district as a grid,
the hand, the Departments, the timetable, the scores and what the trains at
the player's Office may do there); ``describe_action`` says an action in
words, with card names; ``ActionKeys`` gives each legal action the key the
player types, and ``render_actions`` lists them by key. On a terminal,
``render_screen`` fits the turn to its width and height (the hand and the
choices always, the rest as room allows) and ``render_view`` prints one part
in full on request. The output is a pure function of the game, the actions
already taken this turn and the terminal's size, so a seed and a list of
inputs always print the same thing. Each job has its module under
``command/stationmaster/screen/``; this one gathers what the session and
the tests use.

The keys (``KEYS_HELP`` says them for the player): letters for the turn's
own steps, which mean the same action whatever else is offered (``d`` draws
from the deck, ``d1`` to ``d3`` from a Department, ``e`` ends the turn,
``h2`` holds train 2 at the Office, ``r2`` spends a Red Flag on train 2);
numbers for the plays and moves, each keeping its number for the rest of the
turn once offered (a new turn counts from 1 again).
"""

from __future__ import annotations

from command.stationmaster.screen.actions import describe_action, render_actions
from command.stationmaster.screen.board import PHASES, render_final, render_header, render_mainline, render_piles, render_scores, render_timetable
from command.stationmaster.screen.district import render_district
from command.stationmaster.screen.hand import render_hand
from command.stationmaster.screen.keys import KEYS_HELP, ActionKeys, key_summary, keys_help, letter_key
from command.stationmaster.screen.layout import render_screen, render_state, render_view
from command.stationmaster.screen.names import LABEL_WIDTH, a_or_an, card_name, describe_cars, short_label, slot_name, train_number
from command.stationmaster.screen.switching import render_switching

__all__ = [
    "KEYS_HELP",
    "LABEL_WIDTH",
    "PHASES",
    "ActionKeys",
    "a_or_an",
    "card_name",
    "describe_action",
    "describe_cars",
    "key_summary",
    "keys_help",
    "letter_key",
    "render_actions",
    "render_district",
    "render_final",
    "render_hand",
    "render_header",
    "render_mainline",
    "render_piles",
    "render_scores",
    "render_screen",
    "render_state",
    "render_view",
    "render_switching",
    "render_timetable",
    "short_label",
    "slot_name",
    "train_number",
]
