"""Station Master as a ``GamePack``: what the shared machinery calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from engine.content.problems import Problem
from engine.pack import Configuration, GamePack, Simulator, Status
from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Card, Catalog, MainlineCard
from engine.stationmaster.rules.houserules import HouseRuleValue, configurations, parse_assignment, resolve

if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game


class StationMaster:
    id = "stationmaster"
    title = "Station Master"
    score_unit = "points"
    sweep_measure = None

    def load_catalog(self, content_dir: Path) -> Catalog:
        return load_catalog(content_dir)

    def engine_problems(self, catalog: Catalog) -> list[Problem]:
        from engine.stationmaster.rules.status import registry_problems

        return registry_problems(catalog)

    def configurations(self, catalog: Catalog) -> list[Configuration]:
        # What is dealt changes with the house rules and with whether the table
        # has rivals (the opponent-directed cards); solitaire comes first.
        from engine.stationmaster.rules.deck import SEATINGS

        return [Configuration(players, rules, " ".join([seating, *(f"{k}={v}" for k, v in rules.items())])) for seating, players in SEATINGS.items() for rules in configurations(catalog)]

    def is_dealt(self, catalog: Catalog, card: Card, configuration: Configuration) -> bool:
        # Setup deals the terrain cards from the Mainline inventory, every
        # other card from the Home Office deck: the site's Dealt says the same.
        from engine.stationmaster.rules.deck import in_mainline_inventory, is_dealt

        if isinstance(card, MainlineCard):
            return in_mainline_inventory(card)
        return is_dealt(catalog, card, configuration.rules, configuration.players)

    def status(self, catalog: Catalog, card: Card) -> Status | None:
        from engine.stationmaster.rules.status import card_status

        return card_status(catalog, card)

    def new_game(self, catalog: Catalog, configuration: Configuration, seed: int) -> Game:
        from engine.stationmaster.rules.game import Game

        return Game(catalog, players=configuration.players, seed=seed, house_rules=configuration.rules)

    @property
    def bots(self) -> Sequence[str]:
        # Imported here: the bots load the whole game, which validate and
        # check never need.
        from engine.stationmaster.bots import BOTS

        return BOTS

    def parse_house_rule(self, catalog: Catalog, text: str) -> tuple[str, HouseRuleValue]:
        return parse_assignment(catalog, text)

    def house_rules(self, catalog: Catalog, chosen: Mapping[str, HouseRuleValue]) -> dict[str, HouseRuleValue]:
        return resolve(catalog, chosen)

    @property
    def simulator(self) -> Simulator[Catalog]:
        # The module itself is the Simulator: mypy checks its three functions.
        from engine.stationmaster.sim import simulate

        return simulate

    def summary(self, catalog: Catalog) -> str:
        families = len({c.family for c in catalog.cards})
        return f"ok, {len(catalog.cards)} card records in {families} families, {len(catalog.effects)} effects, {len(catalog.house_rules)} house rules"


# Typed as the interface, so mypy checks that the pack implements all of it.
PACK: GamePack[Catalog, Card, Game] = StationMaster()
