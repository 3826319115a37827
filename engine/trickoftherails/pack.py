"""Trick of the Rails as a ``GamePack``: what the shared machinery calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from engine.content.problems import Problem
from engine.pack import Configuration, GamePack, Simulator, Status, SweepMeasure
from engine.trickoftherails import load_catalog
from engine.trickoftherails.content.model import Card, Catalog
from engine.trickoftherails.rules.houserules import HouseRuleValue, parse_assignment, resolve

if TYPE_CHECKING:
    from engine.trickoftherails.rules.game import Game


class TrickOfTheRails:
    id = "trickoftherails"
    title = "Trick of the Rails"
    score_unit = "dollars"

    @property
    def sweep_measure(self) -> SweepMeasure:
        from engine.trickoftherails.sim.report import SHARE_VALUES

        return SHARE_VALUES

    def load_catalog(self, content_dir: Path) -> Catalog:
        return load_catalog(content_dir)

    def engine_problems(self, catalog: Catalog) -> list[Problem]:
        from engine.trickoftherails.rules.status import registry_problems

        return registry_problems(catalog)

    def configurations(self, catalog: Catalog) -> list[Configuration]:
        # What is dealt changes with the player count and the lane variant;
        # Teams changes only the scoring.
        variants = ["basic"] + (["expert"] if "expert" in catalog.variants else [])
        return [Configuration(players, {"variant": variant}, f"{players}p" + ("" if variant == "basic" else f" {variant}")) for variant in variants for players in catalog.player_counts]

    def is_dealt(self, catalog: Catalog, card: Card, configuration: Configuration) -> bool:
        from engine.trickoftherails.rules.setup import dealt

        return dealt(catalog, card, configuration.players, str(configuration.rules.get("variant", "basic"))) != "no"

    def status(self, catalog: Catalog, card: Card) -> Status | None:
        from engine.trickoftherails.rules.status import card_status

        return card_status(catalog, card)

    def new_game(self, catalog: Catalog, configuration: Configuration, seed: int) -> Game:
        from engine.trickoftherails.rules.game import Game

        return Game(catalog, players=configuration.players, seed=seed, house_rules=configuration.rules)

    @property
    def bots(self) -> Sequence[str]:
        from engine.trickoftherails.bots import BOTS

        return BOTS

    def parse_house_rule(self, catalog: Catalog, text: str) -> tuple[str, HouseRuleValue]:
        return parse_assignment(catalog, text)

    def house_rules(self, catalog: Catalog, chosen: Mapping[str, HouseRuleValue]) -> dict[str, HouseRuleValue]:
        return resolve(catalog, chosen)

    @property
    def simulator(self) -> Simulator[Catalog]:
        # The module itself is the Simulator: mypy checks its three functions.
        from engine.trickoftherails.sim import simulate

        return simulate

    def summary(self, catalog: Catalog) -> str:
        return f"ok, {len(catalog.cards)} card records in {len({c.family for c in catalog.cards})} families, {len(catalog.companies)} companies, {len(catalog.effects)} effects, lanes for {', '.join(str(p) for p in catalog.player_counts)} players"


# Typed as the interface, so mypy checks that the pack implements all of it.
PACK: GamePack[Catalog, Card, Game] = TrickOfTheRails()
