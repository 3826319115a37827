"""Signal Box as a ``GamePack``: what the shared machinery calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.content.problems import Problem
from engine.effects.registry import undeclared_handlers
from engine.errors import InvalidActionError
from engine.pack import Configuration, GamePack, RuleValue, Simulator, Status
from engine.signalbox import load_catalog
from engine.signalbox.content.model import Card, Catalog
from engine.signalbox.rules.game import Game


class SignalBox:
    id = "signalbox"
    title = "Signal Box"
    score_unit = "lamps"
    sweep_measure = None

    def load_catalog(self, content_dir: Path) -> Catalog:
        return load_catalog(content_dir)

    def engine_problems(self, catalog: Catalog) -> list[Problem]:
        from engine.signalbox.effects import REGISTRY

        return undeclared_handlers(REGISTRY, {})

    def configurations(self, catalog: Catalog) -> list[Configuration]:
        return [Configuration(catalog.players, {}, f"{catalog.players}p")]

    def is_dealt(self, catalog: Catalog, card: Card, configuration: Configuration) -> bool:
        return True  # every lamp in the box is in the pile

    def status(self, catalog: Catalog, card: Card) -> Status | None:
        return None  # the card has no effect

    def new_game(self, catalog: Catalog, configuration: Configuration, seed: int) -> Game:
        return Game(catalog, configuration.players, seed)

    @property
    def bots(self) -> Sequence[str]:
        from engine.signalbox.bots import BOTS

        return BOTS

    def parse_house_rule(self, catalog: Catalog, text: str) -> tuple[str, RuleValue]:
        raise InvalidActionError(f"{text!r}: Signal Box has no house rules")

    def house_rules(self, catalog: Catalog, chosen: Mapping[str, RuleValue]) -> dict[str, RuleValue]:
        if chosen:
            raise InvalidActionError("Signal Box has no house rules")
        return {}

    @property
    def simulator(self) -> Simulator[Catalog]:
        from engine.signalbox.sim import simulate

        return simulate

    def summary(self, catalog: Catalog) -> str:
        return f"ok, {len(catalog.cards)} card record(s), {catalog.pile} lamps, {catalog.players} players"


PACK: GamePack[Catalog, Card, Game] = SignalBox()
