"""The engine's fast path: ``apply`` trusts an action the game itself has just
proposed and judged legal in the very position it is in, and proposals are
built only when a pick draws them. What must not change: anything else is
judged in full (a stale proposal, a forged or altered one, a typed action, a
replayed save), ``check`` lists every reason, and a seeded game picks what it
picked before, drawing the same numbers from its stream."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalActionError, Reason
from engine.rng import SeededStream
from engine.stationmaster.bots import greedy_bot
from engine.stationmaster.content.model import Catalog, Facility, TrackShape
from engine.stationmaster.rules import dispatch as rules
from engine.stationmaster.rules.actions import Action, Discard, Draw, EndTurn, Play, from_json
from engine.stationmaster.rules.district import placement_candidates
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.play import card_play_reasons
from engine.stationmaster.rules.proposals import Proposals, proposals
from tests.kit.project import PROJECT_ROOT as CATALOG_ROOT
from tests.kit.stationmaster import CATALOG, new_game, set_hand_and_draw
from tests.kit.walk import random_walk


@contextmanager
def judgements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Action]]:
    """Every action the rules judge while the block runs (through ``check``,
    or through a bot's verdict), in order; a ``check`` counts twice (its
    well-formedness, then the rules)."""
    seen: list[Action] = []
    real_reasons, real_judged = rules.reasons, rules.judged

    def reasons(game: Game, action: Action) -> list[Reason]:
        seen.append(action)
        return real_reasons(game, action)

    def judged(game: Game, action: Action, **how: Any) -> list[Reason]:
        seen.append(action)
        return real_judged(game, action, **how)

    with monkeypatch.context() as patch:
        patch.setattr(rules, "reasons", reasons)
        patch.setattr(rules, "judged", judged)
        yield seen


def _played(seed: int, steps: int, players: int = 1) -> Game:
    return random_walk(Game(CATALOG, players=players, seed=seed), steps)


# -- apply trusts what the game just proposed -----------------------------------


@pytest.mark.parametrize("seed", [0, 5, 11])
def test_apply_does_not_judge_again_an_action_random_legal_action_just_picked(catalog: Catalog, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(catalog, players=2, seed=seed)
    for _ in range(60):
        action = game.random_legal_action()
        assert action is not None
        with judgements(monkeypatch) as seen:
            game.apply(action)
        assert seen == [], f"apply judged {seen} again"


def test_apply_does_not_judge_again_an_action_from_legal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _played(3, 10, players=2)
    offered = game.legal_actions()
    with judgements(monkeypatch) as seen:
        game.apply(offered[-1])
    assert seen == []


def test_apply_does_not_judge_again_the_greedy_bots_pick(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _played(4, 6, players=2)
    for _ in range(8):
        action = greedy_bot(game)
        assert action is not None
        with judgements(monkeypatch) as seen:
            game.apply(action)
        assert seen == []


def test_an_action_built_by_the_caller_is_judged_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Equal to the one the game proposed, but not it: typed by a person or
    read from a save, it goes through ``check`` as it always did."""
    game = new_game(seed=2)
    proposed = game.random_legal_action()
    assert proposed is not None
    typed = from_json(proposed.to_json())  # as a save's replay reads it
    assert typed == proposed and typed is not proposed
    with judgements(monkeypatch) as seen:
        game.apply(typed)
    assert seen and all(action is typed for action in seen)


# -- what is still refused -------------------------------------------------------


def test_a_proposal_from_an_earlier_position_is_judged_again_and_refused() -> None:
    game = new_game(seed=1)
    draw = Draw(0, "deck")
    assert draw in game.legal_actions()
    drawn = next(a for a in game.legal_actions() if a == draw)
    game.apply(drawn)
    # the very object, proven legal one action ago: a second Draw is refused
    with pytest.raises(IllegalActionError) as refused:
        game.apply(drawn)
    assert [r.code for r in refused.value.reasons] == ["draw-taken"]
    assert list(refused.value.reasons) == game.check(drawn)


def test_a_proposal_on_a_copy_of_the_game_is_judged_there_once_the_copy_moved_on() -> None:
    """A copy starts in the same position, and what the original proved holds
    there too; once the copy has moved on, it judges the old proposal, and
    refuses it."""
    game = new_game(seed=1)
    drawn = next(a for a in game.legal_actions() if a == Draw(0, "deck"))
    twin = game.copy()
    twin.apply(Draw(0, "deck"))
    with pytest.raises(IllegalActionError) as refused:
        twin.apply(drawn)
    assert [r.code for r in refused.value.reasons] == ["draw-taken"]


def test_a_proposal_altered_after_it_was_proposed_is_judged_with_its_new_fields() -> None:
    """A frozen action can still be changed by force: the record keeps what
    its fields held, so the altered one is judged, and refused, in full."""
    game = new_game(players=2, seed=3)
    end = game.random_legal_action()
    while not isinstance(end, EndTurn):
        assert end is not None
        game.apply(end)
        end = next((a for a in game.legal_actions() if isinstance(a, EndTurn)), None) or game.random_legal_action()
    mover = end.player
    object.__setattr__(end, "player", 1 - mover)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(end)
    assert "not-your-turn" in [r.code for r in refused.value.reasons]
    assert list(refused.value.reasons) == game.check(end)


def test_check_still_gives_every_reason_for_a_proposal_a_pick_refused_early() -> None:
    """A bot's pick stops at the first refusal of a card from the hand; the
    player asking ``check`` gets all of them."""
    game = new_game(seed=0)
    set_hand_and_draw(game, "straight", "straight")
    game.apply(Discard(0, "straight", 1))
    play = Play(0, "straight", x=50, y=3, rotation=0)  # far outside the Limits, after a discard
    codes = [r.code for r in game.check(play)]
    assert "discarded-this-turn" in codes and "outside-limits" in codes
    assert rules.judged(game, play, verdict=True)  # refused, whatever it stopped at


# -- the same games as before ----------------------------------------------------


def _reference_pick(game: Game, pool: list[Action], stream: SeededStream) -> Action | None:
    """The pick as it was: every proposal built, each drawn judged in full by
    ``check``, the refused one swapped for the last."""
    while pool:
        i = stream.below(len(pool)) if len(pool) > 1 else 0
        if not game.check(pool[i]):
            return pool[i]
        pool[i] = pool[-1]
        pool.pop()
    return None


@settings(max_examples=30, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(1, 3), steps=st.integers(0, 120))
def test_a_pick_from_the_lazy_proposals_is_the_pick_from_the_full_list(seed: int, players: int, steps: int) -> None:
    """In any position, the lazy pool and the verdict-only judging pick the
    action the full list and ``check`` pick, leaving the stream at the same
    point: a seeded game replays as before."""
    game = _played(seed, steps, players)
    if game.is_over():
        return
    full = rules.candidates(game)
    assert proposals(game).materialised() == full
    ours, theirs = game.bot.copy(), game.bot.copy()
    picked = game.first_legal(proposals(game), ours)
    expected = _reference_pick(game, list(full), theirs)
    assert picked == expected
    assert ours.below(2**30) == theirs.below(2**30)


def _item(items: list[Action], base: int, k: int) -> Action:
    return items[base + k]


@settings(max_examples=40, derandomize=True, deadline=None)
@given(size=st.integers(1, 40), refused=st.sets(st.integers(0, 39)), seed=st.integers(0, 1000))
def test_the_lazy_pool_draws_and_drops_as_a_list_does(size: int, refused: set[int], seed: int) -> None:
    """Runs of any length, items refused at will: the same pick, the same draws."""
    items: list[Action] = [EndTurn(i) for i in range(size)]
    pool = Proposals()
    at = 0
    for length in (3, 0, 7, 1, 100):
        take = min(length, size - at)
        pool.add(take, partial(_item, items, at))
        at += take
    assert pool.materialised() == items

    def refuses(action: Action) -> bool:
        return action.player in refused

    ours, theirs = SeededStream(seed), SeededStream(seed)
    listed: list[Action] = list(items)
    expected = None
    while listed:
        i = theirs.below(len(listed)) if len(listed) > 1 else 0
        if not refuses(listed[i]):
            expected = listed[i]
            break
        listed[i] = listed[-1]
        listed.pop()
    assert pool.first_legal(refuses, ours) == expected
    assert ours.below(2**30) == theirs.below(2**30)


def test_a_determinized_copy_judges_everything() -> None:
    """The hidden cards dealt afresh make another position: nothing the
    original proved is trusted there."""
    game = _played(6, 12, players=2)
    proposed = game.random_legal_action()
    assert proposed is not None
    assert game._proven.holds(game.state, len(game.history), proposed)
    twin = game.copy()
    assert twin._proven.holds(twin.state, len(twin.history), proposed)
    other = game.determinized(SeededStream(1))
    assert not other._proven.holds(other.state, len(other.history), proposed)


@pytest.mark.parametrize(("seed", "players"), [(0, 1), (8, 2), (13, 3)])
def test_a_game_played_on_the_fast_path_replays_from_its_save(catalog: Catalog, seed: int, players: int) -> None:
    """The save of a bot game, replayed (every action judged in full),
    gives the same game, byte for byte."""
    game = _played(seed, 10_000, players)
    assert game.is_over()
    again = Game.loads(catalog, game.dumps())
    assert again.state_json() == game.state_json()
    assert again.dumps() == game.dumps()


# -- Trick of the Rails keeps the same record -------------------------------------


def _totr() -> tuple[Any, Any]:
    from engine.trickoftherails import load_catalog
    from engine.trickoftherails.rules.game import Game as RailsGame

    return RailsGame, load_catalog(CATALOG_ROOT / "content" / "trickoftherails")


def test_trick_of_the_rails_applies_its_own_pick_unjudged_and_judges_an_altered_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.trickoftherails.rules import dispatch as rails_rules

    RailsGame, catalog = _totr()
    game = RailsGame(catalog, 3, 7)
    calls: list[object] = []
    real = rails_rules.reasons

    def counted(game: object, action: object) -> list[Reason]:
        calls.append(action)
        return real(game, action)  # type: ignore[arg-type]

    for _ in range(30):
        action = game.random_legal_action()
        monkeypatch.setattr(rails_rules, "reasons", counted)
        game.apply(action)
        monkeypatch.setattr(rails_rules, "reasons", real)
        assert calls == []
    # a card played by force in another player's name is judged, and refused
    picked = game.random_legal_action()
    object.__setattr__(picked, "player", (picked.player + 1) % 3)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(picked)
    assert list(refused.value.reasons) == game.check(picked)


def test_trick_of_the_rails_judges_a_pick_from_an_earlier_position() -> None:
    RailsGame, catalog = _totr()
    game = RailsGame(catalog, 4, 2)
    first = game.random_legal_action()
    game.apply(first)
    with pytest.raises(IllegalActionError):
        game.apply(first)  # the card has left the hand; the same player may not act again


# -- the stream: below draws what randrange draws --------------------------------


def test_below_draws_the_numbers_randrange_draws() -> None:
    """``below`` takes a shortcut past ``randrange``; every seeded pick rests
    on it drawing the same numbers from the stream in the same order."""
    import random

    ours, theirs = SeededStream(7, "/bot"), random.Random("7/bot")
    for n in [1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 100, 2**20 + 1, 2**62] * 40:
        assert ours.below(n) == theirs.randrange(n)
    assert ours.copy().below(1000) == theirs.randrange(1000)


@pytest.mark.parametrize("n", [0, -3])
def test_below_refuses_an_empty_range(n: int) -> None:
    with pytest.raises(ValueError):
        SeededStream(1).below(n)


# -- where a train can reach, kept between asks --------------------------------


def test_reachable_kept_on_the_game_follows_every_change_of_the_squares(catalog: Catalog) -> None:
    """The kept answer is the answer worked out afresh, in every position of
    seeded games and after cars, a caboose or a turned card change a square
    behind the engine's back (nothing relies on who changed it)."""
    from dataclasses import replace

    from engine.stationmaster.rules.state import Car
    from engine.stationmaster.rules.switching import _reachable, reachable

    checked = 0
    for seed in range(8):
        game = Game(catalog, players=2, seed=seed)
        while not game.is_over() and len(game.history) < 150:
            for district in game.state.districts:
                for kick in (False, True):
                    assert reachable(game, district, kick=kick) == _reachable(game, district, kick)
                    checked += 1
            action = game.random_legal_action()
            assert action is not None
            game.apply(action)
        district = game.state.districts[0]
        reachable(game, district)
        for where, square in sorted(district.squares.items()):
            if where == "0,0":
                continue
            square.cars.append(Car("boxcar", loaded=False))
            assert reachable(game, district) == _reachable(game, district, False)
            square.cars.pop()
            square.caboose_of = "t"
            assert reachable(game, district) == _reachable(game, district, False)
            square.caboose_of = None
            district.squares[where] = replace(square, rotation=180 - square.rotation)
            assert reachable(game, district) == _reachable(game, district, False)
            district.squares[where] = square
            assert reachable(game, district) == _reachable(game, district, False)
    assert checked > 1000


def test_a_verdict_on_a_placement_is_the_full_judgements() -> None:
    """Asked only whether a card may go on a square, the placement rules stop
    at the first reasons found: reasons the full judgement gives too, and
    some whenever it gives any."""
    asked = 0
    for seed, steps in ((3, 40), (7, 120), (15, 200)):
        game = _played(seed, steps, players=2)
        for player in range(2):
            for card in (c for c in CATALOG.cards if isinstance(c, (TrackShape, Facility))):
                for x, y, rotation in placement_candidates(game, player, card) + [(9, 0, 0), (0, 0, 0), (1, -1, 180)]:
                    play = Play(player, card.id, x=x, y=y, rotation=rotation)
                    full = card_play_reasons(game, card, play)
                    verdict = card_play_reasons(game, card, play, verdict=True)
                    assert bool(verdict) == bool(full) and set(verdict) <= set(full), (card.id, x, y, rotation)
                    asked += 1
    assert asked > 300
