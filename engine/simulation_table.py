"""The rules site's simulation table, for any pack that can simulate.

A pack's table names one house rule; for each option of it (every other
house rule at its default) one fixed simulation is played (a set number of
games, a set seed and bot, one process) and the cards whose draws were most
often dead (never played) are listed, highest share first. The pack says
which rule, how many games, which seed and bot, how many cards; this module
turns its reports into the template's context, the same way for every game.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.pack import Context, SimulationReport


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
    house_rules: Mapping[str, Any]


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


# Plays the fixed simulation of one option (in one process).
RunOption = Callable[[Option], SimulationReport]
# The pack's account of why a card may never be played (the rule that keeps
# it out of play), or None where no rule does.
WhyUnplayed = Callable[[str], "str | None"]

_cache: dict[tuple[str, str], Context] = {}


def simulation_context(catalog: Fingerprinted, plan: SiteSimulation, run: RunOption, why_unplayed: WhyUnplayed | None = None) -> Context:
    """The table's context (see :func:`build_simulation_context`), cached
    per content fingerprint and plan: a render asks for it once per page set,
    and the answer depends only on the content (and the engine). Each caller
    gets its own copy, so none can change what the next one sees."""
    key = (catalog.fingerprint, repr(plan))
    cached = _cache.get(key)
    if cached is None:
        cached = _cache[key] = build_simulation_context(plan, run, why_unplayed)
    return copy.deepcopy(cached)


def build_simulation_context(plan: SiteSimulation, run: RunOption, why_unplayed: WhyUnplayed | None = None) -> Context:
    """Play the plan's simulations and lay out each one's rows: every card
    drawn at least once, by dead-draw rate, then draws, then name and id (a
    total order, so equal reports give equal tables), the first ``top``.
    Each table also lists, as ``never_played``, every card drawn and never
    played in its games (all of them, shown or not), with ``why``: the rule
    that keeps it out of play as ``why_unplayed`` says it (None: no rule)."""
    tables = []
    for option in plan.options:
        report = run(option)
        rows: list[dict[str, Any]] = []
        for stats in report.cards.values():
            percent = stats.dead_percent()
            if percent is None:
                continue
            rows.append({"card": stats.id, "name": stats.name, "dead_rate": percent, "per_game": f"{stats.drawn / plan.games:.1f}", "drawn": stats.drawn})
        rows.sort(key=lambda r: (-r["dead_rate"], -r["drawn"], r["name"], r["card"]))
        never = [{"card": r["card"], "name": r["name"], "why": why_unplayed(r["card"]) if why_unplayed else None} for r in rows if r["dead_rate"] == 100]
        tables.append({"value": option.value, "value_name": option.name, "is_default": option.is_default, "rows": rows[: plan.top], "never_played": never})
    return {"rule": {"id": plan.rule_id, "name": plan.rule_name}, "games": plan.games, "seed": plan.seed, "bot": plan.bot, "top": plan.top, "configurations": tables}
