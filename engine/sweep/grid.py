"""The grid of a sweep: every combination of the swept house-rule values,
player counts and bots, in one fixed order, and the baseline cell the
others are compared with.

The order is the order of the arguments: the house rules as their
``--rule`` options come, each rule's values as listed, then the player
counts, then the bots; the last varies fastest. Every cell is one complete
configuration (the rules not swept stay at their defaults), so a cell means
the same thing in any grid and its cached figures can be shared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

from engine.errors import InvalidActionError, UsageError
from engine.pack import AnyPack, Configuration, RuleValue, SimulationRequest


def shown(value: RuleValue) -> str:
    """A house-rule value as a command line writes it (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else value


@dataclass(frozen=True)
class Cell:
    """One configuration of the grid.

    ``rules`` is the full set of house rules the games are played with,
    sorted by key (what the cache key is made of); ``swept`` only the swept
    ones, in argument order (what a reader is told). ``seats``, where the
    seats are played by different bots (a matchup matrix's cell), names each
    seat's bot, seat 0 first; ``bot`` is then the one the cell is about."""

    players: int
    bot: str
    rules: tuple[tuple[str, RuleValue], ...]
    swept: tuple[tuple[str, RuleValue], ...]
    seats: tuple[str, ...] | None = None

    @property
    def label(self) -> str:
        parts = [f"{key}={shown(value)}" for key, value in self.swept]
        bots = f"{self.bot} bot" if self.seats is None else "seats " + ", ".join(self.seats)
        return ", ".join([*parts, f"{self.players} player{'s' if self.players != 1 else ''}", bots])

    def to_dict(self) -> dict[str, Any]:
        seats = {} if self.seats is None else {"seats": list(self.seats)}
        return {"players": self.players, "bot": self.bot, "houseRules": dict(self.rules), **seats}

    def request(self, games: int, seed: int, workers: int = 1, content_dir: Path | None = None) -> SimulationRequest:
        """The simulation that plays this cell: ``games`` games seeded ``seed``
        (the same in every cell), however many processes play them."""
        if self.seats is not None:
            return SimulationRequest(games, seed, workers, None, dict(self.rules), players=self.players, seats=self.seats, content_dir=content_dir)
        return SimulationRequest(games, seed, workers, self.bot, dict(self.rules), players=self.players, content_dir=content_dir)


@dataclass(frozen=True)
class Grid:
    """The swept values, the cells in grid order, and which cell is the baseline."""

    rules: tuple[tuple[str, tuple[RuleValue, ...]], ...]
    players: tuple[int, ...]
    bots: tuple[str, ...]
    cells: tuple[Cell, ...]
    baseline: int


def split_list(option: str, text: str) -> list[str]:
    """``a,b,c`` as its items; UsageError naming ``option`` for an empty
    list or item, or an item given twice (a cell twice says nothing new)."""
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or any(not item for item in items):
        raise UsageError(f"{option} {text!r}: an empty value; give a comma-separated list such as a,b")
    twice = next((item for i, item in enumerate(items) if item in items[:i]), None)
    if twice is not None:
        raise UsageError(f"{option} {text!r}: {twice!r} is listed twice")
    return items


def parse_rule(pack: AnyPack, catalog: Any, text: str) -> tuple[str, tuple[RuleValue, ...]]:
    """``KEY=V1,V2`` as the rule's id and its typed values, each checked by
    the pack (its one-line reason, after the option it came from)."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise UsageError(f"--rule {text!r}: write KEY=VALUE1,VALUE2,...")
    values: list[RuleValue] = []
    for item in split_list(f"--rule {key}=", raw):
        try:
            rule_id, value = pack.parse_house_rule(catalog, f"{key}={item}")
            pack.house_rules(catalog, {rule_id: value})
        except InvalidActionError as exc:
            raise UsageError(f"--rule {key}={item}: {exc}") from None
        values.append(value)
    return key, tuple(values)


def build_grid(pack: AnyPack, catalog: Any, rules: Sequence[str], players: Sequence[int] | None, bots: Sequence[str] | None) -> Grid:
    """The grid of ``rules`` (``KEY=V1,V2`` texts) x ``players`` (None: the
    game's default count) x ``bots`` (None: the game's default bot).
    UsageError, before anything is played, for a rule or value the game
    does not have, a rule given twice, an unknown bot, or a cell the game
    cannot set up (a player count it does not seat, a variant at a count it
    is not played by): the game deals one game of every cell to find out."""
    swept: list[tuple[str, tuple[RuleValue, ...]]] = []
    for text in rules:
        key, values = parse_rule(pack, catalog, text)
        if any(key == other for other, _ in swept):
            raise UsageError(f"--rule {key} is given twice; list all its values in one --rule {key}=V1,V2")
        swept.append((key, values))
    counts = tuple(players) if players is not None else (pack.configurations(catalog)[0].players,)
    names = tuple(bots) if bots is not None else (pack.bots[0],)
    for bot in names:
        if bot not in pack.bots:
            raise UsageError(f"--bot {bot}: game '{pack.id}' has no such bot; its bots: {', '.join(pack.bots)}")
    defaults = pack.house_rules(catalog, {})
    cells: list[Cell] = []
    for combo in product(product(*(values for _, values in swept)), counts, names):
        chosen = tuple((key, value) for (key, _), value in zip(swept, combo[0]))
        full: Mapping[str, Any] = pack.house_rules(catalog, dict(chosen))
        cell = Cell(combo[1], combo[2], tuple(sorted(full.items())), chosen)
        try:
            pack.new_game(catalog, Configuration(cell.players, full, cell.label), 0)
        except InvalidActionError as exc:
            raise UsageError(f"the cell {cell.label} cannot be played: {exc}") from None
        cells.append(cell)
    # The baseline: every swept rule at its default (or, where the default
    # is not swept, at its first value), the first player count, the first bot.
    base = tuple((key, defaults[key] if defaults[key] in values else values[0]) for key, values in swept)
    baseline = next(i for i, cell in enumerate(cells) if cell.swept == base and cell.players == counts[0] and cell.bot == names[0])
    return Grid(tuple(swept), counts, names, tuple(cells), baseline)
