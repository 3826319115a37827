"""The Simulation page names every card its games never played, and why
(engine/stationmaster/rules/dead_draws.py): the rule that keeps it out of play, read
from the content, the effect registry and the actions. A card never played
that no rule accounts for is the bot's failure, and fails here."""

from __future__ import annotations

import pytest

from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.dead_draws import SOLITAIRE_TERRAIN, unplayed_because
from engine.stationmaster.rules.deck import mainline_inventory
from generator.simulation_table import Option, SiteSimulation, build_simulation_context
from generator.stationmaster.simulation import simulation_context
from tests.kit.stationmaster import new_game

FALLBACK = "no rule keeps it out of play"


def test_an_unbuilt_effect_is_named_with_what_the_source_says(catalog: Catalog) -> None:
    why = unplayed_because(catalog, catalog.by_id["poling"])
    assert why is not None and "not built" in why and "TBD in the source" in why


def test_a_grade_card_says_what_it_needs_and_how_often_the_mainline_deals_it(catalog: Catalog) -> None:
    why = unplayed_because(catalog, catalog.by_id["airbrakes"])
    grades = sum(1 for card in mainline_inventory(catalog) if card.id == "heavy-grade")
    assert why is not None and "Heavy Grade" in why and "Brakeman" in why
    assert f"{SOLITAIRE_TERRAIN} terrain cards dealt from {len(mainline_inventory(catalog))}, of which {grades} is a Heavy Grade" in why


def test_the_solitaire_mainline_deals_as_many_terrain_cards_as_the_note_says() -> None:
    game = new_game(seed=0, terrain=None)
    assert sum(slot.kind == "terrain" for slot in game.state.mainline) == SOLITAIRE_TERRAIN


def test_a_held_card_is_described_by_its_own_action(catalog: Catalog) -> None:
    why = unplayed_because(catalog, catalog.by_id["flying-switch"])
    assert why is not None and "turnout" in why and "(x, y)" not in why


def test_an_industry_names_its_lockout_partner(catalog: Catalog) -> None:
    why = unplayed_because(catalog, catalog.by_id["coal-mine"])
    assert why is not None and "Power Plant" in why and "stub" in why


def test_an_attack_says_it_waits_for_what_it_acts_on(catalog: Catalog) -> None:
    why = unplayed_because(catalog, catalog.by_id["trackage-rights"])
    assert why is not None and "only at a rival" in why and "an Extra you played, standing at a rival's Office" in why


def test_a_defence_names_the_attacks_it_answers(catalog: Catalog) -> None:
    why = unplayed_because(catalog, catalog.by_id["deed-of-title"])
    assert why is not None and "Eminent Domain" in why and "a rival plays" in why


@pytest.mark.sim  # plays the site's games
def test_every_card_the_games_with_rivals_never_played_is_kept_out_by_a_rule(catalog: Catalog) -> None:
    from generator.stationmaster.simulation import simulation_rivals_context

    context = simulation_rivals_context(catalog)
    never = [n["name"] for seating in context["seatings"] for n in seating["never_played"] if n["why"] is None]
    assert never == [], f"never played with rivals, and no rule says why: {never}"


@pytest.mark.parametrize("card", ["straight", "train-1", "extra-5", "station"])
def test_a_card_no_rule_keeps_out_of_play_has_no_excuse(catalog: Catalog, card: str) -> None:
    assert unplayed_because(catalog, catalog.by_id[card]) is None


@pytest.mark.sim  # plays the site's games
def test_every_card_the_sites_games_never_played_is_kept_out_by_a_rule(catalog: Catalog) -> None:
    context = simulation_context(catalog)
    never = [(table["value"], n["name"]) for table in context["configurations"] for n in table["never_played"] if n["why"] is None]
    assert never == [], f"never played, and no rule says why (a bot that finds no use for a card): {never}"
    for table in context["configurations"]:
        dead = {r["card"] for r in table["rows"] if r["dead_rate"] == 100}
        assert dead <= {n["card"] for n in table["never_played"]}


class _Figures:
    def __init__(self, card: str, drawn: int, dead: int) -> None:
        self.id, self.name, self.drawn, self.dead = card, card.title(), drawn, dead
        self.played = drawn - dead

    def dead_percent(self) -> int | None:
        return round(100 * self.dead / self.drawn) if self.drawn else None


class _Report:
    games = 2

    def __init__(self) -> None:
        self.cards = {"a": _Figures("a", 4, 4), "b": _Figures("b", 4, 1), "c": _Figures("c", 2, 2)}

    def score_values(self) -> tuple[int, ...]:
        return ()

    def first_seats(self) -> tuple[int, ...]:
        return (0,) * self.games

    def to_text(self) -> str:
        return ""

    def to_json(self) -> str:
        return ""


def test_the_shared_table_lists_every_card_never_played_with_the_packs_reason() -> None:
    plan = SiteSimulation(2, 1, "greedy", 1, "rule", "Rule", (Option("x", "X", True, {}),))
    context = build_simulation_context(plan, lambda option: _Report(), {"a": "a rule"}.get)
    table = context["configurations"][0]
    assert len(table["rows"]) == 1, "the table shows its top rows only"
    assert table["never_played"] == [{"card": "a", "name": "A", "why": "a rule"}, {"card": "c", "name": "C", "why": None}]
    assert build_simulation_context(plan, lambda option: _Report())["configurations"][0]["never_played"][1]["why"] is None


def test_the_page_says_so_when_no_rule_does() -> None:
    from generator.render import environment

    env = environment("stationmaster")
    context = {
        "games": 2,
        "seed": 1,
        "bot": "greedy",
        "top": 1,
        "rule": {"id": "r", "name": "R"},
        "configurations": [
            {"value": "x", "value_name": "X", "is_default": True, "rows": [], "never_played": [{"card": "a", "name": "A", "why": None}, {"card": "b", "name": "B", "why": "it is rare"}]}
        ],
    }
    text = env.get_template("simulation.md.j2").render(**context, link=lambda card, name: name)
    assert f"- A: {FALLBACK}" in text and "- B: it is rare." in text
    assert "--bot greedy" in text, "the command shown reproduces the table's bot"
