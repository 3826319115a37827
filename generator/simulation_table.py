"""The rules site's simulation tables, for any pack that can simulate.

A pack's table names one house rule; for each option of it (every other
house rule at its default) one fixed simulation is played (a set number of
games, a set seed and bot, one process) and the cards whose draws were most
often dead (never played) are listed, highest share first. The pack says
which rule, how many games, which seed and bot, how many cards; this module
turns its reports into the template's context, the same way for every game.

A pack whose games seat rivals may also show a few fixed multi-player
simulations (:class:`Seating`): the pack lays out each one's figures, and
this module plays and caches them the same way.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.pack import RuleValue, SimulationReport, SimulationRequest
from engine.sim.intervals import wilson
from generator.tableset import Context


class Fingerprinted(Protocol):
    """All the cache reads of a catalog: a digest of the content it came from."""

    @property
    def fingerprint(self) -> str: ...


@dataclass(frozen=True)
class Option:
    """One option of the rule the table varies: its ``value`` as a command
    line writes it, its ``name`` as the heading says it, and the house rules
    the simulation is given for it."""

    value: str
    name: str
    is_default: bool
    house_rules: Mapping[str, RuleValue]


@dataclass(frozen=True)
class SiteSimulation:
    """What a pack's simulation table shows: ``games`` games seeded ``seed``
    played by ``bot``, one table per option of the house rule ``rule_id``,
    each listing its ``top`` cards with the highest dead-draw rate."""

    games: int
    seed: int
    bot: str
    top: int
    rule_id: str
    rule_name: str
    options: tuple[Option, ...]

    def request(self, option: Option) -> SimulationRequest:
        """The simulation played for ``option``, in one process."""
        return SimulationRequest(self.games, self.seed, 1, self.bot, option.house_rules)


@dataclass(frozen=True)
class Seating:
    """A multi-player simulation a page shows: ``games`` games of
    ``players`` players seeded ``seed``, ``bot`` in every seat, every house
    rule at its default."""

    players: int
    games: int
    seed: int
    bot: str

    @property
    def request(self) -> SimulationRequest:
        """The simulation this seating plays, in one process."""
        return SimulationRequest(self.games, self.seed, 1, self.bot, players=self.players)


# Plays the fixed simulation of one option (in one process).
RunOption = Callable[[Option], SimulationReport]
# Plays one seating's simulation and lays out its figures (the pack's own).
LayOutSeating = Callable[[Seating], Context]
# The pack's account of why a card may never be played (the rule that keeps
# it out of play), or None where no rule does.
WhyUnplayed = Callable[[str], "str | None"]

_cache: dict[tuple[str, str], Context] = {}


def simulation_context(catalog: Fingerprinted, plan: SiteSimulation, run: RunOption, why_unplayed: WhyUnplayed | None = None) -> Context:
    """The table's context (see :func:`build_simulation_context`), cached
    per content fingerprint and plan: a render asks for it once per page set,
    and the answer depends only on the content (and the engine). Each caller
    gets its own copy, so none can change what the next one sees."""
    return _cached((catalog.fingerprint, repr(plan)), lambda: build_simulation_context(plan, run, why_unplayed))


def seated_context(catalog: Fingerprinted, seatings: tuple[Seating, ...], lay_out: LayOutSeating) -> Context:
    """The multi-player table's context, ``seatings`` in order, each with
    its plan and what ``lay_out`` made of it; cached as the other one is."""
    return _cached((catalog.fingerprint, repr(seatings)), lambda: build_seated_context(seatings, lay_out))


def build_seated_context(seatings: tuple[Seating, ...], lay_out: LayOutSeating) -> Context:
    """The same, computed afresh."""
    measured = {"games": sum(s.games for s in seatings), "seeds": sorted({s.seed for s in seatings})}
    return {"seatings": [{"players": s.players, "games": s.games, "seed": s.seed, "bot": s.bot, **lay_out(s)} for s in seatings], "measured": measured}


def cached_context(catalog: Fingerprinted, key: str, compute: Callable[[], Context]) -> Context:
    """Any site table's context cached as these are: per content
    fingerprint and ``key`` (the plan's repr), each caller getting a copy."""
    return _cached((catalog.fingerprint, key), compute)


def _cached(key: tuple[str, str], compute: Callable[[], Context]) -> Context:
    cached = _cache.get(key)
    if cached is None:
        cached = _cache[key] = compute()
    return copy.deepcopy(cached)


def card_rows(report: SimulationReport, games: int) -> list[dict[str, Any]]:
    """Every card drawn at least once, by dead-draw rate, then draws, then
    name and id: a total order, so equal reports give equal tables. Each
    rate comes with its 95% Wilson interval over the card's draws."""
    rows: list[dict[str, Any]] = []
    for stats in report.cards.values():
        percent = stats.dead_percent()
        if percent is None:
            continue
        interval = wilson(stats.dead, stats.drawn)
        span = f"{100 * interval.low:.0f}\N{EN DASH}{100 * interval.high:.0f}%"
        rows.append({"card": stats.id, "name": stats.name, "dead_rate": percent, "dead_span": span, "per_game": f"{stats.drawn / games:.1f}", "drawn": stats.drawn})
    rows.sort(key=lambda r: (-r["dead_rate"], -r["drawn"], r["name"], r["card"]))
    return rows


def never_played(rows: list[dict[str, Any]], why_unplayed: WhyUnplayed | None) -> list[dict[str, Any]]:
    """The rows of cards drawn and never played, each with ``why``: the rule
    that keeps it out of play as ``why_unplayed`` says it (None: no rule)."""
    return [{"card": r["card"], "name": r["name"], "why": why_unplayed(r["card"]) if why_unplayed else None} for r in rows if r["dead_rate"] == 100]


def build_simulation_context(plan: SiteSimulation, run: RunOption, why_unplayed: WhyUnplayed | None = None) -> Context:
    """Play the plan's simulations and lay out each one's rows: every card
    drawn at least once, by dead-draw rate, then draws, then name and id (a
    total order, so equal reports give equal tables), the first ``top``.
    Each table also lists, as ``never_played``, every card drawn and never
    played in its games (all of them, shown or not), with ``why``: the rule
    that keeps it out of play as ``why_unplayed`` says it (None: no rule)."""
    tables = []
    for option in plan.options:
        rows = card_rows(run(option), plan.games)
        tables.append({"value": option.value, "value_name": option.name, "is_default": option.is_default, "rows": rows[: plan.top], "never_played": never_played(rows, why_unplayed)})
    measured = {"games": plan.games * len(plan.options), "seeds": [plan.seed]}
    return {"rule": {"id": plan.rule_id, "name": plan.rule_name}, "games": plan.games, "seed": plan.seed, "bot": plan.bot, "top": plan.top, "configurations": tables, "measured": measured}
