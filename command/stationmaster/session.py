"""Station Master at a terminal: its session (keys, turns, the story told
to each person) on the shared frame of ``command.play``.

``--players`` seats Station Master's districts (default 1, solitaire);
``--bots N`` gives the last N seats to a bot (``--bot NAME``: random, greedy
or a search rung, greedy unless said), which acts by itself, an answer to an
attack aimed at it included, each action told in a line under its name (a
card it draws from the deck is not named). The other seats are people at
this terminal. With more than one, the screen and its scrollback are
cleared whenever a different person must act (a defender in an attack's
response window too) and a "pass the terminal to player K" prompt waits for
Enter before that person's hand is shown; they are then told what happened
since their last prompt. A game of bots only plays itself to the end.
``--load`` resumes a save at the table it records (``--bots`` and ``--bot``
given again change it; a bot's stream starts afresh, so its choices may
differ from an unbroken game's).

Each time the table changes and a person is to act, it is printed as that
person sees it (see ``command.stationmaster.textview``) with the legal
actions, each by its key. At the prompt the person types

- a key: take that action. Letters choose the turn's own steps and always
  mean the same thing (``d`` draw from the deck, ``d1`` to ``d3`` from a
  Department, ``e`` end the turn, ``h1`` hold train 1 at the Office, ``r1``
  spend a Red Flag on train 1); numbers choose plays and moves, and each
  keeps its number until the turn ends, so a key typed again never takes
  a different action within a turn;
- a card's name: play that card from the hand (its one way; with several,
  their keys are listed; with none, why not);
- ``why N`` or ``why NAME``: every reason the rules refuse card N of the hand
  now (a card no choice plays shows its chief reason under the hand, from
  ``command.stationmaster.handnotes``);
- ``?``: print the table and the actions again (``help`` teaches the game in
  a few lines, from ``generator.stationmaster.quickref``, then the keys and
  commands);
- ``board``, ``mainline``, ``district N``, ``hand``, ``choices``, ``words``,
  ``score``: that part of the table in full (on a terminal the turn screen is
  fitted to its size, the rest summarised; see ``screen.layout``);
- ``save FILE``: save the game there (``save`` alone: to the --save file);
- ``quit``: stop (saving first when --save was given);
- an action as JSON, e.g. ``{"kind": "draw", "player": 0, "source": "deck"}``:
  any action at all, so a refused one can be tried; every reason it is
  refused is printed, one per line, and the game is unchanged.

A person with one choice only (letting an attack stand when they hold no
answer, say) is not asked: it is taken for them, and told; ending the turn
is the exception, as it runs the trains and they may want to look first.

A key that is no choice now gets a one-line error; when it names an action
(a turn step's letter, or a number given earlier this turn) the error says
which and every reason the rules refuse it. Anything else gets a one-line
error and the prompt again. End of input saves (with --save) and exits 0. Exit codes follow ``command.cli``: 0 finished or
stopped, 1 the content does not load (or a bot failed, a bug: the game is
saved with --save and the session stops), 2 the command was unusable (bad
arguments, seats or bot, a bad house rule, a save file that cannot be
resumed or written).
A save is written atomically (a temporary file in the same directory,
flushed to disk, then ``os.replace``: a full disk or an I/O error is a
one-line error and the old save stays whole), and a file that is not a
Station Master save is never overwritten. A FIFO, a device or a folder named
by ``--load``, ``--save`` or ``save FILE`` is refused up front, saying what
it is (``engine.saves``, through ``engine.content.files``).
"""

from __future__ import annotations

import argparse
import json
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from command.fit import screen_size
from command.play import ECHO, SaveKind, Terminal, lone_words, one_line, people_words, play_at_terminal, resume, start_from_args
from command.stationmaster.handnotes import hand_notes as notes_on_hand
from command.stationmaster.handnotes import usable_cards, why_not
from command.stationmaster.screen.layout import VIEWS_HELP, render_screen, render_view
from command.stationmaster.textview import KEYS_HELP, ActionKeys, card_name, describe_action, key_summary, keys_help, render_actions, render_final, render_state
from command.words import counted
from engine.errors import IllegalActionError, InvalidActionError
from engine.stationmaster.bots import BOT_FUNCTIONS, BOTS
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.actions import Action, Discard, Draw, EndTurn, from_json
from engine.stationmaster.rules.game import SAVE_FORMAT, Game
from engine.stationmaster.rules.houserules import HouseRuleValue, parse_assignment, resolve
from generator.stationmaster.quickref import paragraphs as quick_reference

TITLE = "Station Master"
PLAYERS_HELP = "Station Master's districts (default 1: solitaire)"
PROMPT_HELP = "type a key from the list, a card's name, why N, ? to show the table again, help for the game, the keys and commands, save FILE, quit, or an action as JSON"
HELP_COMMANDS = (
    "Commands: ? shows the table and the choices again; help shows this; a card's name plays that card from your hand "
    "(or lists its keys, or says why it cannot be played); why N (or why NAME) gives every reason the rules refuse "
    "card N of your hand now; save FILE saves the game there (save alone: to the --save file); quit stops.",
    "To see more than the screen holds: " + VIEWS_HELP,
    'An action as JSON, e.g. {"kind": "draw", "player": 0, "source": "deck"}, is checked and taken if the rules allow it; if not, every reason is printed and nothing changes.',
)
# What the screen shows, top to bottom: the terminal's own words, said once, here.
SCREEN_WORDS = (
    "The screen. The header says the Day, the Stage and whose turn it is. The Mainline is listed west to east, "
    "each position [N] by number, then the trains on it. Your district is a grid: row 0 is the Running Track, "
    "north is up, and the Limits signs mark its west and east edges. Then your hand (a card no choice plays says "
    "why), the Departments (piles to draw from or discard to), the timetable (> marks this Stage) and the scores."
)
_KEY_SHAPE = re.compile(r"[+-]?[0-9]+|[A-Za-z][0-9]*")  # what a mistyped key looks like
DESCRIPTION = "Station Master (the default game), at the prompt: " + PROMPT_HELP + ". " + KEYS_HELP


def run(args: argparse.Namespace, inp: TextIO, out: TextIO, err: TextIO) -> int:
    """Play Station Master at this terminal; the exit code."""
    return play_at_terminal(args, inp, out, err, "stationmaster", SAVES, _start, BOTS, DEFAULT_BOT, Session)


DEFAULT_BOT = "greedy"  # Station Master's bot for the --bots seats unless --bot names another


SAVES = SaveKind("Station Master", SAVE_FORMAT, Game.loads)


def _start(catalog: Catalog, args: argparse.Namespace) -> tuple[Game, str | None]:
    """The game to play, new or resumed, and the save it was resumed from."""

    def new(players: int | None, seed: int, chosen: dict[str, HouseRuleValue]) -> Game:
        resolve(catalog, chosen)
        return Game(catalog, players=1 if players is None else players, seed=seed, house_rules=chosen)

    found: tuple[Game, str | None] = start_from_args(args, lambda path: resume(catalog, path, SAVES), lambda text: parse_assignment(catalog, text), new)
    return found


@dataclass(frozen=True)
class Told:
    """One line of what happened: whose action it follows, its words, and
    who may read it (None: everyone; a player: only they, as the card they
    drew from the deck)."""

    actor: int
    text: str
    reader: int | None = None


class Session(Terminal):
    """One Station Master game at one terminal: the people choose by key,
    the bots (``seated``: each seat's bot, "" for a person) act by
    themselves, and with more than one person the terminal is handed over
    whenever a different person must act, a defender in a response window
    too, so that no hand is shown to anyone but its holder."""

    game: Game

    def __init__(self, game: Game, out: TextIO, save_path: Path | None, seated: Sequence[str] | None = None) -> None:
        super().__init__(game, out, save_path, SAVES, seated if seated is not None else [""] * game.state.players)
        self.people = [seat for seat, bot in enumerate(self.seats) if not bot]
        # a resumed game shows the keys an unbroken one would have shown
        self.keys = ActionKeys.resumed(game) if game.history else ActionKeys()
        self.offered: dict[str, Action] = {}
        # What happened, and how much of it each person has been shown at a
        # prompt of theirs; after a hand-over they are told what they missed.
        self.story: list[Told] = []
        self.seen: dict[int, int] = {}
        self.at_terminal: int | None = None
        self._told_last: int | None = None  # whose lines were printed last, to head a bot's run of them
        self._table_due = True  # the table changed since the person at the terminal last saw it
        self._gap = False  # lines were printed since: a blank line before the table
        self._offer()

    def _offer(self) -> None:
        self.offered = self.keys.assign(self.game, self.game.legal_actions())

    def show(self) -> None:
        size = screen_size(self.out)
        if size is not None:  # a terminal: the screen that fits it
            self.say(render_screen(self.game, self.offered, *size, notes=self.hand_notes()))
            return
        self.say(render_state(self.game, self.offered))
        if not self.game.is_over():
            for line in self._hand_note_lines():
                self.say(line)
            self.say(render_actions(self.game, self.offered))
            self.say(f"({PROMPT_HELP})")

    def _hand_note_lines(self) -> list[str]:
        """Each card in hand that no choice uses, by its number in the hand, with the rules' reason."""
        notes = self.hand_notes()
        if not notes:
            return []
        hand = self.game.state.hands[self.game.to_act]
        said = set(notes.values())
        if len(notes) == len(hand) > 1 and len(said) == 1:  # one reason for all, said once
            return textwrap.wrap(f"No card in your hand can be played now: {said.pop()} (why N gives every reason).", 80, subsequent_indent="  ", break_on_hyphens=False)
        lines = ["Cards in your hand that no choice plays now (why N gives every reason):"]
        for place, note in sorted(notes.items()):
            lines += textwrap.wrap(f"{place + 1}. {card_name(self.game, hand[place])}: {note}", 80, initial_indent="  ", subsequent_indent="       ", break_on_hyphens=False)
        return lines

    def hand_notes(self) -> Mapping[int, str]:
        """Why each card in the hand of the player to act cannot be played
        now, by its place in the hand (from 0)."""
        return notes_on_hand(self.game, self.offered.values())

    def _view(self, line: str) -> bool:
        """Print the view ``line`` names (``board``, ``district 1`` ...), if it names one."""
        size = screen_size(self.out)
        view = render_view(self.game, line, self.offered, size[0] if size else None, self.hand_notes())
        if view is not None:
            self.say(view)
        return view is not None

    def prompt(self) -> str:
        return f"player {self.game.to_act}, choose {key_summary(self.offered)}> "

    def loop(self, inp: TextIO) -> int:
        if any(self.seats):
            for opening in textwrap.wrap(f"Station Master, {counted(len(self.seats), 'player')}, seed {self.game.seed}: {people_words(self.seats)}.", 80):
                self.say(opening)
            if not self.people:
                self.say("Every seat is a bot: the game plays itself through.")
            self.say()
        while not self.game.is_over():
            actor = self.game.to_act
            if self.seats[actor]:
                if not self._bot_moves(actor, self.seats[actor]):
                    self.say(self.leave("a bot failed"))
                    return 1
                continue
            lone = next(iter(self.offered.values())) if len(self.offered) == 1 else None
            # Nothing to decide (an attack its target cannot answer, say): taken, and told. Ending
            # the turn is left to the person even then: it runs the trains, and they may look first.
            if lone is not None and not isinstance(lone, EndTurn) and self._take(lone, lone=True):
                continue
            if actor != self.at_terminal:
                if len(self.people) > 1 and not self.hand_over(inp, actor, self._heading()):
                    return 0
                self.at_terminal, self._told_last = actor, None
                self._recap(actor)
            if self._table_due:
                self._show_table(actor)
            line = self.read_line(inp, self.prompt())
            if line is None:
                self.say()
                self.say(self.leave("end of input"))
                return 0
            if not self.handle(line):
                self.say(self.leave("quit"))
                return 0
        if self._table_due:
            if self._gap:
                self.say()
            size = screen_size(self.out)
            self.say(render_state(self.game) if size is None else render_screen(self.game, {}, *size))
        self.say(render_final(self.game))
        return 0

    def _show_table(self, person: int) -> None:
        if self._gap:
            self.say()
        self.show()
        self.seen[person] = len(self.story)
        self._table_due = self._gap = False
        self._told_last = None

    def _heading(self) -> list[str]:
        """Above a hand-over: the day, and who sits where (nothing of a hand)."""
        s = self.game.state
        return textwrap.wrap(f"Station Master, Day {s.day} of {self.game.catalog.game.table.game_days}: {people_words(self.seats)}.", 80)

    def _recap(self, person: int) -> None:
        """After a hand-over, what ``person`` has not seen since their last
        prompt, each player's actions under their name."""
        missed = [told for told in self.story[self.seen.get(person, 0) :] if told.reader in (None, person)]
        if not missed or len(self.people) < 2:
            return
        self.say("Since your last turn:")
        actor = None
        for told in missed:
            if told.actor != actor:
                actor = told.actor
                self.say(f"  {'you' if actor == person else self._who(actor)}:")
            self.say(f"    {told.text}")
        self._gap = True

    def _who(self, player: int) -> str:
        bot = self.seats[player]
        return f"player {player} ({bot} bot)" if bot else f"player {player}"

    def tell(self, lines: list[Told]) -> None:
        """Add to the story and print what the person at the terminal may
        read: their own actions as they are, a bot's under its name."""
        self.story += lines
        for told in lines:
            if told.reader is not None and told.reader != self.at_terminal:
                continue
            if told.actor == self.at_terminal:
                self.say(told.text)
            else:
                if told.actor != self._told_last:
                    self.say(f"{self._who(told.actor)}:")
                self.say(f"  {told.text}")
            self._told_last = told.actor
            self._gap = True

    def _bot_moves(self, player: int, bot: str) -> bool:
        """The bot in ``player``'s seat takes its action; False if it has none
        or the engine fails on it (the game cannot go on)."""
        try:
            action = BOT_FUNCTIONS[bot](self.game)
        except Exception as exc:  # noqa: BLE001 - a bug in a bot must not end in a traceback
            self.error(f"internal error: the {bot} bot of player {player} failed: {type(exc).__name__}: {exc} (please report this)")
            return False
        if action is None:
            self.error(f"internal error: the {bot} bot of player {player} found no legal action (please report this)")
            return False
        return self._take(action)

    def handle(self, line: str) -> bool:
        """Act on one input line; False when the player quits."""
        if not line:
            self.say(f"({PROMPT_HELP})")
            return True
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("quit", "exit"):
            if rest.strip():
                self.error(f"'{command}' takes nothing after it")
                return True
            return False
        if line == "?":
            self.show()
        elif command == "help":
            teaching = (*quick_reference(self.game.catalog), SCREEN_WORDS, keys_help(self.game), *HELP_COMMANDS)
            self.say("\n\n".join(textwrap.fill(paragraph, 80, break_on_hyphens=False) for paragraph in teaching))
        elif command == "save":
            self.save_command(rest.strip())
        elif command == "why":
            self._why(rest.strip())
        elif self._view(line):
            pass
        elif line.startswith("{") or line.startswith("["):
            self._json_action(line)
        elif line.lower() in self.offered:
            self._take(self.offered[line.lower()])
        elif _KEY_SHAPE.fullmatch(line):
            self._not_offered(line)
        elif self._in_hand(line) is not None:
            self._play_named(line)
        else:
            self.error(f"not understood: {line[:ECHO]!r}; {PROMPT_HELP}")
        return True

    def _in_hand(self, text: str) -> str | None:
        """The card in hand ``text`` names: its number in the hand, or its name (any case)."""
        hand = self.game.state.hands[self.game.to_act]
        if text.isdecimal() and len(text) <= 3:
            number = int(text)
            return hand[number - 1] if 1 <= number <= len(hand) else None
        wanted = " ".join(text.split()).casefold()
        return next((card for card in hand if card_name(self.game, card).casefold() == wanted), None)

    def _play_named(self, name: str) -> None:
        """A card named at the prompt: its one choice is taken; with several, their keys are listed; with none, why not."""
        card = self._in_hand(name)
        assert card is not None
        keys = [key for key, action in self.offered.items() if getattr(action, "card", None) == card and not isinstance(action, Discard)]
        if len(keys) == 1:
            self._take(self.offered[keys[0]])
        elif keys:
            self.say(f"{card_name(self.game, card)} can be played {counted(len(keys), 'way')}: choose {key_summary({key: self.offered[key] for key in keys})}")
        else:
            self._why(name)

    def _why(self, named: str) -> None:
        """``why N`` or ``why NAME``: every reason the rules give against playing that card now."""
        if not named:
            hand = self.game.state.hands[self.game.to_act]
            example = f", why {card_name(self.game, hand[0])}" if hand else ""
            self.error(f"why needs a card in your hand, by its number or name: why 1{example}")
            return
        card = self._in_hand(named)
        if card is None:
            self.error(f"no card {named[:ECHO]!r} in your hand: give its number (1 to {len(self.game.state.hands[self.game.to_act])}) or its name")
            return
        name = card_name(self.game, card)
        if card in usable_cards(self.game, self.offered.values()):
            keys = {key: action for key, action in self.offered.items() if getattr(action, "card", None) == card and not isinstance(action, Discard)}
            self.say(f"{name} can be played now" + (f": choose {key_summary(keys)}" if keys else ""))
            return
        found = why_not(self.game, card)
        if not found:
            self.say(f"{name}: the rules allow a way to play it, though no choice lists it (type it as JSON)")
            return
        tried = found[0].tries
        self.say(f"{name} cannot be played now; the rules' reasons, over {counted(tried, 'way')} of playing it tried:")
        for refusal in found:
            share = "" if refusal.count == tried else f" ({refusal.count} of {tried})"
            for n, line in enumerate(textwrap.wrap(refusal.text + share, 76, break_on_hyphens=False)):
                self.say(("  - " if n == 0 else "    ") + line)

    def _not_offered(self, key: str) -> None:
        """A key that is no choice now: what it would do and why the rules refuse it, if it names anything."""
        named = self.keys.named(self.game, key) if len(key) <= 9 else None
        reasons = self.game.check(named) if named is not None else []
        if named is None or not reasons:
            self.error(f"there is no choice {key[:ECHO]} now: choose {key_summary(self.offered)}")
            return
        why = "; ".join(one_line(r) for r in reasons)
        self.error(f"{key.lower()} is not a choice now: {describe_action(self.game, named)} is refused because {why}; choose {key_summary(self.offered)}")

    def _json_action(self, text: str) -> None:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            self.error(f"not valid JSON: {exc}")
            return
        try:
            action = from_json(data)
            reasons = self.game.check(action)
        except InvalidActionError as exc:
            self.error(str(exc))
            return
        if reasons:
            self.say(f"refused: {describe_action(self.game, action)} ({counted(len(reasons), 'reason')}):")
            for reason in reasons:
                self.say(f"  - {one_line(reason)}")
            return
        self._take(action)

    def _take(self, action: Action, lone: bool = False) -> bool:
        """Apply ``action`` and tell it (``lone``: the person's only choice,
        taken without asking); False if it was not taken."""
        game = self.game
        before = len(game.state.log)
        said = describe_action(game, action)  # before: it names the piles as they are now
        hand = list(game.state.hands[action.player]) if 0 <= action.player < len(game.state.hands) else []
        try:
            game.apply(action)
        except IllegalActionError as exc:  # pragma: no cover - legal_actions() and check() agree
            self.say(f"refused: {describe_action(game, action)}")
            for reason in exc.reasons:
                self.say(f"  - {one_line(reason)}")
            return False
        except InvalidActionError as exc:
            self.error(str(exc))
            return False
        except Exception as exc:  # noqa: BLE001 - a bug in the engine must not end the game
            self.error(f"internal error while applying {action}: {type(exc).__name__}: {exc} (please report this); the action was undone")
            # apply() records an action only once it is done, so the history
            # still ends before this one: replaying it rebuilds the state.
            self.game = Game.replay(game.catalog, game.save())
            self._offer()
            return False
        player = action.player
        lines = [Told(player, f"> {said}" + (f" {lone_words(player)}" if lone else ""))]
        if isinstance(action, Draw):  # the card drawn is the drawer's to know
            lines.append(Told(player, f"  player {player} draws {_drawn(game, hand, game.state.hands[player])}", reader=player))
        lines += [Told(player, f"  {entry}") for entry in game.state.log[before:]]
        self.tell(lines)
        # keys are given at every position, a bot's too, as ActionKeys.resumed replays them
        self._offer()
        if self.save_path is not None:
            self.autosave(self.save_path)
        self._table_due = True
        return True


def _drawn(game: Game, before: list[str], after: list[str]) -> str:
    """The card a Draw put in the hand, by name."""
    left = list(before)
    for card_id in after:
        if card_id in left:
            left.remove(card_id)
        else:
            card = game.catalog.by_id.get(card_id)
            return card.name if card is not None else card_id
    return "nothing"
