"""``stationmaster play``: Station Master in a terminal (solitaire by default), people and bots at one table.

``--game`` picks the pack (``stationmaster`` unless given) and with it the
default content folder, ``content/<game>``. This module holds what every
terminal game shares (loading the content, resuming and writing saves, who
sits where, handing the terminal over) and Station Master's session; Trick
of the Rails has its own (``command.play_trickoftherails``). A pack with no
text view of its own is refused in one line.

``--players`` seats Station Master's districts (default 1, solitaire);
``--bots N`` gives the last N seats to a bot (``--bot NAME``: random, greedy
or lookahead, greedy unless said), which acts by itself, an answer to an
attack aimed at it included, each action told in a line under its name (a
card it draws from the deck is not named). The other seats are people at
this terminal. With more than one, the screen and its scrollback are
cleared whenever a different person must act (a defender in an attack's
response window too) and a "pass the terminal to player K" prompt waits for
Enter before that person's hand is shown; they are then told what happened
since their last prompt. A game of bots only plays itself to the end.
``--load`` resumes a save; ``--bots`` and ``--bot`` say again who the bots
are (the save holds the actions, not the seats, and a bot's stream starts
afresh, so its choices may differ from an unbroken game's).

Each time the table changes and a person is to act, it is printed as that
person sees it (see ``engine.stationmaster.textview``) with the legal
actions, each by its key. At the prompt the person types

- a key: take that action. Letters choose the turn's own steps and always
  mean the same thing (``d`` draw from the deck, ``d1`` to ``d3`` from a
  Department, ``e`` end the turn, ``h1`` hold train 1 at the Office, ``r1``
  spend a Red Flag on train 1); numbers choose plays and moves, and each
  keeps its number until the turn ends, so a key typed again never takes
  a different action within a turn;
- ``?``: print the table and the actions again (``help`` explains the keys and commands);
- ``save FILE``: save the game there (``save`` alone: to the --save file);
- ``quit``: stop (saving first when --save was given);
- an action as JSON, e.g. ``{"kind": "draw", "player": 0, "source": "deck"}``:
  any action at all, so a refused one can be tried; every reason it is
  refused is printed, one per line, and the game is unchanged.

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
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from command.commands import PLAY_HELP
from command.games import DEFAULT_GAME, add_game_option, default_content
from engine.stationmaster.actions import Action, Draw, from_json
from engine.stationmaster.bots import BOT_FUNCTIONS, BOTS
from engine.stationmaster.content.model import Catalog
from engine import saves
from engine.content import files
from engine.errors import ContentError, IllegalActionError, InvalidActionError, UsageError
from engine.stationmaster.game import SAVE_FORMAT, Game
from engine.stationmaster.houserules import HouseRuleValue, parse_assignment, resolve
from engine.stationmaster.textview import KEYS_HELP, ActionKeys, describe_action, key_summary, keys_help, render_actions, render_final, render_state

PROG = "stationmaster play"
DEFAULT_BOT = "greedy"  # Station Master's bot for the --bots seats unless --bot names another
PROMPT_HELP = "type a key from the list, ? to show the table again, help for the keys and commands, save FILE, quit, or an action as JSON"
HELP_COMMANDS = (
    "Commands: ? shows the table and the choices again; help shows this; save FILE saves the game there (save alone: to the --save file); quit stops.",
    'An action as JSON, e.g. {"kind": "draw", "player": 0, "source": "deck"}, is checked and taken if the rules allow it; if not, every reason is printed and nothing changes.',
)
_ECHO = 40  # how much of a bad input line an error message repeats
_KEY_SHAPE = re.compile(r"[+-]?[0-9]+|[A-Za-z][0-9]*")  # what a mistyped key looks like


def add_parser(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``play`` subcommand to ``stationmaster``'s subparsers."""
    play = subparsers.add_parser(
        "play",
        help=PLAY_HELP,
        description=(
            "Play in the terminal. Station Master (the default game), at the prompt: " + PROMPT_HELP + ". " + KEYS_HELP + " "
            "In either game --bots N gives the last N seats to bots; the people share the terminal, handing it over in turn. "
            "Trick of the Rails (--game trickoftherails): at the prompt type a number, a card's name, ?, help, save FILE or quit."
        ),
    )
    play.add_argument("--seed", type=int, default=None, metavar="N", help="the seed that shuffles the cards (default 0); the same seed and inputs always play the same game")
    play.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="how many play: Station Master's districts (default 1: solitaire), Trick of the Rails' seats, 3 to 5 (default 3); the people among them share the terminal",
    )
    play.add_argument("--bots", type=int, default=None, metavar="N", help="bots take the last N seats (default 0: every seat is a person; N equal to --players: the game plays itself)")
    play.add_argument(
        "--bot", default=None, metavar="NAME", help=f"which bot plays the --bots seats (default: {DEFAULT_BOT}); Station Master's: {', '.join(BOTS)}; an unknown name is refused with the game's list"
    )
    play.add_argument(
        "--house-rule",
        dest="house_rules",
        action="extend",
        nargs="+",
        default=None,
        metavar="KEY=VALUE",
        help="a house rule, e.g. startingOffice=whistle-post or discardTimetabled=true (repeatable)",
    )
    play.add_argument("--load", metavar="FILE", help="resume the game saved in FILE (its seed, players and house rules come from the save)")
    play.add_argument("--save", metavar="FILE", help="save the game to FILE after every action (atomically; an existing FILE must be a save of the same game)")
    add_game_option(play)


def run(args: argparse.Namespace, *, stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Play until the game ends, the player quits or stdin ends; the exit code."""
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    game_id = getattr(args, "game", None) or DEFAULT_GAME
    if game_id not in _TERMINAL_GAMES:
        print(f"{PROG}: game '{game_id}' cannot be played in the terminal yet (games that can: {', '.join(sorted(_TERMINAL_GAMES))})", file=err)
        return 2
    if game_id == "trickoftherails":
        from command import play_trickoftherails

        return play_trickoftherails.run(args, inp, out, err)
    return play_at_terminal(args, inp, out, err, game_id, SAVES, _start, BOTS, DEFAULT_BOT, Session)


def play_at_terminal(
    args: argparse.Namespace,
    inp: TextIO,
    out: TextIO,
    err: TextIO,
    game_id: str,
    kind: SaveKind,
    start: Callable[[Any, argparse.Namespace], tuple[Any, str | None]],
    bots: Sequence[str],
    default_bot: str,
    terminal: Callable[[Any, TextIO, Path | None, list[str]], Any],
) -> int:
    """For any game: load its content, start or resume the game (``start``),
    seat the bots, and play it at this terminal (``terminal`` makes the
    game's session); the exit code. Every failure before play is one line
    on ``err``: 1 for content that does not load, 2 for unusable arguments."""
    try:
        catalog = load_catalog(game_id, Path(getattr(args, "content", None) or default_content(game_id)))
    except ContentError as exc:
        print(f"{PROG}: the content does not load: {_one_line(str(exc))} (run 'stationmaster validate' for every problem)", file=err)
        return 1
    except UsageError as exc:
        print(f"{PROG}: {_one_line(str(exc))}", file=err)
        return 2
    try:
        game, resumed = start(catalog, args)
        seated = seats(args, game.state.players, kind.title, bots, default_bot)
        save_path = save_target(getattr(args, "save", None), kind)
    except UsageError as exc:
        print(f"{PROG}: {_one_line(str(exc))}", file=err)
        return 2
    session = terminal(game, out, save_path, seated)
    if resumed is not None:
        session.say(f"Resumed {resumed}: {_count(len(game.history), 'action')} replayed.")
    code: int = session.loop(inp)
    return code


# -- setting up --------------------------------------------------------------------


# The games with a terminal session: Station Master's below, Trick of the
# Rails' in command.play_trickoftherails; a pack joins this set once it has a
# text view of its own.
_TERMINAL_GAMES = frozenset({"stationmaster", "trickoftherails"})


@dataclass(frozen=True)
class SaveKind:
    """One game's saves, as the commands that resume and write them see
    them: the game's title (for messages), the format its saves declare, and
    how a save's text becomes a game (raising InvalidActionError if it cannot)."""

    title: str
    format: str
    loads: Callable[[Any, str], Any]


SAVES = SaveKind("Station Master", SAVE_FORMAT, Game.loads)


def load_catalog(game_id: str, content: Path) -> Any:
    """The pack's catalog from ``content``, or UsageError for a folder that
    is missing or unreadable (ContentError for content with problems)."""
    from engine.packs import pack_rules

    try:
        files.check_folder(content)
    except files.Unreadable as exc:
        if exc.missing:
            raise UsageError(f"{files.shown(content)}: no such content directory (run this in a Station Master checkout, or give --content DIR)") from None
        raise UsageError(str(exc)) from None
    try:
        return pack_rules(game_id).load_catalog(content)
    except OSError as exc:
        raise UsageError(f"cannot read the content in {files.shown(content)}: {exc.strerror or exc}") from None


def _start(catalog: Catalog, args: argparse.Namespace) -> tuple[Game, str | None]:
    """The game to play, new or resumed, and the save it was resumed from."""

    def new(players: int | None, seed: int, chosen: dict[str, HouseRuleValue]) -> Game:
        resolve(catalog, chosen)
        return Game(catalog, players=1 if players is None else players, seed=seed, house_rules=chosen)

    found: tuple[Game, str | None] = start_from_args(args, lambda path: resume(catalog, path, SAVES), lambda text: parse_assignment(catalog, text), new)
    return found


def start_from_args(
    args: argparse.Namespace,
    resumed: Callable[[Path], Any],
    parse: Callable[[str], tuple[str, Any]],
    new: Callable[[int | None, int, dict[str, Any]], Any],
) -> tuple[Any, str | None]:
    """For any game: the game ``--load`` names (refusing a seed, player count
    or house rule beside it), or a new one from ``--seed``, ``--players`` and
    ``--house-rule``; a house rule or set-up the game refuses is a one-line
    UsageError. Returns the game and the save it came from."""
    seed = getattr(args, "seed", None)
    players = getattr(args, "players", None)
    assignments: list[str] = list(getattr(args, "house_rules", None) or [])
    load = getattr(args, "load", None)
    if load is not None:
        given = [flag for flag, value in (("--seed", seed), ("--players", players), ("--house-rule", assignments or None)) if value is not None]
        if given:
            raise UsageError(f"--load resumes a game with the seed, players and house rules it was saved with; do not give {' or '.join(given)} with it")
        return resumed(Path(load)), load
    chosen: dict[str, Any] = {}
    try:
        for text in assignments:
            key, value = parse(text)
            chosen[key] = value
        return new(players, 0 if seed is None else seed, chosen), None
    except InvalidActionError as exc:
        raise UsageError(_one_line(str(exc))) from None


def resume(catalog: Any, path: Path, kind: SaveKind) -> Any:
    """The game saved in ``path``, replayed; UsageError saying why it cannot be."""
    text = saves.read_text(path, kind.title)
    shown = files.shown(path)
    try:
        return kind.loads(catalog, text)
    except InvalidActionError as exc:
        raise UsageError(f"{shown}: cannot resume: {_one_line(str(exc))}{_other_game(text, kind)}") from None
    except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        # Game.loads lets a few odd inputs through as other errors (an integer
        # too long to convert, say); each still means the save is unusable.
        raise UsageError(f"{shown}: cannot resume: the save is damaged ({type(exc).__name__}: {_one_line(str(exc))})") from None


def _other_game(text: str, kind: SaveKind) -> str:
    """A hint when the save is another pack's (its format names the pack)."""
    from engine.packs import known_pack_ids

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return ""
    found = data.get("format") if isinstance(data, dict) else None
    if not isinstance(found, str) or found == kind.format:
        return ""
    pack = found.partition("-save/")[0]
    return f" (it is a {pack} save: play it with --game {pack})" if pack in known_pack_ids() else ""


def _is_save(text: str, kind: SaveKind) -> bool:
    """Whether ``text`` holds (at least the envelope of) one of ``kind``'s saves."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("format") == kind.format


def _check_writable(path: Path, kind: SaveKind) -> None:
    """UsageError unless a save may be written at ``path``: its directory
    exists, and whatever already stands there is a save of the same game
    (a FIFO, a device or a folder never is)."""
    saves.check_target(path, lambda text: _is_save(text, kind), kind.title)


def save_target(save: str | None, kind: SaveKind) -> Path | None:
    """The ``--save`` file, checked up front (UsageError if it cannot be written)."""
    if save is None:
        return None
    path = Path(save)
    try:
        _check_writable(path, kind)
    except UsageError as exc:
        raise UsageError(f"--save {files.shown(path)}: cannot save there: {exc}") from None
    return path


def write_save(game: Any, path: Path, kind: SaveKind = SAVES) -> None:
    """Write ``game``'s save (its ``dumps()``) to ``path`` atomically
    (``engine.saves.write_text``). OSError (or UsageError, for a target that
    must not be overwritten) on failure; the target is then untouched."""
    _check_writable(path, kind)
    saves.write_text(path, game.dumps() + "\n")


# -- who sits at the table ---------------------------------------------------------


# Clears the screen and the terminal's scrollback, cursor at the top (ANSI,
# xterm's 3J for the scrollback): between two people's turns nothing of the
# last one's screen stays visible, nor can be scrolled back to.
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


def seats(args: argparse.Namespace, players: int, title: str, bots: Sequence[str], default: str) -> list[str]:
    """Each seat's bot, "" for a person, from ``--bots`` and ``--bot``: the
    last ``--bots`` seats are bots (``default`` unless ``--bot`` names one of
    the game's ``bots``). UsageError for a count or name the game cannot seat."""
    given, bot = getattr(args, "bots", None), getattr(args, "bot", None)
    count = 0 if given is None else given
    if not 0 <= count <= players:
        raise UsageError(f"--bots {count}: a {players}-player game has {players} seats, so from 0 to {players} of them can be bots")
    name = default if bot is None else bot
    if name not in bots:
        raise UsageError(f"--bot {name}: {title} has no such bot (its bots: {', '.join(bots)})")
    if bot is not None and count == 0:
        raise UsageError(f"--bot {name} names the bot for the --bots seats; give --bots N too")
    return ["" if seat < players - count else name for seat in range(players)]


def people_words(seated: Sequence[str]) -> str:
    """Who sits where, for the opening line: "player 0 (a person), player 1 (greedy bot)"."""
    return ", ".join(f"player {seat} ({bot} bot)" if bot else f"player {seat} (a person)" for seat, bot in enumerate(seated))


# -- the interactive loop -----------------------------------------------------------


class Terminal:
    """What every terminal game does alike: print, read a line (an
    undecodable line is reported and skipped; ten in a row end the input),
    and save the game, on request or after every action (--save)."""

    def __init__(self, game: Any, out: TextIO, save_path: Path | None, kind: SaveKind) -> None:
        self.game = game
        self.out = out
        self.save_path = save_path
        self.kind = kind
        self._failures = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def error(self, text: str) -> None:
        self.say(f"error: {_one_line(text)}")

    def read_line(self, inp: TextIO, prompt: str) -> str | None:
        """The next line typed after ``prompt``, stripped; None at the end of input."""
        while True:
            self.out.write(prompt)
            self.out.flush()
            try:
                line = inp.readline()
            except UnicodeDecodeError as exc:
                self.error(f"the input is not valid text ({exc.reason}); the line was skipped")
                self._failures += 1
                if self._failures < 10:
                    continue
                return None  # nothing readable is coming: stop as at the end of input
            self._failures = 0
            return line.strip() if line else None

    def autosave(self, path: Path) -> bool:
        try:
            write_save(self.game, path, self.kind)
        except (OSError, UsageError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.error(f"could not save to {files.shown(path)}: {reason} (the game goes on unsaved)")
            return False
        return True

    def save_command(self, name: str) -> None:
        if not name:
            if self.save_path is None:
                self.error("save needs a file name: save FILE")
                return
            path = self.save_path
        else:
            path = Path(name).expanduser()
        try:
            write_save(self.game, path, self.kind)
        except (OSError, UsageError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.error(f"could not save to {files.shown(path)}: {reason}")
            return
        self.say(f"saved to {path} ({_count(len(self.game.history), 'action')})")

    def hand_over(self, inp: TextIO, person: int, heading: Sequence[str]) -> bool:
        """Clear the screen, say who sits where (``heading``), and wait until
        ``person`` has the terminal; False when the session ends there."""
        self.out.write(CLEAR)
        for line in heading:
            self.say(line)
        self.say()
        self.say(f"Pass the terminal to player {person}.")
        self.say("(The screen was cleared so that nobody sees another player's hand.)")
        ready = self.read_line(inp, f"player {person}, press Enter when only you can see the screen> ")
        if ready is None or ready.lower() in ("quit", "exit"):
            self.say(self.leave("end of input" if ready is None else "quit"))
            return False
        return True

    def leave(self, why: str) -> str:
        if self.save_path is None:
            return f"{why}: stopping; the game was not saved (use --save FILE or 'save FILE' to keep it)"
        if self.autosave(self.save_path):
            return f"{why}: stopping; the game is saved in {self.save_path} (resume with --load {self.save_path})"
        return f"{why}: stopping"


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
        super().__init__(game, out, save_path, SAVES)
        self.seats = list(seated) if seated is not None else [""] * game.state.players
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
        self.say(render_state(self.game, self.offered))
        if not self.game.is_over():
            self.say(render_actions(self.game, self.offered))
            self.say(f"({PROMPT_HELP})")

    def prompt(self) -> str:
        return f"player {self.game.to_act}, choose {key_summary(self.offered)}> "

    def loop(self, inp: TextIO) -> int:
        if any(self.seats):
            for opening in textwrap.wrap(f"Station Master, {_count(len(self.seats), 'player')}, seed {self.game.seed}: {people_words(self.seats)}.", 80):
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
            self.say(render_state(self.game))
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
            self.say("\n".join(textwrap.fill(paragraph, 80) for paragraph in (keys_help(self.game), *HELP_COMMANDS)))
        elif command == "save":
            self.save_command(rest.strip())
        elif line.startswith("{") or line.startswith("["):
            self._json_action(line)
        elif line.lower() in self.offered:
            self._take(self.offered[line.lower()])
        elif _KEY_SHAPE.fullmatch(line):
            self._not_offered(line)
        else:
            self.error(f"not understood: {line[:_ECHO]!r}; {PROMPT_HELP}")
        return True

    def _not_offered(self, key: str) -> None:
        """A key that is no choice now: what it would do and why the rules refuse it, if it names anything."""
        named = self.keys.named(self.game, key) if len(key) <= 9 else None
        reasons = self.game.check(named) if named is not None else []
        if named is None or not reasons:
            self.error(f"there is no choice {key[:_ECHO]} now: choose {key_summary(self.offered)}")
            return
        why = "; ".join(_one_line(r) for r in reasons)
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
            self.say(f"refused: {describe_action(self.game, action)} ({_count(len(reasons), 'reason')}):")
            for reason in reasons:
                self.say(f"  - {_one_line(reason)}")
            return
        self._take(action)

    def _take(self, action: Action) -> bool:
        """Apply ``action`` and tell it; False if it was not taken."""
        game = self.game
        before = len(game.state.log)
        said = describe_action(game, action)  # before: it names the piles as they are now
        hand = list(game.state.hands[action.player]) if 0 <= action.player < len(game.state.hands) else []
        try:
            game.apply(action)
        except IllegalActionError as exc:  # pragma: no cover - legal_actions() and check() agree
            self.say(f"refused: {describe_action(game, action)}")
            for reason in exc.reasons:
                self.say(f"  - {_one_line(reason)}")
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
        lines = [Told(player, f"> {said}")]
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


# -- odds and ends --------------------------------------------------------------


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def main(argv: list[str] | None = None) -> int:
    """Run ``play`` on its own (``python -m command.play``), until the CLI wires it."""

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            self.print_usage(sys.stderr)
            print(f"{self.prog}: error: {message}", file=sys.stderr)
            raise SystemExit(2)

    parser = _Parser(prog="stationmaster")
    add_parser(parser.add_subparsers(dest="command", required=True, parser_class=_Parser))
    args = parser.parse_args(["play", *(sys.argv[1:] if argv is None else argv)])
    try:
        return run(args)
    except KeyboardInterrupt:
        print(file=sys.stdout)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
