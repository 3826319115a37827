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

from collections.abc import Mapping

from command.stationmaster import attack_text
from command.stationmaster.screen.actions import describe_action, render_actions
from command.stationmaster.screen.board import PHASES, render_final, render_header, render_mainline, render_piles, render_scores, render_timetable
from command.stationmaster.screen.district import render_district
from command.stationmaster.screen.hand import render_hand
from command.stationmaster.screen.keys import KEYS_HELP, ActionKeys, key_summary, keys_help, letter_key
from command.stationmaster.screen.names import LABEL_WIDTH, a_or_an, card_name, describe_cars, short_label, slot_name, train_number
from command.stationmaster.screen.switching import render_switching
from engine.stationmaster.rules.actions import Action
from engine.stationmaster.rules.game import Game

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
    "render_state",
    "render_switching",
    "render_timetable",
    "short_label",
    "slot_name",
    "train_number",
]


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
