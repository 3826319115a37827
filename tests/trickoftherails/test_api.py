"""Trick of the Rails' game API and its inputs, rule by rule: the set-up a
game refuses, the house rules typed from a command line, actions read from
JSON, a copy that shares nothing that changes, and every card accounted
for. Each test builds its games; none reads a page."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import ConfigurationError, IllegalActionError, InvalidActionError
from engine.rng import SeededStream
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.actions import LayTrack, PlaceCity, PlaceLocomotive, Play, from_json
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.houserules import parse_assignment, resolve
from engine.trickoftherails.rules.status import card_status, variant_status

# -- setting a game up -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 6, 0, True, "3", 3.0])
def test_a_player_count_the_game_does_not_seat_is_refused(catalog: Catalog, players: object) -> None:
    with pytest.raises(ConfigurationError, match="played by 3, 4, 5 players"):
        Game(catalog, players)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [True, "1", 1.5, None])
def test_a_seed_that_is_not_a_whole_number_is_refused(catalog: Catalog, seed: object) -> None:
    with pytest.raises(ConfigurationError, match="seed must be a whole number"):
        Game(catalog, 3, seed)  # type: ignore[arg-type]


def test_the_same_seed_deals_the_same_game_and_another_seed_another(catalog: Catalog) -> None:
    one, again, other = Game(catalog, 4, seed=8), Game(catalog, 4, seed=8), Game(catalog, 4, seed=9)
    assert one.state_json() == again.state_json()
    assert one.state.hands != other.state.hands


def test_the_first_leader_is_drawn_from_the_seed(catalog: Catalog) -> None:
    leaders = {Game(catalog, 5, seed=seed).state.trick.leader for seed in range(40)}
    assert leaders == {0, 1, 2, 3, 4}
    game = Game(catalog, 3, seed=4)
    assert game.to_act == game.state.trick.leader and game.state.trick.plays == [] and game.state.phase == "play"


# -- house rules -------------------------------------------------------------------------------


def test_house_rules_default_to_the_basic_game_without_teams(catalog: Catalog) -> None:
    assert resolve(catalog, {}) == {"variant": "basic", "teams": False}
    assert Game(catalog, 4).rules == {"variant": "basic", "teams": False}


@pytest.mark.parametrize(
    ("text", "parsed"),
    [("variant=expert", ("variant", "expert")), ("variant=basic", ("variant", "basic")), (" teams = true ", ("teams", True)), ("teams=false", ("teams", False))],
)
def test_a_house_rule_is_typed_from_the_command_line(catalog: Catalog, text: str, parsed: tuple[str, object]) -> None:
    assert parse_assignment(catalog, text) == parsed


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("variant", "a house rule is KEY=VALUE"),
        ("variant=chaos", "the variants are basic, expert"),
        ("variant=teams", "the variants are basic, expert"),
        ("teams=yes", "teams is true or false"),
        ("colour=red", "'colour' is not a house rule"),
    ],
)
def test_a_bad_house_rule_says_what_is_wrong(catalog: Catalog, text: str, words: str) -> None:
    with pytest.raises(InvalidActionError, match=words):
        parse_assignment(catalog, text)


@pytest.mark.parametrize(
    ("chosen", "words"),
    [
        ({"colour": "red"}, "'colour' is not a house rule"),
        ({"variant": "chaos"}, "variant='chaos'"),
        ({"teams": "yes"}, "teams is true or false"),
        ({"teams": 1}, "teams is true or false"),
    ],
)
def test_resolve_refuses_an_unknown_rule_or_value(catalog: Catalog, chosen: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigurationError, match=words):
        resolve(catalog, chosen, 4)


def test_resolve_overlays_the_choices_on_the_defaults(catalog: Catalog) -> None:
    assert resolve(catalog, {"variant": "expert"}, 3) == {"variant": "expert", "teams": False}
    assert resolve(catalog, {"teams": True}, 4) == {"variant": "basic", "teams": True}
    assert resolve(catalog, {"teams": True}) == {"variant": "basic", "teams": True}  # no count: not judged
    assert resolve(catalog, {"teams": False}, 3) == {"variant": "basic", "teams": False}


def test_every_variant_the_engine_sets_up_is_live() -> None:
    assert variant_status("expert") == "live" and variant_status("teams") == "live"
    assert variant_status("solo") == "unbuilt"


def test_a_cards_status_follows_the_registry(catalog: Catalog) -> None:
    assert {card_status(catalog, c) for c in catalog.cards} == {"live"}


# -- actions from JSON ---------------------------------------------------------------------------


@pytest.mark.parametrize("action", [Play(1, "nyc-5"), PlaceCity(2, "erie", "left"), PlaceLocomotive(0, "prr"), LayTrack(3, "right")])
def test_an_action_round_trips_through_json(action: object) -> None:
    assert isinstance(action, Play | PlaceCity | PlaceLocomotive | LayTrack)
    assert from_json(action.to_json()) == action
    assert action.to_json()["kind"] == action.kind


def test_an_action_prints_its_fields() -> None:
    assert str(PlaceCity(2, "erie", "left")) == "placeCity(player=2, company=erie, end=left)"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([1], "an action is a JSON object"),
        ({"kind": "pass", "player": 0}, "unknown action kind 'pass'"),
        ({"kind": 3, "player": 0}, "unknown action kind 3"),
        ({"kind": "play", "player": 0, "card": "nyc-1", "colour": "red"}, "unknown field(s) colour"),
        ({"kind": "play", "card": "nyc-1"}, "'player' is missing"),
        ({"kind": "play", "player": "0", "card": "nyc-1"}, "'player' must be a whole number"),
        ({"kind": "play", "player": True, "card": "nyc-1"}, "'player' must be a whole number"),
        ({"kind": "play", "player": 0, "card": 5}, "'card' must be text"),
    ],
)
def test_a_bad_action_says_what_is_wrong(data: object, words: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        from_json(data)
    assert words in str(caught.value)


def test_a_field_left_out_takes_its_default() -> None:
    assert from_json({"kind": "layTrack", "player": 1}) == LayTrack(1, "right")


# -- the game API ------------------------------------------------------------------------------


def test_a_copy_shares_nothing_that_changes(catalog: Catalog) -> None:
    game = Game(catalog, 3, seed=2)
    before = game.state_json()
    twin = game.copy()
    assert twin.state_json() == before
    while not twin.is_over():
        action = twin.random_legal_action()
        assert action is not None
        twin.apply(action)
    assert game.state_json() == before and game.history == [] and not game.is_over()
    # The copy's streams are its own, in the same place.
    again = game.copy()
    assert again.bot.below(1000) == game.copy().bot.below(1000)


def test_a_players_view_hides_the_other_hands_and_shows_the_share_values(catalog: Catalog) -> None:
    game = Game(catalog, 4, seed=3)
    while not any(game.share_values().values()):  # railways laid: a view of all zeros would prove little
        action = game.random_legal_action()
        assert action is not None
        game.apply(action)
    for player in range(4):
        seen = game.view(player)
        assert seen["hands"][player] == game.state.to_json()["hands"][player]
        assert all(seen["hands"][other] == len(game.state.hands[other]) for other in range(4) if other != player)
        assert seen["shareValues"] == game.share_values() and set(seen["shareValues"]) == {c.id for c in catalog.companies}


def test_a_finished_copy_keeps_the_last_trick_on_the_table(catalog: Catalog) -> None:
    game = Game(catalog, 3, seed=2)
    while not game.is_over():
        action = game.random_legal_action()
        assert action is not None
        game.apply(action)
    twin = game.copy()
    assert twin.state_json() == game.state_json()
    assert twin.state.last_trick is twin.state.trick


def test_every_railway_card_is_somewhere_exactly_once_all_game(catalog: Catalog) -> None:
    every = Counter(c.id for c in catalog.railway_cards)
    for seed in range(3):
        game = Game(catalog, 4, seed=seed, house_rules={"variant": "expert"})
        while not game.is_over():
            assert game.census() == every, (seed, len(game.history))
            action = game.random_legal_action()
            assert action is not None
            game.apply(action)
        assert game.census() == every


def test_legal_actions_are_exactly_the_proposals_check_allows(catalog: Catalog) -> None:
    game = Game(catalog, 3, seed=6)
    stream = SeededStream(1)
    for _ in range(60):
        if game.is_over():
            break
        legal = game.legal_actions()
        assert legal and all(game.check(a) == [] for a in legal)
        refused = [a for a in game.candidates() if a not in legal]
        assert all(game.check(a) for a in refused)
        game.apply(legal[stream.below(len(legal))])


def test_a_random_pick_is_legal_and_nothing_is_picked_once_over(catalog: Catalog) -> None:
    game = Game(catalog, 3, seed=6)
    while not game.is_over():
        action = game.random_legal_action()
        assert action is not None and game.check(action) == []
        game.apply(action)
    assert game.random_legal_action() is None and game.legal_actions() == [] and game.candidates() == []


def test_an_illegal_action_changes_nothing(catalog: Catalog) -> None:
    game = Game(catalog, 3, seed=6)
    before = game.state_json()
    other = (game.to_act or 0) + 1
    with pytest.raises(IllegalActionError):
        game.apply(Play(other % 3, game.state.hands[other % 3][0]))
    assert game.state_json() == before and game.history == []


def test_a_check_of_something_that_is_not_an_action_is_invalid(catalog: Catalog) -> None:
    with pytest.raises(InvalidActionError):
        Game(catalog, 3).check("play nyc-1")  # type: ignore[arg-type]


def test_scores_and_winners_follow_the_shares(catalog: Catalog) -> None:
    game = Game(catalog, 4, seed=3, house_rules={"teams": True})
    while not game.is_over():
        action = game.random_legal_action()
        assert action is not None
        game.apply(action)
    scores = game.score()
    assert scores[0] == scores[2] and scores[1] == scores[3]
    assert game.winners() == [p for p in range(4) if scores[p] == max(scores)]
    values = game.share_values()
    assert set(values) == {c.id for c in catalog.companies}


def test_a_random_pick_draws_among_all_the_legal_actions(catalog: Catalog) -> None:
    """Every legal action can be drawn: a lay offers both ends, the lead
    every card of the hand."""
    from tests.kit.trickoftherails import game_at, ids

    ends = set()
    for seed in range(12):
        game = game_at(3, ["loco-3", "nyc-exchange"], {0: ids("NYC 2", "B&O 1"), 1: ids("NYC 5", "B&O 2"), 2: ids("PRR 1", "B&O 3")}, 0)
        for player, card in ((0, "nyc-2"), (1, "nyc-5"), (2, "prr-1")):
            game.apply(Play(player, card))
        game.apply(PlaceLocomotive(1, "nyc"))
        pick = game.random_legal_action(SeededStream(seed))
        assert isinstance(pick, LayTrack) and pick.player == 1
        ends.add(pick.end)
    assert ends == {"left", "right"}
    game = Game(catalog, 3, seed=5)
    leader = game.state.trick.leader
    led = {game.copy().random_legal_action(SeededStream(seed)) for seed in range(200)}
    assert {a.card for a in led if isinstance(a, Play)} == set(game.state.hands[leader])


def test_a_random_pick_from_a_given_stream_leaves_the_bot_stream_alone(catalog: Catalog) -> None:
    game = Game(catalog, 3, seed=5)
    bot = game.bot.copy()
    first = game.random_legal_action(SeededStream(3))
    assert first == game.random_legal_action(SeededStream(3))
    assert game.bot.below(10**6) == bot.below(10**6)


def test_a_game_defaults_to_three_players_and_seed_0(catalog: Catalog) -> None:
    game = Game(catalog)
    assert game.state.players == 3 and game.seed == 0
    assert game.state_json() == Game(catalog, 3, 0).state_json()


def test_a_random_pick_finds_the_one_legal_placement_among_refused_ones() -> None:
    from tests.kit.trickoftherails import game_at, ids

    for seed in range(20):
        game = game_at(3, ["loco-3", "nyc-exchange"], {0: ids("NYC 2", "B&O 1"), 1: ids("NYC 5", "B&O 2"), 2: ids("PRR 1", "B&O 3")}, 0)
        game.state.locomotives.update({c: "loco-4" for c in ("b-and-o", "c-and-o", "erie", "prr")})
        for player, card in ((0, "nyc-2"), (1, "nyc-5"), (2, "prr-1")):
            game.apply(Play(player, card))
        assert game.random_legal_action(SeededStream(seed)) == PlaceLocomotive(1, "nyc")
