"""Properties of districts over many random solitaire games.

Each game runs ``game.random_legal_action()`` to the end (every house-rule
configuration in turn, a different seed each game). After every action:

- the census equals the dealt deck (no card lost or duplicated by building,
  replacing or salvaging);
- every district square is strictly inside its Limits;
- every Running Track (row 0) square carries an east-west route;
- every square carrying rail is joined, rail to rail, to the Office (each
  card joined existing rail when laid, and an upgrade keeps the rails the
  replaced card carried);
- no district holds two of one industry or both ends of a lockout pair;
- no square holds more cars than a track does (content: carsPerTrack);
- every Modifier stands orthogonally beside its host, off row 0;
- every industry keeps its MEN | AT | WORK pipeline.

A second, smaller batch biases the same random player towards building and
switching (of a few random legal actions it takes a Play, Spot or Pull if
there is one), so districts grow larger than uniform play lets them.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.stationmaster.content.model import Catalog, Facility
from engine.stationmaster.rules.district import routes_of
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import DELTA, OPPOSITE, ORTHOGONAL, coords, has_through_route, key, neighbour, ports
from engine.stationmaster.rules.houserules import configurations
from tests.kit.stationmaster import CATALOG, dealt

CONFIGS = configurations(CATALOG)
CARS_PER_TRACK = CATALOG.game.table.cars_per_track
PIPELINE = len(CATALOG.facility_start.pipeline)

GAMES = 200
BUILDER_GAMES = 60
CHUNKS = 4
BUILDER_TRIES = 6
MAX_ACTIONS = 5000  # a game that has not ended by then is stuck


def joined_to_office(game: Game, district) -> set[str]:  # type: ignore[no-untyped-def]
    """Squares linked to the Office by mutually joined rails."""
    found, todo = {key(0, 0)}, [key(0, 0)]
    while todo:
        here = todo.pop()
        x, y = coords(here)
        for port in ports(routes_of(game, district.squares[here])):
            there = key(*neighbour(x, y, port))
            other = district.squares.get(there)
            if there not in found and other is not None and OPPOSITE[port] in ports(routes_of(game, other)):
                found.add(there)
                todo.append(there)
    return found


def district_problems(game: Game) -> list[str]:
    problems = []
    for district in game.state.districts:
        who = f"district {district.player}"
        linked = joined_to_office(game, district)
        industries: Counter[str] = Counter()
        for square_key, square in district.squares.items():
            x, y = coords(square_key)
            if not district.west_limit < x < district.east_limit:
                problems.append(f"{who}: {square.card} at {square_key} is outside the Limits ({district.west_limit}, {district.east_limit})")
            if y == 0 and not has_through_route(routes_of(game, square)):
                problems.append(f"{who}: {square.card} at {square_key} breaks the Running Track")
            if square.kind != "modifier" and square_key not in linked:
                problems.append(f"{who}: {square.card} at {square_key} is not joined to the Office's rails")
            if len(square.cars) > CARS_PER_TRACK:
                problems.append(f"{who}: {len(square.cars)} cars at {square_key}")
            if square.kind == "facility":
                industries[square.card] += 1
                if len(square.pipeline) != PIPELINE:
                    problems.append(f"{who}: {square.card} pipeline {square.pipeline}")
            if square.kind == "modifier":
                beside = {f"{x + DELTA[p][0]},{y + DELTA[p][1]}" for p in ORTHOGONAL}
                host = district.squares.get(square.modifies or "")
                if y == 0 or square.modifies not in beside or host is None or host.kind not in ("facility", "office"):
                    problems.append(f"{who}: {square.card} at {square_key} beside {square.modifies}")
        for card_id, n in industries.items():
            if n > 1:
                problems.append(f"{who}: {n} x {card_id}")
            card = CATALOG.by_id[card_id]
            assert isinstance(card, Facility)
            for partner in card.lockouts:
                if partner in industries:
                    problems.append(f"{who}: lockout pair {card_id} and {partner}")
    return problems


def play_out(seed: int, *, builder: bool) -> tuple[Game, int]:
    rules = CONFIGS[seed % len(CONFIGS)]
    game = Game(CATALOG, players=1, seed=seed, house_rules=rules)
    deck = dealt(game)
    assert game.census() == deck, f"seed {seed}: census at setup"
    steps = 0
    while not game.is_over():
        action = game.random_legal_action()
        assert action is not None, f"seed {seed}: no legal action at step {steps}"
        if builder:
            for _ in range(BUILDER_TRIES):
                if action.kind in ("play", "spot", "pull"):
                    break
                other = game.random_legal_action()
                assert other is not None
                action = other
        game.apply(action)
        steps += 1
        assert game.census() == deck, f"seed {seed} {rules}: census after step {steps} ({action})"
        problems = district_problems(game)
        assert not problems, f"seed {seed} {rules}: after step {steps} ({action}): {problems}"
        assert steps < MAX_ACTIONS, f"seed {seed}: the game does not end"
    return game, steps


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_solitaire_games_keep_every_district_rule(chunk: int) -> None:
    grew = 0
    for seed in range(chunk, GAMES, CHUNKS):
        game, _ = play_out(seed, builder=False)
        grew += len(game.state.districts[0].squares) > 1
    assert grew, "no game built anything: the property exercised nothing"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_games_biased_to_build_and_switch_keep_every_district_rule(chunk: int) -> None:
    built: Counter[str] = Counter()
    for seed in range(10_000 + chunk, 10_000 + BUILDER_GAMES, CHUNKS):
        game, _ = play_out(seed, builder=True)
        built.update(sq.kind for sq in game.state.districts[0].squares.values())
        built.update(a.kind for a in game.history if a.kind in ("spot", "pull"))
    # the batch really reached the rules it is meant to watch
    assert built["track"] and built["spot"], built


def test_the_checks_catch_a_broken_district(catalog: Catalog) -> None:
    """The property is only as good as its checks: a district broken by hand
    is reported on every count."""
    from engine.stationmaster.rules.state import Car, Square

    game = Game(catalog, players=1, seed=3)
    district = game.state.districts[0]
    district.squares["5,0"] = Square("straight", "track")  # outside
    district.squares["0,0"].card = "depot"
    district.squares["0,1"] = Square("grocers-warehouse", "facility", pipeline=[0, 0, 0], cars=[Car("reefer", True)] * 5)
    district.squares["0,-1"] = Square("packing-sheds", "facility", pipeline=[0, 0, 0])
    district.squares["0,-2"] = Square("packing-sheds", "facility", pipeline=[0, 0])
    district.squares["1,1"] = Square("truck-dock", "modifier", modifies="0,-1")
    district.squares["-1,0"] = Square("curve-left", "track")
    district.squares["0,-4"] = Square("straight", "track")  # an island
    district.west_limit = -2
    found = " | ".join(district_problems(game))
    for expected in ("outside the Limits", "breaks the Running Track", "5 cars", "2 x packing-sheds", "lockout pair", "pipeline", "truck-dock at 1,1", "straight at 0,-4 is not joined"):
        assert expected in found, (expected, found)
