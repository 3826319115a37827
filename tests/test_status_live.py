"""Every card the site calls ``live`` is really played in a scenario, and the
trace of handlers shows its handler ran. A card claimed live whose handler
never runs, or that has no scenario here, fails."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.stationmaster.rules.actions import Action, Draw, EndTurn, FlyingSwitch, Hold, Play, RedFlag, SortCars
from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Card, Catalog
from engine.effects.registry import trace
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car, Square, Train
from engine.stationmaster.rules.status import card_effect, card_status

CATALOG = load_catalog(Path(__file__).resolve().parent.parent / "content" / "stationmaster")


def _ready(catalog: Catalog, card: Card, *, terrain: str | None = None, **house: str) -> Game:
    """A solitaire game at its first turn, with ``card`` in hand and, if asked,
    ``terrain`` at the first Mainline terrain position."""
    game = Game(catalog, players=1, seed=7, house_rules=house)
    for slot in list(game.state.pending_grades):
        game.apply(game.legal_actions()[0])
    if card.family != "mainline":  # terrain is dealt onto the Mainline, not into a hand
        game.state.hands[0].append(card.id)
    if terrain is not None:
        game.state.mainline[1].card = terrain
        game.state.mainline[1].uphill = "east"
    return game


def _train_at(game: Game, position: int, cars: int = 2) -> Train:
    train = Train("test-train", "train-3", None, "east", position, [Car("boxcar", True) for _ in range(cars)], True, remaining=1)
    game.state.trains.append(train)
    return train


def _play_on_slot(terrain: str, prepare: Callable[[Game], None] = lambda g: None) -> Callable[[Catalog, Card], tuple[Game, Action]]:
    def scenario(catalog: Catalog, card: Card) -> tuple[Game, Action]:
        game = _ready(catalog, card, terrain=terrain)
        prepare(game)
        if card.play_option == "draw":  # the grade cards and Realignment
            game.apply(Draw(0, "deck"))
        return game, Play(0, card.id, slot=1)

    return scenario


def _second_section(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = _ready(catalog, card)
    game.state.timetable[game.state.stage - 1] = "train-3"
    return game, Play(0, card.id, train="train-3")


def _red_flag(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = _ready(catalog, card)
    _train_at(game, 1)
    return game, RedFlag(0, train="test-train")


def _sort_cars(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = _ready(catalog, card, terrain="interchange")
    _train_at(game, 1)
    return game, SortCars(0, train="test-train", order=(1, 0))


OFFICE_SLOT = 2  # in a one-district game: West DP, terrain, Office, terrain, East DP


def _modifier(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = _ready(catalog, card)
    if card.hosts != "office":  # type: ignore[attr-defined]
        host = "packing-sheds" if card.hosts == "anyFreight" else card.hosts[0]  # type: ignore[attr-defined]
        game.state.districts[0].squares["0,-1"] = Square(host, "facility", laborers=1, pipeline=[0, 0, 0])
        return game, Play(0, card.id, x=0, y=-2)
    return game, Play(0, card.id, x=0, y=-1)


def _standing(game: Game, card_id: str, *, loaded: bool = True, cars: int = 2) -> Train:
    train = Train(f"{card_id}-test", card_id, 0, "east", OFFICE_SLOT, [Car("coach" if card_id == "extra-17" else "flatcar", loaded) for _ in range(cars)], True)
    game.state.trains.append(train)
    return train


def _pays_for_stopping(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = _ready(catalog, card)
    game.state.hands[0].remove(card.id)
    train = _standing(game, card.id)
    game.apply(Hold(0, train=train.id))
    return game, EndTurn(0)  # the Mainline Phase in which it stands still


def _small_yard(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = _ready(catalog, card)
    game.apply(Play(0, card.id, x=0, y=0))
    game.apply(EndTurn(0))  # sorting is a switching move: the next turn's Switch option
    _standing(game, "train-3", cars=2)
    return game, SortCars(0, train="train-3-test", order=(1, 0))


def _interlocking(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = _ready(catalog, card, startingOffice="whistle-post")
    game.apply(Play(0, card.id, x=0, y=0))
    _standing(game, "train-3").held = 2  # it stays on the Whistle Post's one A/D track
    arriving = Train("arriving", "train-5", None, "east", OFFICE_SLOT - 1, [], True, remaining=1)
    game.state.trains.append(arriving)
    return game, EndTurn(0)


def _division_yard(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = _ready(catalog, card, extraStart="divisionPointsOnly")
    game.apply(Play(0, card.id, x=0, y=0))
    game.apply(EndTurn(0))
    game.state.hands[0].append("extra-5")
    return game, Play(0, "extra-5", slot=OFFICE_SLOT, heading="east")


def _flying_switch(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """A trailing-point turnout east of the Office: its diverging leg runs
    back south-west to a siding that no train can run into from the Office,
    but a car cut off on the move can roll down to it."""
    game = _ready(catalog, card)
    squares = game.state.districts[0].squares
    squares["1,0"] = Square("turnout-left", "track", rotation=180)
    squares["0,1"] = Square("curve-left", "track")
    squares["-1,1"] = Square("straight", "track")
    _standing(game, "train-3", loaded=False, cars=2)
    from engine.stationmaster.rules.switching import reachable

    assert "-1,1" not in reachable(game, game.state.districts[0])
    return game, FlyingSwitch(0, train="train-3-test", x=-1, y=1)


SCENARIOS: dict[str, Callable[[Catalog, Card], tuple[Game, Action]]] = {
    "flying-switch": _flying_switch,
    "add-capacity": _modifier,
    "pays-for-stopping": _pays_for_stopping,
    "small-yard": _small_yard,
    "interlocking": _interlocking,
    "division-yard": _division_yard,
    "grade-brakeman": _play_on_slot("heavy-grade"),
    "grade-helpers": _play_on_slot("heavy-grade"),
    "grade-airbrakes": _play_on_slot("heavy-grade", lambda g: g.state.mainline[1].modifiers.append("brakeman")),
    "realignment": _play_on_slot("plains"),
    "abs-signals": _play_on_slot("tunnel"),
    "second-section": _second_section,
    "red-flag": _red_flag,
    "sort-cars": _sort_cars,
}



def _scenarios_beside_their_effects() -> dict[str, Callable[[Catalog, Card], tuple[Game, Action]]]:
    """An effect's scenario may live with the effect's own tests: every
    ``tests/test_effect_*.py`` names its ``EFFECT`` and defines ``scenario``,
    so adding an effect needs no edit here."""
    found = {}
    for path in sorted(Path(__file__).resolve().parent.glob("test_effect_*.py")):
        module = importlib.import_module(path.stem)
        assert module.EFFECT not in SCENARIOS, f"{path.name}: the scenario for '{module.EFFECT}' is written twice"
        found[module.EFFECT] = module.scenario
    return found


SCENARIOS.update(_scenarios_beside_their_effects())

LIVE = [card for card in CATALOG.cards if card_status(CATALOG, card) == "live"]


def test_some_cards_are_live() -> None:
    assert LIVE, "no card is live: the handler registry is empty or unreachable"


@pytest.mark.parametrize("card", LIVE, ids=[c.id for c in LIVE])
def test_live_card_handler_runs_when_played(card: Card) -> None:
    effect = card_effect(card)
    assert effect is not None
    scenario = SCENARIOS.get(effect)
    assert scenario is not None, f"card '{card.id}' is shown live, but no scenario here plays it (effect '{effect}')"
    game, action = scenario(CATALOG, card)
    assert game.check(action) == [], f"the scenario's action is refused: {game.check(action)}"
    with trace() as ran:
        game.apply(action)
    assert effect in ran, f"playing '{card.id}' did not run the '{effect}' handler (ran: {ran})"


def test_scenarios_cover_only_registered_effects() -> None:
    from engine.stationmaster.effects import load_handlers

    stale = sorted(set(SCENARIOS) - set(load_handlers()))
    assert not stale, f"scenarios for effects with no handler: {stale}"
