"""``stationmaster play``: a game at the terminal (solitaire by default), people and bots at one table.

``--game`` picks the pack (``stationmaster`` unless given) and with it the
default content folder, ``content/<game>``. This module holds what every
terminal game shares (loading the content, resuming and writing saves, who
sits where, handing the terminal over); each pack's own session, keys and
words live in ``command/<id>/session.py``, found by the pack's id. A pack
with no session of its own is refused in one line.

Each pack's own keys, prompts and words are described in its session's
docstring (``command.stationmaster.session`` for Station Master). Exit
codes follow ``command.cli``: 0 finished or stopped, 1 the content does not
load (or a bot failed), 2 the command was unusable. Saves are written
atomically through ``engine.saves``, with the table (who sits where, which
bot in which seat) that ``--load`` seats again, and a file that is not a
save of the same game is never overwritten. Ctrl-C and SIGTERM say where
the game is kept and the command that resumes it: the ``--save`` file, or
else a recovery file under ``$XDG_STATE_HOME/stationmaster/`` that the next
new game of that pack offers.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO, cast

from command.commands import PLAY_HELP
from command.fit import screen_size, wrap_lines
from command.games import DEFAULT_GAME, add_game_option, check_one_pack, default_content
from command.words import counted
from engine import jsonfile, saves
from engine.content import files
from engine.errors import ContentError, InvalidActionError, UsageError

PROG = "stationmaster play"
ECHO = 40  # how much of a bad input line an error message repeats


def add_parser(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``play`` subcommand to ``stationmaster``'s subparsers."""
    default = session_of(DEFAULT_GAME)
    play = subparsers.add_parser(
        "play",
        help=PLAY_HELP,
        description=" ".join(
            [
                "Play in the terminal.",
                default.DESCRIPTION,
                "In every game --bots N gives the last N seats to bots; the people share the terminal, handing it over in turn.",
                *(session_of(game_id).DESCRIPTION for game_id in terminal_games() if game_id != DEFAULT_GAME),
            ]
        ),
    )
    play.add_argument(
        "--seed", type=seed_number, default=None, metavar="N", help="the seed that shuffles the cards, a whole number from 0 up (default 0); the same seed and inputs always play the same game"
    )
    play.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="how many play: " + "; ".join(session_of(game_id).PLAYERS_HELP for game_id in terminal_games()) + "; the people among them share the terminal",
    )
    play.add_argument("--bots", type=int, default=None, metavar="N", help="bots take the last N seats (default 0: every seat is a person; N equal to --players: the game plays itself)")
    play.add_argument(
        "--bot",
        default=None,
        metavar="NAME",
        help=f"which bot plays the --bots seats (default: {default.DEFAULT_BOT}); {default.TITLE}'s: {', '.join(default.BOTS)}; an unknown name is refused with the game's list",
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
    play.add_argument(
        "--load", metavar="FILE", help="resume the game saved in FILE (its seed, players, house rules and who sat where come from the save; --bots and --bot given again change who sits where)"
    )
    play.add_argument("--save", metavar="FILE", help="save the game to FILE after every action (atomically; an existing FILE must be a save of the same game)")
    add_game_option(play)


def run(args: argparse.Namespace, *, stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Play until the game ends, the player quits or stdin ends; the exit code."""
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    game_id = getattr(args, "game", None) or DEFAULT_GAME
    playable = terminal_games()
    if game_id not in playable:
        print(f"{PROG}: game '{game_id}' cannot be played in the terminal yet (games that can: {', '.join(sorted(playable))})", file=err)
        return 2
    try:
        return session_of(game_id).run(args, inp, out, err)
    except Told:
        raise
    except KeyboardInterrupt:
        print(file=out)  # the shell's prompt, or the line saying why, starts a line of its own
        raise


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
    seat the bots (as the save says, unless ``--bots``/``--bot`` say again),
    and play it at this terminal (``terminal`` makes the game's session);
    the exit code. Every failure before play is one line on ``err``: 1 for
    content that does not load, 2 for unusable arguments. Ctrl-C or SIGTERM
    during play is told (where the game is kept, the command that resumes
    it) and raised again, for ``command.cli`` to end with 130 or 143."""
    try:
        catalog = load_catalog(game_id, Path(getattr(args, "content", None) or default_content(game_id)))
    except ContentError as exc:
        print(f"{PROG}: the content does not load: {one_line(str(exc))} (run 'stationmaster validate' for every problem)", file=err)
        return 1
    except UsageError as exc:
        print(f"{PROG}: {one_line(str(exc))}", file=err)
        return 2
    try:
        game, resumed = start(catalog, args)
        saved = saved_seats(Path(resumed), kind, game.state.players) if resumed is not None else None
        seated, changed = seats_for(args, game.state.players, kind.title, bots, default_bot, saved, resumed is not None)
        save_path = save_target(getattr(args, "save", None), kind)
    except UsageError as exc:
        print(f"{PROG}: {one_line(str(exc))}", file=err)
        return 2
    session = terminal(game, out, save_path, seated)
    recovery = recovery_file(game_id)
    if resumed is not None:
        session.say(f"Resumed {resumed}: {counted(len(game.history), 'action')} replayed.")
        if changed:
            session.say(changed)
    else:
        offer = recovery_offer(recovery, kind, lambda path: resume_command(args, game_id, path, None))
        if offer:
            session.say(offer)
    try:
        code: int = session.loop(inp)
    except KeyboardInterrupt:
        session.say()  # the prompt's line, where the ^C was typed, ends first
        session.say(session.interrupted(recovery, lambda path: resume_command(args, game_id, path, save_path)))
        raise Told() from None
    if resumed is not None and recovery is not None and session.game.is_over() and _same_file(Path(resumed), recovery):
        recovery.unlink(missing_ok=True)  # the interrupted game is played out: nothing left to offer
    return code


class Told(KeyboardInterrupt):
    """Ctrl-C or SIGTERM, after the session said where the game is kept."""


def seed_number(text: str) -> int:
    """An argparse type: a seed, any whole number from 0 up."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 up, not {text[:ECHO]!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 up, not {value}")
    return value


# -- interrupted games ---------------------------------------------------------------


def recovery_file(game_id: str) -> Path | None:
    """Where a game of ``game_id`` stopped by Ctrl-C or SIGTERM without
    ``--save`` is kept: ``$XDG_STATE_HOME/stationmaster/recover-<game>.json``
    (``~/.local/state`` when XDG_STATE_HOME is unset or not absolute, as the
    XDG base directory rules say); None when no home is known."""
    state = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(state):
        try:
            state = str(Path.home() / ".local" / "state")
        except (RuntimeError, KeyError):
            return None
    return Path(state) / "stationmaster" / f"recover-{game_id}.json"


def resume_command(args: argparse.Namespace, game_id: str, path: Path, save: Path | None) -> str:
    """The command line that resumes the game kept at ``path`` (and goes on
    saving to ``save``), with the same game and content as this one."""
    words = ["stationmaster", "play"]
    if game_id != DEFAULT_GAME:
        words += ["--game", game_id]
    content = getattr(args, "content", None)
    if content is not None:
        words += ["--content", str(content)]
    words += ["--load", str(path)]
    if save is not None:
        words += ["--save", str(save)]
    return shlex.join(words)


def recovery_offer(path: Path | None, kind: SaveKind, command: Callable[[Path], str]) -> str | None:
    """A line offering the game an interruption kept at ``path``, if one is
    kept there (a save of this game), else None."""
    if path is None:
        return None
    try:
        text = saves.read_text(path, kind.title)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    except (UsageError, OSError):
        return None
    data = _save_data(text)
    actions = data.get("actions")
    if data.get("format") != kind.format or not isinstance(actions, list):
        return None
    return f"A game was interrupted on {when}, {counted(len(actions), 'action')} in; resume it with: {command(path)}"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False


# -- setting up --------------------------------------------------------------------


class TerminalGame(Protocol):
    """What ``play`` reads of a pack's ``command/<id>/session.py``: the words
    its help shows, its bots, and ``run``, which plays a game at this terminal."""

    TITLE: str
    DESCRIPTION: str
    PLAYERS_HELP: str
    DEFAULT_BOT: str
    BOTS: Sequence[str]

    def run(self, args: argparse.Namespace, inp: TextIO, out: TextIO, err: TextIO) -> int: ...


def session_of(game_id: str) -> TerminalGame:
    """The terminal session module of the pack ``game_id``: ``command/<id>/session.py``."""
    return cast(TerminalGame, importlib.import_module(f"command.{game_id}.session"))


def terminal_games() -> list[str]:
    """The packs that can be played in a terminal: those with a ``command/<id>/session.py``."""
    from engine.packs import known_pack_ids

    return [game_id for game_id in known_pack_ids() if _has_session(game_id)]


def _has_session(game_id: str) -> bool:
    # Looking for command.<id>.session imports command.<id> first: a pack
    # with no command/<id>/ folder at all has no session either, and must
    # not stop ``play`` from telling which games it can play.
    try:
        return importlib.util.find_spec(f"command.{game_id}.session") is not None
    except ModuleNotFoundError as exc:
        if exc.name != f"command.{game_id}":
            raise
        return False


@dataclass(frozen=True)
class SaveKind:
    """One game's saves, as the commands that resume and write them see
    them: the game's title (for messages), the format its saves declare, and
    how a save's text becomes a game (raising InvalidActionError if it cannot)."""

    title: str
    format: str
    loads: Callable[[Any, str], Any]


def load_catalog(game_id: str, content: Path) -> Any:
    """The pack's catalog from ``content``, or UsageError for a folder that
    is missing or unreadable (ContentError for content with problems)."""
    from engine.packs import pack_rules

    try:
        files.check_folder(content)
    except files.Unreadable as exc:
        if exc.missing:
            raise UsageError(f"{files.shown(content)}: no such content directory (run this at the top of the kit's checkout, or give --content DIR)") from None
        raise UsageError(str(exc)) from None
    check_one_pack(content, game_id)
    try:
        return pack_rules(game_id).load_catalog(content)
    except OSError as exc:
        raise UsageError(f"cannot read the content in {files.shown(content)}: {exc.strerror or exc}") from None


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
        raise UsageError(one_line(str(exc))) from None


def resume(catalog: Any, path: Path, kind: SaveKind) -> Any:
    """The game saved in ``path``, replayed; UsageError saying why it cannot be."""
    text = saves.read_text(path, kind.title)
    shown = files.shown(path)
    other = _other_game(text, kind)
    if other is not None:
        pack, title = other
        raise UsageError(f"{shown}: cannot resume: it is a {title} save, not a {kind.title} one (play it with --game {pack})")
    try:
        return kind.loads(catalog, text)
    except InvalidActionError as exc:
        raise UsageError(f"{shown}: cannot resume: {one_line(str(exc))}") from None
    except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        # Game.loads lets a few odd inputs through as other errors (an integer
        # too long to convert, say); each still means the save is unusable.
        raise UsageError(f"{shown}: cannot resume: the save is damaged ({type(exc).__name__}: {one_line(str(exc))})") from None


def _other_game(text: str, kind: SaveKind) -> tuple[str, str] | None:
    """The id and title of the pack whose save ``text`` is, when that is
    another pack that can be played here (its format names the pack)."""
    found = _save_data(text).get("format")
    if not isinstance(found, str) or found == kind.format:
        return None
    pack, marked, _ = found.partition("-save/")
    if not marked or pack == kind.format.partition("-save/")[0] or pack not in terminal_games():
        return None
    return pack, session_of(pack).TITLE


def _save_data(text: str) -> dict[str, Any]:
    """The save's JSON object, or an empty one when it holds none."""
    try:
        data = jsonfile.loads(text, max_digits=saves.SAVE_DIGITS)
    except jsonfile.JsonRefused:
        return {}
    return data if isinstance(data, dict) else {}


def _is_save(text: str, kind: SaveKind) -> bool:
    """Whether ``text`` holds (at least the envelope of) one of ``kind``'s saves."""
    try:
        data = jsonfile.loads(text, max_digits=saves.SAVE_DIGITS)
    except jsonfile.JsonRefused:
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


def write_save(game: Any, path: Path, kind: SaveKind, seated: Sequence[str] | None = None) -> None:
    """Write ``game``'s save to ``path`` atomically (``engine.saves.write_text``),
    with the table it is played at (``seated``: each seat's bot, "" for a
    person) when given. OSError (or UsageError, for a target that must not
    be overwritten) on failure; the target is then untouched."""
    _check_writable(path, kind)
    saves.write_text(path, (game.dumps() if seated is None else saves.with_table(game.save(), seated)) + "\n")


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
    _check_seats(count, bot, players, title, bots)
    if bot is not None and count == 0:
        raise UsageError(f"--bot {bot} names the bot for the --bots seats; give --bots N too")
    name = default if bot is None else bot
    return ["" if seat < players - count else name for seat in range(players)]


def _check_seats(count: int, bot: str | None, players: int, title: str, bots: Sequence[str]) -> None:
    if not 0 <= count <= players:
        raise UsageError(f"--bots {count}: a {players}-player game has {counted(players, 'seat')}, so from 0 to {players} of them can be bots")
    if bot is not None and bot not in bots:
        raise UsageError(f"--bot {bot}: {title} has no such bot (its bots: {', '.join(bots)})")


def seats_for(args: argparse.Namespace, players: int, title: str, bots: Sequence[str], default: str, saved: list[str] | None, loaded: bool) -> tuple[list[str], str | None]:
    """Who sits where, and a line saying how that differs from the save's
    table (None when it does not). A new game is seated by ``--bots`` and
    ``--bot`` (``seats``); a resumed one as its save recorded, unless they
    are given again: ``--bots N`` seats bots in the last N seats (the saved
    bot where one sat, else ``--bot`` or the default), ``--bot NAME`` alone
    puts NAME in every seat a bot held. A save made before saves held the
    table is seated as a new game is, and the line says so."""
    if not loaded:
        return seats(args, players, title, bots, default), None
    given: int | None = getattr(args, "bots", None)
    bot: str | None = getattr(args, "bot", None)
    if saved is None:
        seated = seats(args, players, title, bots, default)
        return seated, f"The save does not record who sat where (it was made before saves did): seated {people_words(seated)}."
    if given is None and bot is None:
        return _known_bots(saved, title, bots), None
    _check_seats(0 if given is None else given, bot, players, title, bots)
    if given is None:
        if not any(saved):
            raise UsageError(f"--bot {bot}: nobody in the saved game is a bot; give --bots N too")
        seated = [bot or "" if was else "" for was in saved]
    else:
        kept = [name for name in saved if name]
        fallback = bot or (kept[0] if kept and len(set(kept)) == 1 else default)
        seated = _known_bots(["" if seat < players - given else bot or saved[seat] or fallback for seat in range(players)], title, bots)
    if seated == saved:
        return seated, None
    flags = " and ".join(flag for flag, value in (("--bots", given), ("--bot", bot)) if value is not None)
    return seated, f"{flags} changed the saved table: it was {people_words(saved)}; now {people_words(seated)}."


def saved_seats(path: Path, kind: SaveKind, players: int) -> list[str] | None:
    """The table ``path``'s save recorded (each seat's bot, "" for a person),
    None when it recorded none; UsageError when what it recorded is not a
    table of this game."""
    table = _save_data(saves.read_text(path, kind.title)).get(saves.TABLE)
    if table is None:
        return None
    shown = files.shown(path)
    if not isinstance(table, list) or len(table) != players or not all(seat is None or isinstance(seat, str) for seat in table):
        raise UsageError(f"{shown}: cannot resume: the save's table is damaged (it must list, for each of the {counted(players, 'seat')}, null for a person or a bot's name)")
    return [name or "" for name in table]


def _known_bots(seated: list[str], title: str, bots: Sequence[str]) -> list[str]:
    """``seated`` from a save, or UsageError for a bot this game does not have."""
    for name in seated:
        if name and name not in bots:
            raise UsageError(f"the save seats a bot named {name[:ECHO]!r}, which {title} does not have (its bots: {', '.join(bots)}); give --bots N (and --bot NAME) to seat others")
    return seated


def lone_words(player: int) -> str:
    """What a lone choice taken for a person is told with, in every game."""
    return f"(the only choice player {player} had, taken without asking)"


def people_words(seated: Sequence[str]) -> str:
    """Who sits where, for the opening line: "player 0 (a person), player 1 (greedy bot)"."""
    return ", ".join(f"player {seat} ({bot} bot)" if bot else f"player {seat} (a person)" for seat, bot in enumerate(seated))


# -- the interactive loop -----------------------------------------------------------


class Terminal:
    """What every terminal game does alike: print, read a line (an
    undecodable line is reported and skipped; ten in a row end the input),
    save the game with its table (``seats``: each seat's bot, "" for a
    person), on request or after every action (--save), and say where an
    interrupted game is kept."""

    def __init__(self, game: Any, out: TextIO, save_path: Path | None, kind: SaveKind, seats: Sequence[str]) -> None:
        self.game = game
        self.out = out
        self.save_path = save_path
        self.kind = kind
        self.seats = list(seats)
        self._failures = 0
        # Where ``save FILE`` last saved the game, and how many actions it held.
        self.saved: tuple[Path, int] | None = None

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def error(self, text: str) -> None:
        """A refusal on one line, wrapped between words on a terminal (a
        terminal would otherwise break it mid-word at its edge)."""
        size = screen_size(self.out)
        self.say("\n".join(wrap_lines([f"error: {one_line(text)}"], size[0] if size else None)))

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

    def write(self, path: Path) -> None:
        """Write the save, with the table, to ``path`` (see ``write_save``)."""
        write_save(self.game, path, self.kind, self.seats)

    def autosave(self, path: Path) -> bool:
        try:
            self.write(path)
        except (OSError, UsageError) as exc:
            self.error(f"could not save to {files.shown(path)}: {_reason(exc)} (the game goes on unsaved)")
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
            self.write(path)
        except (OSError, UsageError) as exc:
            self.error(f"could not save to {files.shown(path)}: {_reason(exc)}")
            return
        self.saved = (path, len(self.game.history))
        self.say(f"saved to {path} ({counted(len(self.game.history), 'action')})")

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
        if self.save_path is None and self.saved is not None:
            path, held = self.saved
            since = len(self.game.history) - held
            if since == 0:
                return f"{why}: stopping; the game is saved in {path} (resume with --load {path})"
            return f"{why}: stopping; {path} holds the game as it was {counted(since, 'action')} ago (those since are not saved; resume with --load {path})"
        if self.save_path is None:
            return f"{why}: stopping; the game was not saved (use --save FILE or 'save FILE' to keep it)"
        if self.autosave(self.save_path):
            return f"{why}: stopping; the game is saved in {self.save_path} (resume with --load {self.save_path})"
        return f"{why}: stopping"

    def interrupted(self, recovery: Path | None, command: Callable[[Path], str]) -> str:
        """After Ctrl-C or SIGTERM: keep the game (the --save file, or else
        the recovery file) and say, in one line, where and how to resume it
        (``command`` makes the command line for a file)."""
        game = self.game
        if game.is_over():
            return "interrupted: the game had ended"
        if self.save_path is not None and self.autosave(self.save_path):
            return f"interrupted: the game is saved in {self.save_path}; resume it with: {command(self.save_path)}"
        if self.saved is not None and self.saved[1] == len(game.history):
            return f"interrupted: the game is saved in {self.saved[0]}; resume it with: {command(self.saved[0])}"
        if recovery is None:
            return "interrupted: the game was not saved, and with no home folder known it could not be kept (use --save FILE)"
        try:
            recovery.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            saves.write_text(recovery, saves.with_table(game.save(), self.seats) + "\n")
        except OSError as exc:
            return f"interrupted: the game was not saved, and could not be kept in {recovery}: {_reason(exc)}"
        return f"interrupted: the game was not saved with --save, so it was kept in {recovery}; resume it with: {command(recovery)}"


def _reason(exc: OSError | UsageError) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


# -- odds and ends --------------------------------------------------------------


def one_line(text: str) -> str:
    return " ".join(text.split())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m command.play ARGS``: the command alone (``play`` is implied)."""
    from command.cli import run_alone

    return run_alone("play", add_parser, run, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
