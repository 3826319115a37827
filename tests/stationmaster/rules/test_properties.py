"""Properties over many random games (a seeded loop: 150 whole games, five
times as many under `make fuzz-deep`, every
house-rule configuration, one to four players, the bot choosing among
``legal_actions()``).

After every action the census equals the dealt deck: no card is lost or
duplicated. Every action ``legal_actions()`` offers is accepted by ``apply``
(checked exhaustively at sampled moments on copies of the game). A random
illegal action is refused with IllegalActionError and leaves ``state_json()``
byte-identical.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

from engine.errors import IllegalActionError
from engine.stationmaster.content.model import Catalog, TrainCard
from engine.stationmaster.rules import dispatch as rules
from engine.stationmaster.rules.actions import Action, Answer, Attack, ChooseGrade, Decline, Discard, Draw, EndTurn, Play, RedFlag, SortCars
from engine.stationmaster.rules.deck import home_deck
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.houserules import configurations
from engine.stationmaster.rules.switching import train_district
from tests.kit.fuzz import multiplier
from tests.kit.stationmaster import CATALOG, codes

# Hundreds of random whole games: the fuzz tier, not the quick loop.
pytestmark = pytest.mark.fuzz

CONFIGS = configurations(CATALOG)
EXTRAS = [c.id for c in CATALOG.of_type(TrainCard) if c.service == "extra"]

GAMES = 150 * multiplier()
CHUNKS = 6
ILLEGAL_EVERY = 10  # about one step in ten gets an illegal action thrown at it
JSON_SHARE = 6  # of those, one in six compares state_json() itself
EXHAUSTIVE_EVERY = 150  # about one step in 150: every legal action is applied to a copy


class Twin:
    """A second Game with the same seed and rules, reset to a snapshot of the
    real one before each trial action (pickling the plain-data state is far
    cheaper than building a Game or deep-copying)."""

    def __init__(self, game: Game) -> None:
        self.game = Game(CATALOG, players=game.state.players, seed=game.seed, house_rules=game.rules)

    def snapshot(self, game: Game) -> tuple[bytes, object, list[Action]]:
        return pickle.dumps(game.state), game.rng._random.getstate(), list(game.history)

    def restore(self, snap: tuple[bytes, object, list[Action]]) -> Game:
        state, rng, history = snap
        self.game.state = pickle.loads(state)
        self.game.rng._random.setstate(rng)  # type: ignore[arg-type]
        self.game.history = list(history)
        return self.game


def illegal_actions(game: Game, legal: list[Action]) -> list[Action]:
    """Well-formed actions the rules should refuse now."""
    s = game.state
    pool = [a for a in rules.candidates(game) if a not in legal]
    p = game.to_act
    others = [q for q in range(s.players) if q != p]
    for q in others:  # somebody else's turn, or somebody else's answer
        pool += [EndTurn(q), Draw(q, "deck"), Decline(q), Answer(q, "arbitration")]
        pool += [Discard(q, c, 1) for c in s.hands[q][:1]]
    pool += [Discard(p, x, 1) for x in EXTRAS]  # an Extra is never discarded
    pool += [Play(p, "strike"), RedFlag(p, train="no-such-train"), SortCars(p, train="no-such-train", order=())]
    pool += [Attack(p, "strike", rival=p, x=0, y=0), Attack(p, "washout", slot=0), Answer(p, "strike"), Play(p, "wrecking-crew")]
    if s.phase != "setup":
        pool.append(ChooseGrade(0, slot=0, uphill="east"))
    if s.turn.drawn or s.turn.played:
        pool.append(Draw(p, "deck"))  # from an earlier turn state
    return pool


CARS = sum(n for _, n in CATALOG.supplies.cars)


def check_supplies(game: Game, seed: int) -> None:
    """Crew Trays and cabooses are pieces: each is free or on a train (a train
    waiting in an Engine House holds no tray, and is held where it stands);
    cars are never created; train ids are unique; a train between nodes is
    on terrain."""
    s = game.state
    assert s.crew_trays_free + sum(t.crew_tray for t in s.trains) == CATALOG.supplies.crew_trays, f"seed {seed}: Crew Trays"
    assert all(t.held > 0 for t in s.trains if not t.crew_tray), f"seed {seed}: a train without a Crew Tray is not held"
    standing = sum(1 for d in s.districts for square in d.squares.values() if square.caboose_of)
    assert s.cabooses_free + sum(t.caboose for t in s.trains) + standing == CATALOG.supplies.cabooses, f"seed {seed}: cabooses"
    for d in s.districts:  # a caboose set out belongs to a train still waiting at that Office
        for square in d.squares.values():
            if square.caboose_of:
                owner = next((t for t in s.trains if t.id == square.caboose_of), None)
                assert owner is not None and train_district(game, owner) is d, f"seed {seed}: stranded caboose"
    assert sum(len(slot.yard) for slot in s.mainline) + sum(len(t.cars) for t in s.trains) <= CARS, f"seed {seed}: cars"
    assert len({t.id for t in s.trains}) == len(s.trains), f"seed {seed}: train ids"
    for t in s.trains:
        assert t.remaining >= 0 and t.held >= 0
        assert t.remaining == 0 or s.mainline[t.position].kind == "terrain"


def run_game(seed: int) -> dict[str, int]:
    config = CONFIGS[seed % len(CONFIGS)]
    players = 1 + (seed // len(CONFIGS) + seed) % 4
    game = Game(CATALOG, players=players, seed=seed, house_rules=config)
    dealt = Counter(card.id for card in home_deck(CATALOG, game.rules, game.state.players))
    pick = random.Random(f"test:{seed}")
    twin = Twin(game)
    stats: Counter[str] = Counter()
    assert game.census() == dealt
    while not game.is_over():
        legal = game.legal_actions()
        assert legal, f"seed {seed}: no legal action, but the game is not over ({game.state.turn}, {game.state.hands[game.to_act]})"
        if pick.randrange(EXHAUSTIVE_EVERY) == 0:
            snap = twin.snapshot(game)
            for action in legal:
                trial = twin.restore(snap)
                trial.apply(action)
                assert trial.census() == dealt, f"seed {seed}: {action} changed the census"
                stats["exhaustive"] += 1
        if pick.randrange(ILLEGAL_EVERY) == 0:
            pool = illegal_actions(game, legal)
            action = pick.choice(pool)
            # byte-identical state_json on a share of the samples; the pickled
            # state (the same plain data, much cheaper to take) on all of them
            as_json = pick.randrange(JSON_SHARE) == 0
            before = game.state_json() if as_json else pickle.dumps(game.state)
            reasons = game.check(action)
            assert reasons, f"seed {seed}: {action} should be refused"
            with pytest.raises(IllegalActionError) as err:
                game.apply(action)
            assert list(err.value.reasons) == reasons
            assert game.legal_actions() == legal, "judging actions must not change the game"
            after = game.state_json() if as_json else pickle.dumps(game.state)
            assert after == before, f"seed {seed}: refused {action} changed the state"
            stats["illegal"] += 1
            stats["illegal-json"] += as_json
        action = game.bot.choice(legal)
        game.apply(action)
        stats["actions"] += 1
        stats[action.kind] += 1
        assert game.census() == dealt, f"seed {seed}: after {action} the census is {game.census() - dealt} over / {dealt - game.census()} under"
        assert game.history[-1] == action
        check_supplies(game, seed)
    assert game.legal_actions() == []
    assert codes(game.check(EndTurn(0))) == ["game-over"]
    assert len(game.score()) == players
    if seed % 10 == 0:
        assert Game.replay(CATALOG, game.save()).state_json() == game.state_json(), f"seed {seed}: the replay differs"
    stats["games"] += 1
    return stats


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_card_and_every_rule(chunk: int) -> None:
    size = GAMES // CHUNKS
    total: Counter[str] = Counter()
    for seed in range(chunk * size, (chunk + 1) * size):
        total.update(run_game(seed))
    assert total["games"] == size
    # the walk really exercised the game, not just EndTurn
    for kind in ("draw", "play", "discard", "endTurn"):
        assert total[kind] > 0, total
    assert total["illegal"] > 500 and total["illegal-json"] > 50 and total["exhaustive"] > 100, total


def test_the_walk_reaches_the_interesting_rules(catalog: Catalog) -> None:
    """Across a handful of games the bot plays trains, Extras and Mainline cards,
    and the deck is rebuilt at least once: the property loop is not vacuous."""
    seen: Counter[str] = Counter()
    for seed in range(40):
        game = Game(catalog, players=1 + seed % 4, seed=seed)
        while not game.is_over():
            action = game.bot.choice(game.legal_actions())
            game.apply(action)
            if isinstance(action, Play):
                seen[catalog.by_id[action.card].family] += 1
            seen[action.kind] += 1
        seen["rebuilt"] += sum("ran out" in line for line in game.state.log)
        seen["departed"] += sum(" departs " in line for line in game.state.log)
    assert seen["trains"] and seen["offices"] and seen["mainline-modifiers"], seen
    assert seen["departed"] > 0, seen
    assert seen["attack"] and seen["decline"], seen  # the games with rivals attack, and open response windows


def test_deck_hungry_games_rebuild_the_deck_and_keep_every_card(catalog: Catalog) -> None:
    """The random walk rarely empties the Home Office deck; a bot that always
    draws from the deck does, so the rebuild runs under the census check too."""
    rebuilt = 0
    for seed in range(24):
        config = CONFIGS[seed % len(CONFIGS)]
        game = Game(catalog, players=3 + seed % 2, seed=1000 + seed, house_rules=config)
        dealt = Counter(card.id for card in home_deck(catalog, game.rules, game.state.players))
        while not game.is_over():
            legal = game.legal_actions()
            from_deck = [a for a in legal if isinstance(a, Draw) and a.source == "deck"]
            action = from_deck[0] if from_deck else game.bot.choice(legal)
            game.apply(action)
            assert game.census() == dealt, f"seed {1000 + seed}: after {action}"
            assert all(game.state.departments) or not (game.state.deck or game.state.salvage)
        rebuilt += sum("ran out" in line for line in game.state.log)
        # a spent timetabled train is never back in circulation
        circulating = set(game.state.deck) | {c for p in game.state.departments for c in p}
        assert not circulating & {t for t in game.state.timetable if t}
    assert rebuilt > 0
