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
atomically through ``engine.saves``, and a file that is not a save of the
same game is never overwritten.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO, cast

from command.commands import PLAY_HELP
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
    play.add_argument("--seed", type=int, default=None, metavar="N", help="the seed that shuffles the cards (default 0); the same seed and inputs always play the same game")
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
    play.add_argument("--load", metavar="FILE", help="resume the game saved in FILE (its seed, players and house rules come from the save)")
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
    seat the bots, and play it at this terminal (``terminal`` makes the
    game's session); the exit code. Every failure before play is one line
    on ``err``: 1 for content that does not load, 2 for unusable arguments."""
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
        seated = seats(args, game.state.players, kind.title, bots, default_bot)
        save_path = save_target(getattr(args, "save", None), kind)
    except UsageError as exc:
        print(f"{PROG}: {one_line(str(exc))}", file=err)
        return 2
    session = terminal(game, out, save_path, seated)
    if resumed is not None:
        session.say(f"Resumed {resumed}: {counted(len(game.history), 'action')} replayed.")
    code: int = session.loop(inp)
    return code


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
    try:
        return kind.loads(catalog, text)
    except InvalidActionError as exc:
        raise UsageError(f"{shown}: cannot resume: {one_line(str(exc))}{_other_game(text, kind)}") from None
    except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        # Game.loads lets a few odd inputs through as other errors (an integer
        # too long to convert, say); each still means the save is unusable.
        raise UsageError(f"{shown}: cannot resume: the save is damaged ({type(exc).__name__}: {one_line(str(exc))})") from None


def _other_game(text: str, kind: SaveKind) -> str:
    """A hint when the save is another pack's (its format names the pack)."""
    from engine.packs import known_pack_ids

    try:
        data = jsonfile.loads(text, max_digits=saves.SAVE_DIGITS)
    except jsonfile.JsonRefused:
        return ""
    found = data.get("format") if isinstance(data, dict) else None
    if not isinstance(found, str) or found == kind.format:
        return ""
    pack = found.partition("-save/")[0]
    return f" (it is a {pack} save: play it with --game {pack})" if pack in known_pack_ids() else ""


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


def write_save(game: Any, path: Path, kind: SaveKind) -> None:
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
        # Where ``save FILE`` last saved the game, and how many actions it held.
        self.saved: tuple[Path, int] | None = None

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def error(self, text: str) -> None:
        self.say(f"error: {one_line(text)}")

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


# -- odds and ends --------------------------------------------------------------


def one_line(text: str) -> str:
    return " ".join(text.split())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m command.play ARGS``: the command alone (``play`` is implied)."""
    from command.cli import run_alone

    return run_alone("play", add_parser, run, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
