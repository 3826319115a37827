"""Station Master as a ``GamePack``: what the shared machinery calls."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.content.problems import Problem
from engine.pack import Configuration, GamePack, Progress, Status
from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Card, Catalog
from engine.stationmaster.rules.houserules import HouseRuleValue, configurations, parse_assignment, resolve

if TYPE_CHECKING:
    from engine.stationmaster.rules.game import Game
    from engine.stationmaster.sim.report import Report


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

        return [
            Configuration(players, rules, " ".join([seating, *(f"{k}={v}" for k, v in rules.items())]))
            for seating, players in SEATINGS.items()
            for rules in configurations(catalog)
        ]

    def is_dealt(self, catalog: Catalog, card: Card, configuration: Configuration) -> bool:
        from engine.stationmaster.rules.deck import is_dealt

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

    def simulate(
        self,
        catalog: Catalog,
        games: int,
        seed: int = 0,
        workers: int = 1,
        bot: str | None = None,
        house_rules: Mapping[str, HouseRuleValue] | None = None,
        progress: Progress | None = None,
        *,
        content_dir: str | Path | None = None,
        players: int | None = None,
        seats: Sequence[str] | None = None,
    ) -> Report:
        from engine.stationmaster.sim.simulate import simulate

        return simulate(catalog, games, seed, workers, self.bots[0] if bot is None else bot, house_rules, progress, content_dir=content_dir, players=players, seats=seats)

    def play_games(
        self, catalog: Catalog, seed: int, start: int, stop: int, bot: str | None = None, house_rules: Mapping[str, HouseRuleValue] | None = None, *, players: int | None = None
    ) -> Any:
        from engine.stationmaster.sim.simulate import play_games

        return play_games(catalog, seed, start, stop, self.bots[0] if bot is None else bot, house_rules, players=players)

    def report_games(
        self, catalog: Catalog, games: int, seed: int, bot: str | None, house_rules: Mapping[str, HouseRuleValue] | None, chunks: Iterable[Any], *, players: int | None = None
    ) -> Report:
        from engine.stationmaster.sim.simulate import report_games

        return report_games(catalog, games, seed, self.bots[0] if bot is None else bot, house_rules, chunks, players=players)

    def summary(self, catalog: Catalog) -> str:
        families = len({c.family for c in catalog.cards})
        return f"ok, {len(catalog.cards)} card records in {families} families, {len(catalog.effects)} effects, {len(catalog.house_rules)} house rules"


# Typed as the interface, so mypy checks that the pack implements all of it.
PACK: GamePack = StationMaster()
