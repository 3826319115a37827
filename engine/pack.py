"""What the shared machinery knows of a game: the ``GamePack`` interface.

The loader, the commands, the generator, the lint, the drift check, the
MkDocs plugin and ``simulate`` serve every game alike, and reach a game only
through this interface. A new game is one folder named by its id in each
layer: ``content/<id>/`` (its YAML and schemas, with a ``game.yaml`` that
says ``id: <id>``), ``engine/<id>/`` (its rooms; ``engine/<id>/pack.py``
holds ``PACK``, its ``GamePack``), ``generator/<id>/`` (its site tables),
``command/<id>/`` (its terminal game, if any) and ``site/<id>/`` (its pages).

To write one, implement every member below; ``engine/stationmaster/pack.py``
is a complete example. Nothing here names a card or a rule of any game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

from engine.content.problems import Origin, Problem
from engine.content.source import Source

Status = Literal["live", "dormantSolo", "unbuilt"]

# What a house rule can be set to, in any pack.
RuleValue = str | bool


class CardLike(Protocol):
    """What the shared machinery reads of any card: its id (its anchor on the
    site), its name, its family, its copies in the box, where it comes from
    (``source``) and where it was written. A card is a frozen dataclass: the
    JSON export and the changelog read every other field it compares on."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def family(self) -> str: ...

    @property
    def count(self) -> int: ...

    @property
    def source(self) -> Source: ...

    @property
    def origin(self) -> Origin: ...


class CatalogLike(Protocol):
    """What the shared machinery reads of a pack's catalog."""

    @property
    def cards(self) -> Sequence[CardLike]: ...

    @property
    def by_id(self) -> Mapping[str, CardLike]: ...

    @property
    def fingerprint(self) -> str:
        """A digest of the content it was loaded from (saves and stamps carry it)."""
        ...


@dataclass(frozen=True)
class Configuration:
    """One way to set a game up: a player count and the house rules chosen.

    ``key`` is stable text naming it (``players=3 variant=basic``) and
    ``label`` the words a table heading uses."""

    players: int
    rules: Mapping[str, RuleValue]
    label: str

    @property
    def key(self) -> str:
        rules = " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(self.rules.items()))
        return f"players={self.players}" + (f" {rules}" if rules else "")


CatalogOut = TypeVar("CatalogOut", covariant=True)
StateOut = TypeVar("StateOut", covariant=True)


class RulesContextBase(Protocol[CatalogOut, StateOut]):
    """What every pack's rules and effect handlers read of a game: its
    catalog, its state and the house rules in force. A pack's own
    ``rules/context.py`` narrows the two types and adds what else its
    rules may touch, so no rule module needs the whole ``Game``."""

    @property
    def catalog(self) -> CatalogOut: ...

    @property
    def state(self) -> StateOut: ...

    @property
    def rules(self) -> Mapping[str, RuleValue]:
        """The house rules in force, every one of them (defaults filled in)."""
        ...


class GameAPI(Protocol):
    """The uniform game API every pack's game offers: actions proposed,
    judged with every reason, applied, and replayed from a seed."""

    def legal_actions(self) -> Sequence[Any]: ...

    def check(self, action: Any) -> Sequence[Any]: ...

    def apply(self, action: Any) -> None: ...

    def is_over(self) -> bool: ...

    def score(self) -> list[int]: ...

    def dumps(self) -> str: ...


class CardFigures(Protocol):
    """What the shared machinery reads of one card's line in a simulation
    report: how often it was drawn, played and drawn dead (never played),
    and the dead share as a whole percentage (None when it was never drawn).
    The counts, not only the percentage, so a sweep can compare rates
    between configurations without rounding twice."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def drawn(self) -> int: ...

    @property
    def played(self) -> int: ...

    @property
    def dead(self) -> int: ...

    def dead_percent(self) -> int | None: ...


class SimulationReport(Protocol):
    """A simulation's report, as ``stationmaster simulate`` prints it and the
    site's simulation table reads it."""

    @property
    def games(self) -> int: ...

    @property
    def cards(self) -> Mapping[str, CardFigures]: ...

    def score_values(self) -> Sequence[int]:
        """Every seat's final score of every game, game by game, seat 0
        first: what a sweep takes its quartiles and histograms from, the
        same way for any game."""
        ...

    def first_seats(self) -> Sequence[int]:
        """The seat that moved first (took the first turn, led the first
        trick) in each game, game by game: what a sweep counts the
        first-player win rate of."""
        ...

    def to_text(self) -> str: ...

    def to_json(self) -> str:
        """The report as JSON; equal reports give equal text, byte for byte."""
        ...


# Called with (games done, games in all) as a simulation goes on.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SimulationRequest:
    """Which games a simulation plays: ``games`` games, game ``i`` seeded
    ``engine.sim.pool.game_seed(seed, i)``, over ``workers`` processes.

    ``bot`` plays every seat (None: the pack's first bot); ``seats``,
    instead, names the bot of each seat, seat 0 first. ``players`` is how
    many play each game (None: the game's default, or as many as ``seats``
    names). ``house_rules`` are those chosen; the others keep their
    defaults. ``content_dir`` names the content the catalog was loaded
    from, for workers that cannot inherit it (no fork on the platform).

    A value, so that what is played can be passed whole from the command
    line, a sweep's cell or a site page's plan down to a pack, and across
    processes to a cluster's worker. Nothing is checked here: the pack and
    ``engine.sim.pool`` refuse what is out of range, as they always did.
    How a caller watches the games go (a ``Progress``) is not part of it,
    since it changes nothing in the report and does not pickle."""

    games: int
    seed: int = 0
    workers: int = 1
    bot: str | None = None
    house_rules: Mapping[str, RuleValue] = field(default_factory=dict)
    players: int | None = None
    seats: tuple[str, ...] | None = None
    content_dir: str | Path | None = None


# A pack's own types, which GamePack and Simulator are written over: its
# catalog goes in and comes out (``load_catalog`` makes it), a card only goes
# in and a game only comes out, and mypy holds the Protocols to that.
CatalogT = TypeVar("CatalogT", bound=CatalogLike)
CatalogIn = TypeVar("CatalogIn", bound=CatalogLike, contravariant=True)
CardIn = TypeVar("CardIn", bound=CardLike, contravariant=True)
GameOut = TypeVar("GameOut", bound=GameAPI, covariant=True)


class Simulator(Protocol[CatalogIn]):
    """A pack's simulations: its ``sim/simulate.py`` module is one.

    - ``simulate``: play the request's games and report. Game ``i`` must use
      ``engine.sim.pool.game_seed(seed, i)``, and the report must be the
      same for any ``workers``: ``engine.sim.pool.play_chunks`` does both,
      given a function that plays a chunk of games. ConfigurationError for
      an argument out of range, an unknown bot or a count of players the
      game cannot seat.
    - ``play_games``: games ``start .. stop-1`` of the simulation
      ``simulate`` would play for the request, as one chunk's result: it
      pickles, so a cluster's worker can play any range of games anywhere
      and hand it back (typed Any: only the pack that made a chunk reads
      it, and it crosses processes as bytes).
    - ``report_games``: the very report ``simulate`` gives, made of
      ``play_games`` chunks that cover games ``0 .. games-1``, handed in
      game order.
    - ``chunk_to_plain`` and ``chunk_from_plain``: a chunk as lists, dicts,
      strings, booleans and whole numbers, and back, checked
      (``engine.sim.plain.BadChunk`` saying what is wrong): what a cluster's
      worker hands back, so that nothing it sends is unpickled as objects.
    """

    def simulate(self, catalog: CatalogIn, request: SimulationRequest, progress: Progress | None = None) -> SimulationReport: ...

    def play_games(self, catalog: CatalogIn, request: SimulationRequest, start: int, stop: int) -> Any: ...

    def report_games(self, catalog: CatalogIn, request: SimulationRequest, chunks: Iterable[Any]) -> SimulationReport: ...

    def chunk_to_plain(self, chunk: Any) -> object: ...

    def chunk_from_plain(self, catalog: CatalogIn, request: SimulationRequest, start: int, stop: int, plain: object) -> Any: ...


@dataclass(frozen=True)
class SweepMeasure:
    """One more figure a pack has a sweep keep of each configuration, beside
    the scores and the cards: for each row (a company, say) the mean of
    whole numbers its simulation report holds (each company's share value
    at the end of each game). ``totals`` gives, by row name in the pack's
    order, their sum, how many there were and the sum of their squares (for
    the mean's interval): kept as whole numbers, so a cell read back from
    the cache equals one just played."""

    title: str  # as a chart's title says it
    what: str  # the figure, in words ("each company's mean share value at the end of the games")
    short: str  # as a line of differences names it ("mean share value")
    totals: Callable[[Any], Mapping[str, tuple[int, int, int]]]


class GamePack(Protocol[CatalogT, CardIn, GameOut]):
    """One game, as the shared machinery sees it: typed with the pack's own
    catalog, card and game, so mypy checks each pack against every member
    (``PACK: GamePack[Catalog, Card, Game]`` in its ``pack.py``).

    - ``id``: the folder name under ``content/``, ``engine/`` and ``site/``.
    - ``load_catalog``: the checked catalog of a content folder, or
      ``ContentError`` listing every located problem.
    - ``engine_problems``: what the engine finds wrong with a loaded catalog
      (a handler for an effect the content does not declare, say).
    - ``configurations``: every way the game can be set up that changes what
      is dealt (player counts, house rules), default first.
    - ``is_dealt``: whether a configuration's deck or setup holds the card;
      yes or no, never a count, computed by the code that builds the deck.
    - ``status``: the card's status, derived from the handler registry and
      the deck builder (None for a card with no effect).
    - ``new_game``: a game for a configuration and a seed.
    - ``bots``: the names of the bots ``simulate`` may play with, the
      default first.
    - ``parse_house_rule`` and ``house_rules``: a ``KEY=VALUE`` from a
      command line, typed; then the full set of house rules (defaults
      overlaid with those chosen). Both raise ``InvalidActionError`` with a
      one-line reason for a key or value the game does not have.
    - ``simulator``: the pack's simulations (``Simulator``), loaded only
      when asked for. For a simulation table on its site, a pack adds a
      table whose context comes from ``generator.simulation_table`` given
      its own plan, as ``generator/stationmaster/simulation.py`` does.
    """

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def score_unit(self) -> str:
        """What a final score counts, as a chart's axis names it ("points")."""
        ...

    @property
    def sweep_measure(self) -> SweepMeasure | None:
        """The pack's own figure for a sweep to keep of each configuration, if any."""
        ...

    def load_catalog(self, content_dir: Path) -> CatalogT: ...

    def engine_problems(self, catalog: CatalogT) -> list[Problem]: ...

    def configurations(self, catalog: CatalogT) -> list[Configuration]: ...

    def is_dealt(self, catalog: CatalogT, card: CardIn, configuration: Configuration) -> bool: ...

    def status(self, catalog: CatalogT, card: CardIn) -> Status | None: ...

    def new_game(self, catalog: CatalogT, configuration: Configuration, seed: int) -> GameOut: ...

    @property
    def bots(self) -> Sequence[str]: ...

    def parse_house_rule(self, catalog: CatalogT, text: str) -> tuple[str, RuleValue]: ...

    def house_rules(self, catalog: CatalogT, chosen: Mapping[str, RuleValue]) -> dict[str, RuleValue]: ...

    @property
    def simulator(self) -> Simulator[CatalogT]: ...

    def summary(self, catalog: CatalogT) -> str:
        """One line for ``validate`` to print when the pack is clean."""
        ...


# A pack as the shared machinery holds it where the pack is chosen at run
# time (by id, or by the content folder given): its catalog, cards and games
# are then whatever that pack's are, which no annotation can say. Every such
# place uses this one alias; each pack's own ``PACK`` is typed in full.
AnyPack: TypeAlias = GamePack[Any, Any, Any]
