"""Report plans cut down to a few games, for tests that have reports
measured again.

Such a test checks what ``cards --reports`` does with a report (which it
plays again, what it writes, that ``check --reports`` then passes), never
the figures; the real plans play some hundreds of games a pack, tens of
CPU-seconds each time (the skill ladders, CPU-hours: they keep only their
two lowest rungs). A plan's stamp is made from the plan module's file,
so a report measured with fewer games still stands afterwards, as it would
with the real ones. Each pack's plans are found as the kit finds them
(``generator/<pack>/simulation.py``), so a new pack is covered too.
"""

from __future__ import annotations

import dataclasses
import importlib
import re

import pytest

from engine.packs import known_pack_ids

_GAMES_CONSTANT = re.compile(r"^[A-Z_]*GAMES$")


def _fewer(value: object, games: int) -> object:
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and any(f.name == "games" for f in dataclasses.fields(value)):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        changes: dict[str, object] = {"games": min(games, fields["games"])}
        if isinstance(fields.get("self_play_games"), int):
            changes["self_play_games"] = min(games, fields["self_play_games"])
        # A ladder's two lowest rungs: a search rung's game costs seconds.
        if isinstance(fields.get("rungs"), tuple):
            changes["rungs"] = fields["rungs"][:2]
        return dataclasses.replace(value, **changes)
    if isinstance(value, tuple) and value and all(dataclasses.is_dataclass(v) for v in value):
        return tuple(_fewer(v, games) for v in value)
    return value


def play_few_games(monkeypatch: pytest.MonkeyPatch, games: int = 2) -> None:
    """Every pack's report plans, for the rest of the test, at most ``games`` games a cell."""
    for pack_id in known_pack_ids():
        try:
            plans = importlib.import_module(f"generator.{pack_id}.simulation")
        except ModuleNotFoundError:
            continue
        for name, value in vars(plans).items():
            if not name.isupper():
                continue
            if isinstance(value, int) and _GAMES_CONSTANT.match(name):
                monkeypatch.setattr(plans, name, min(games, value))
            elif (fewer := _fewer(value, games)) is not value:
                monkeypatch.setattr(plans, name, fewer)
