"""The keys a player types to choose an action: letters for the turn's own
steps, numbers that keep their action for the rest of the turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from command.stationmaster.screen.names import a_or_an, train_number
from command.words import key_spans, or_words
from engine.stationmaster.rules.actions import Action, ChooseGrade, Draw, EndTurn, Hold, RedFlag
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.held import spends

KEYS_HELP = (
    "Keys: letters choose the turn's own steps and always mean the same thing "
    "(d: draw from the deck; d1, d2, d3: draw from that Department; e: end the turn; "
    "h1: hold train 1 at your Office; r1: stop train 1 where it stands with a held card); "
    "numbers choose plays and moves, and each keeps its number until the turn ends."
)


def keys_help(game: Game) -> str:
    """``KEYS_HELP`` with the held card that r1 spends named from the catalog."""
    flag = next((c.name for c in spends(game, RedFlag)), None)
    return KEYS_HELP if flag is None else KEYS_HELP.replace("with a held card", f"with {a_or_an(flag)} from your hand")


def letter_key(game: Game, action: Action) -> str | None:
    """The letter key of one of the turn's own steps, None for a play or move."""
    if isinstance(action, Draw):
        return "d" if action.source == "deck" else f"d{action.source}"
    if isinstance(action, EndTurn):
        return "e"
    if isinstance(action, (Hold, RedFlag)):
        number = train_number(game, action.train)
        if number is not None:
            return f"{'h' if isinstance(action, Hold) else 'r'}{number}"
    return None


def _turn_of(game: Game) -> tuple[object, ...]:
    s = game.state
    return (s.phase, s.day, s.stage, s.current, tuple(s.pending_grades))


_ORDER = {"d": 0, "r": 2, "h": 3, "e": 4}


def _list_order(key: str) -> tuple[int, int, str]:
    """Draws first, then the numbered plays and moves, Red Flags, holds, and
    ending the turn last."""
    if key.isdecimal():
        return (1, int(key), "")
    return (_ORDER.get(key[0], 5), len(key), key)


class ActionKeys:
    """The key of each action offered, kept from one prompt to the next.

    A letter names one of the turn's own steps (``letter_key``); a play or
    move gets the lowest number not yet given this turn the first time it is
    offered, and keeps it while the turn lasts, so a number typed twice never
    means two different actions in one turn."""

    def __init__(self) -> None:
        self._turn: tuple[object, ...] | None = None
        self._numbers: dict[Action, int] = {}

    def assign(self, game: Game, actions: Sequence[Action]) -> dict[str, Action]:
        """Each offered action by its key, in the order the list shows them."""
        turn = _turn_of(game)
        if turn != self._turn:
            self._turn, self._numbers = turn, {}
        keyed: dict[str, Action] = {}
        for action in dict.fromkeys(actions):  # an action offered twice is listed once
            key = letter_key(game, action)
            if key is None:
                key = str(self._numbers.setdefault(action, len(self._numbers) + 1))
            keyed.setdefault(key, action)
        return {key: keyed[key] for key in sorted(keyed, key=_list_order)}

    def named(self, game: Game, key: str) -> Action | None:
        """The action ``key`` names even when it is not offered now: a turn
        step's letter, or a number given earlier this turn (None if neither)."""
        key = key.lower()
        if key.isdecimal():
            if _turn_of(game) != self._turn:
                return None
            return next((action for action, number in self._numbers.items() if str(number) == key), None)
        s, player = game.state, game.to_act
        letter, digits = key[:1], key[1:]
        if key == "d":
            return Draw(player, "deck")
        if key == "e":
            return EndTurn(player)
        if not digits.isdecimal() or len(digits) > 3:
            return None
        number = int(digits)
        if letter == "d" and 1 <= number <= len(s.departments):
            return Draw(player, str(number))
        if letter in "hr" and 1 <= number <= len(s.trains):
            train = s.trains[number - 1].id
            return Hold(player, train=train) if letter == "h" else RedFlag(player, train=train)
        return None

    @classmethod
    def resumed(cls, game: Game) -> ActionKeys:
        """The keys as an unbroken session would hold them after ``game``'s
        history: the actions of the turn under way are offered again, in order,
        on a replay of the game up to that turn's start."""
        keys = cls()
        history = game.history
        start = max((i + 1 for i, a in enumerate(history) if isinstance(a, (EndTurn, ChooseGrade))), default=0)
        if start < len(history):
            again = Game.replay(game.catalog, dict(game.save(), actions=[a.to_json() for a in history[:start]]))
            for action in history[start:]:
                keys.assign(again, again.legal_actions())
                again.apply(action)
        return keys


def key_summary(keyed: Mapping[str, Action]) -> str:
    """The keys offered, in words: '1, 2, 9 to 20, d, d1 to d3 or e'; when
    that would run long (many numbers gone this turn), how many there are."""
    spans = key_spans(list(keyed))
    return or_words(spans) if len(spans) <= 7 else f"one of the {len(keyed)} keys listed"
