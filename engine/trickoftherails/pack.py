"""Trick of the Rails as a ``GamePack``: what the shared machinery calls."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.content.problems import Problem
from engine.pack import Configuration, GamePack, Progress, Status, SweepMeasure
from engine.trickoftherails import load_catalog
from engine.trickoftherails.content.model import Card, Catalog
from engine.trickoftherails.rules.houserules import HouseRuleValue, parse_assignment, resolve

if TYPE_CHECKING:
    from engine.trickoftherails.rules.game import Game
    from engine.trickoftherails.sim.report import Report


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
        return [
            Configuration(players, {"variant": variant}, f"{players}p" + ("" if variant == "basic" else f" {variant}"))
            for variant in variants
            for players in catalog.player_counts
        ]

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
        from engine.trickoftherails.sim.simulate import simulate

        return simulate(catalog, games, seed, workers, self.bots[0] if bot is None else bot, house_rules, progress, content_dir=content_dir, players=players, seats=seats)

    def play_games(
        self, catalog: Catalog, seed: int, start: int, stop: int, bot: str | None = None, house_rules: Mapping[str, HouseRuleValue] | None = None, *, players: int | None = None
    ) -> Any:
        from engine.trickoftherails.sim.simulate import play_games

        return play_games(catalog, seed, start, stop, self.bots[0] if bot is None else bot, house_rules, players=players)

    def report_games(
        self, catalog: Catalog, games: int, seed: int, bot: str | None, house_rules: Mapping[str, HouseRuleValue] | None, chunks: Iterable[Any], *, players: int | None = None
    ) -> Report:
        from engine.trickoftherails.sim.simulate import report_games

        return report_games(catalog, games, seed, self.bots[0] if bot is None else bot, house_rules, chunks, players=players)

    def summary(self, catalog: Catalog) -> str:
        return f"ok, {len(catalog.cards)} card records in {len({c.family for c in catalog.cards})} families, {len(catalog.companies)} companies, {len(catalog.effects)} effects, lanes for {', '.join(str(p) for p in catalog.player_counts)} players"


# Typed as the interface, so mypy checks that the pack implements all of it.
PACK: GamePack = TrickOfTheRails()
