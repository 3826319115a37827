"""``stationmaster play --game trickoftherails``: Trick of the Rails at one
terminal, people and bots around one table.

``--players`` seats 3 to 5 (default 3); ``--bots N`` gives the last N seats
to a bot (``--bot NAME``, default greedy), the others are people sharing
the terminal. With more than one person, the screen is cleared before each
person's turn and a "pass the terminal to player K" prompt waits for Enter,
so nobody sees another's hand; each person sees the table (the lane, the
trick so far, the railways with their locomotives and share values,
everyone's shares, the cards out of the game), their own hand only, and
what happened since their last turn. At the prompt a person types

- a number: take that choice (the choices are the legal actions);
- a card's name (``NYC 7``): play it; a card the rules refuse prints
  every reason the engine gives, and nothing changes;
- an action as JSON, as ``stationmaster play`` takes for Station Master;
- ``?`` (the table again; on a small terminal some parts in short),
  ``board`` (the whole table), ``help``, ``save FILE``, ``quit``.

A person with only one legal choice (the last card in hand, say) is not
asked: it is taken for them, and told.

A game of bots only plays itself to the end. ``--load`` resumes a save at
the table it records (``--bots`` and ``--bot`` given again change it; a
bot's choices after a resume may differ from an unbroken game's, as its
stream starts afresh); ``--save`` writes the save after every action.
``help`` teaches the tricks and the scoring in the quick reference's words
(``generator.trickoftherails.quickref``) and the screen's in its own. Exit
codes follow ``command.play``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from command.fit import screen_size
from command.play import ECHO, SaveKind, Terminal, lone_words, one_line, people_words, play_at_terminal, resume, start_from_args
from command.trickoftherails.textview import WIDTH, card_label, company_name, describe_action, describe_move, prose, render_actions, render_final, render_screen, render_view, what_the_trick_does
from command.words import counted, key_spans, or_words
from engine.errors import IllegalActionError, InvalidActionError
from engine.trickoftherails.bots import BOT_FUNCTIONS, BOTS
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.actions import Action, Play, from_json
from engine.trickoftherails.rules.game import SAVE_FORMAT, Game
from engine.trickoftherails.rules.houserules import HouseRuleValue, parse_assignment
from engine.trickoftherails.rules.lanecards import KIND_WORDS, trick_kind
from generator.trickoftherails.quickref import paragraphs as quick_reference

GAME = "trickoftherails"
SAVES = SaveKind("Trick of the Rails", SAVE_FORMAT, Game.loads)
DEFAULT_PLAYERS = 3
TITLE = "Trick of the Rails"
PLAYERS_HELP = "Trick of the Rails' seats, 3 to 5 (default 3)"
DESCRIPTION = "Trick of the Rails (--game trickoftherails): at the prompt type a number, a card's name, ?, help, save FILE or quit."
DEFAULT_BOT = "greedy"
PROMPT_HELP = "type a number, a card's name to play it, ?, board (the whole table), help (the game, the screen, the commands), save FILE or quit"


def screen_words(catalog: Catalog) -> str:
    """What the screen's figures mean, shown on a railway card of the content."""
    card = next(c for c in catalog.cards if c.station_value is not None and c.number is not None)
    company = catalog.company(card.company).name if card.company else card.name
    return (
        f"The screen. A card is shown with its station value in brackets: {card_label(card)} is the {company} card "
        f"numbered {card.number}, whose station value is {card.station_value}. For each railway: its locomotive, what "
        "one share is worth now (share), every station value in it added up (total), and its cards from one end to "
        "the other. The lane lists the tricks to come, the leftmost deciding the next. Under your hand, a number is "
        "the choice that plays that card; a dash marks a card you may not play now (you must follow the led company "
        "while you hold it)."
    )


def help_commands(catalog: Catalog) -> str:
    """The commands the prompt takes, with a card of the content for an example."""
    card = next(c for c in catalog.cards if c.number is not None)
    return (
        f"Commands: a number takes that choice; a card's name ({card.name}) plays it, or says every reason it may "
        "not be played; ? shows the table again; board shows the whole table, however tall; help shows this; save "
        "FILE saves the game there (save alone: to the --save file); quit stops; an action as JSON is checked and "
        "taken if the rules allow it."
    )


def run(args: argparse.Namespace, inp: TextIO, out: TextIO, err: TextIO) -> int:
    return play_at_terminal(args, inp, out, err, GAME, SAVES, _start, BOTS, DEFAULT_BOT, Table)


def _start(catalog: Catalog, args: argparse.Namespace) -> tuple[Game, str | None]:
    """The game to play, new or resumed, and the save it was resumed from."""

    def new(players: int | None, seed: int, chosen: dict[str, HouseRuleValue]) -> Game:
        return Game(catalog, players=DEFAULT_PLAYERS if players is None else players, seed=seed, house_rules=chosen)

    found: tuple[Game, str | None] = start_from_args(args, lambda path: resume(catalog, path, SAVES), lambda text: parse_assignment(catalog, text), new)
    return found


class Table(Terminal):
    """One game at one terminal: bots move by themselves, people in turn."""

    game: Game

    def __init__(self, game: Game, out: TextIO, save_path: Path | None, seats: list[str]) -> None:
        super().__init__(game, out, save_path, SAVES, seats)
        self.people = [seat for seat, bot in enumerate(seats) if not bot]
        # What happened, in words everyone may read, and how much of it
        # each person has been shown.
        self.story: list[str] = []
        self.seen: dict[int, int] = {}
        self.at_terminal: int | None = None
        self.actions: list[Action] = []

    # -- the story so far --------------------------------------------------------------------

    def tell(self, lines: list[str]) -> None:
        """Add to the story and print it: the person at the terminal has
        seen it (the others are told after the next hand-over)."""
        self.story += lines
        for line in lines:
            self.say(line)
        if self.at_terminal is not None:
            self.seen[self.at_terminal] = len(self.story)

    def _apply(self, action: Action, lone: bool = False) -> None:
        """Take ``action`` and tell everyone; ``lone``: it was a person's only choice."""
        game, s = self.game, self.game.state
        lines = []
        if isinstance(action, Play):
            if not s.trick.plays:
                number = s.tricks_played + 1
                lane = game.catalog.by_id[s.lane[0]]
                lines.append(f"-- trick {number} of {s.tricks_played + len(s.lane)}, a {KIND_WORDS[trick_kind(lane)]} ({lane.name}) --")
            lines.append(describe_move(game, action) + (f" {lone_words(action.player)}" if lone else ""))
        elif lone:
            lines.append(f"{describe_move(game, action)} {lone_words(action.player)}")
        before = len(s.log)
        game.apply(action)
        lines += s.log[before:]
        self.tell(lines)
        if self.save_path is not None:
            self.autosave(self.save_path)

    # -- the loop ------------------------------------------------------------------------------

    def loop(self, inp: TextIO) -> int:
        game = self.game
        for line in prose(f"Trick of the Rails, {len(self.seats)} players, seed {game.seed}: {people_words(self.seats)}."):
            self.say(line)
        if not self.people:
            self.say("Every seat is a bot: the game plays itself through.")
        while not game.is_over():
            actor = game.to_act
            assert actor is not None
            bot = self.seats[actor]
            if bot:
                self._apply(BOT_FUNCTIONS[bot](game))
                continue
            legal = game.legal_actions()
            if len(legal) == 1:
                # Nothing to decide (the last card, or the one card that follows suit).
                self._apply(legal[0], lone=True)
                continue
            if not self._turn(actor, inp):
                return 0
        self.say()
        self.say(render_view(game, None, self.seats))
        self.say()
        self.say(render_final(game, self.seats))
        return 0

    def _turn(self, person: int, inp: TextIO) -> bool:
        """One decision of ``person``; False when the session ends."""
        if self.at_terminal != person and len(self.people) > 1 and not self.hand_over(inp, person, self._heading()):
            return False
        self.at_terminal = person
        self.show(person)
        while True:
            line = self.read_line(inp, f"player {person}, choose {or_words(key_spans([str(n) for n in range(1, len(self.actions) + 1)]))}> ")
            if line is None:
                self.say()
                self.say(self.leave("end of input"))
                return False
            done = self.handle(person, line)
            if done is None:
                self.say(self.leave("quit"))
                return False
            if done:
                return True

    def _heading(self) -> list[str]:
        s = self.game.state
        number, total = s.tricks_played + (1 if s.phase == "play" else 0), s.tricks_played + len(s.lane)
        return prose(f"Trick of the Rails, trick {number} of {total}: {people_words(self.seats)}.")

    def show(self, person: int) -> None:
        game = self.game
        missed = self.story[self.seen.get(person, 0) :]
        if missed and len(self.people) > 1:
            self.say("Since your last turn:")
            for line in missed:
                self.say(f"  {line}")
            self.say()
        self.seen[person] = len(self.story)
        self.actions = game.legal_actions()
        size = screen_size(self.out)
        if size is not None:  # a terminal: the screen that fits it
            self.say(render_screen(game, person, self.seats, self.actions, self._what_happens(), f"({PROMPT_HELP})", *size))
            return
        self.say(render_view(game, person, self.seats, self.actions))
        self.say()
        for line in prose(self._what_happens()):
            self.say(line)
        listed = render_actions(game, self.actions)
        if listed:
            self.say(listed)
        self.say(f"({PROMPT_HELP})")

    def _what_happens(self) -> str:
        """What the trick (or the placement) in hand is about, in a line."""
        game, s = self.game, self.game.state
        if s.phase == "place":
            pending = s.pending[0]
            card = game.catalog.by_id[pending.card]
            if pending.what == "lay":
                return f"You lay {card_label(card)} on the {company_name(game, card.company or '')} railway: choose an end."
            if pending.what == "city":
                return f"You won the trick: add {card_label(card)} to either end of any railway."
            return f"You won the trick: put {card.name} on a railway that has no locomotive yet."
        return what_the_trick_does(game, s.lane[0])

    def handle(self, person: int, line: str) -> bool | None:
        """Act on one input line: True once an action was taken, False to
        ask again, None when the person quits."""
        if not line:
            self.say(f"({PROMPT_HELP})")
            return False
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("quit", "exit"):
            if rest.strip():
                self.error(f"'{command}' takes nothing after it")
                return False
            return None
        if line == "?":
            self.show(person)
            return False
        if command == "board" and not rest.strip():  # the whole table, however tall
            size = screen_size(self.out)
            self.say(render_view(self.game, person, self.seats, self.actions, size[0] if size else WIDTH))
            return False
        if command == "help":
            floor = f"The floor: a share is never worth less than {self.game.catalog.share_floor}."
            for paragraph in (*quick_reference(), floor, screen_words(self.game.catalog), help_commands(self.game.catalog)):
                self.say()
                for text in prose(paragraph):
                    self.say(text)
            return False
        if command == "save":
            self.save_command(rest.strip())
            return False
        if line.startswith("{") or line.startswith("["):
            return self._try(self._json_action(line))
        if line.isdecimal() or (line[0] in "+-" and line[1:].isdecimal()):
            if len(line) > 9 or not 1 <= int(line) <= len(self.actions):
                self.error(f"there is no choice {line[:ECHO]}: choose 1 to {len(self.actions)}")
                return False
            return self._try(self.actions[int(line) - 1])
        card = self._card_named(line)
        if card is not None:
            return self._try(Play(person, card))
        self.error(f"not understood: {line[:ECHO]!r}; {PROMPT_HELP}")
        return False

    def _card_named(self, text: str) -> str | None:
        wanted = " ".join(text.split()).casefold()
        for card in self.game.catalog.cards:
            if card.name.casefold() == wanted:
                return card.id
        return None

    def _json_action(self, text: str) -> Action | None:
        try:
            return from_json(json.loads(text))
        except (ValueError, RecursionError) as exc:
            self.error(f"not valid JSON: {exc}" if not isinstance(exc, InvalidActionError) else str(exc))
            return None

    def _try(self, action: Action | None) -> bool:
        """Take ``action`` if the rules allow it; else print every reason."""
        if action is None:
            return False
        game = self.game
        try:
            reasons = game.check(action)
        except InvalidActionError as exc:
            self.error(str(exc))
            return False
        if reasons:
            self.say(f"refused: {describe_action(game, action)} ({counted(len(reasons), 'reason')}):")
            for reason in reasons:
                self.say(f"  - {one_line(reason)}")
            return False
        try:
            self._apply(action)
        except IllegalActionError as exc:  # pragma: no cover - check() said yes
            self.error(str(exc))
            return False
        except Exception as exc:  # noqa: BLE001 - a bug in the engine must not end the game
            self.error(f"internal error while applying {action}: {type(exc).__name__}: {exc} (please report this); the action was undone")
            # apply() records an action only once done: replaying rebuilds the state.
            self.game = Game.replay(game.catalog, game.save())
            return False
        return True
