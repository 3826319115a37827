"""The terminal game's text view: every kind of action in words, never as the
raw dataclass (``flyingSwitch(player=0, ...)``); keys that keep their action
from prompt to prompt; a switching panel drawn from the actions offered; and
lines that read as plain English."""

from __future__ import annotations

import pytest

from command.stationmaster.textview import ActionKeys, describe_action, render_state, render_switching
from engine.stationmaster.content.model import Catalog, TrainCard
from engine.stationmaster.rules.actions import ACTION_TYPES, Action, Draw, EndTurn, Pull, RedFlag, Spot
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car
from tests.kit.stationmaster import branch_yard, lay, new_game, put_train, take


@pytest.mark.parametrize("kind", sorted(ACTION_TYPES))
def test_every_action_kind_is_described_in_words(kind: str) -> None:
    game = new_game(seed=3)
    action: Action = ACTION_TYPES[kind](0)
    text = describe_action(game, action)
    assert text != str(action) and not text.startswith(f"{kind}("), text


def test_a_flying_switch_names_the_train_and_the_square() -> None:
    from engine.stationmaster.rules.actions import FlyingSwitch

    game = new_game(seed=3)
    text = describe_action(game, FlyingSwitch(0, train="t", x=-1, y=1))
    assert text.startswith("Flying Switch:") and "(-1, 1)" in text


# -- keys that stay put ---------------------------------------------------------------------


def _red_flag_on_top(game: Game) -> None:
    """The next card drawn from the deck is a Red Flag."""
    take(game, "red-flag")
    game.state.deck.append("red-flag")


def test_a_red_flag_appearing_moves_no_other_key() -> None:
    """The reported fault: drawing a Red Flag while a train runs added a
    Red Flag action, and 'End the turn' changed number under the player."""
    game = new_game(seed=3)
    put_train(game, "train-9", position=1, remaining=1)
    _red_flag_on_top(game)
    keys = ActionKeys()
    before = keys.assign(game, game.legal_actions())
    assert isinstance(before["e"], EndTurn) and isinstance(before["d"], Draw)
    game.apply(before["d"])
    after = keys.assign(game, game.legal_actions())
    assert isinstance(after["r1"], RedFlag) and after["r1"].train == "train-9"
    assert isinstance(after["e"], EndTurn) if "e" in after else True
    for key, action in before.items():
        if action in after.values():
            assert after[key] == action, (key, action)
    # a number never means two different actions in one turn
    numbers = {**{k: a for k, a in before.items() if k.isdecimal()}}
    for key, action in after.items():
        if key.isdecimal():
            assert numbers.setdefault(key, action) == action, key


def test_every_action_keeps_its_key_for_the_whole_turn(catalog: Catalog) -> None:
    for seed in range(6):
        game, keys = Game(catalog, players=1 + seed % 2, seed=seed), ActionKeys()
        turn: dict[str, Action] = {}
        current = None
        while not game.is_over():
            offered = keys.assign(game, game.legal_actions())
            now = (game.state.day, game.state.stage, game.state.current, game.state.phase)
            if now != current:
                current, turn = now, {}
            for key, action in offered.items():
                assert turn.setdefault(key, action) == action, (seed, key, action, turn[key])
                assert (key == "e") == isinstance(action, EndTurn)
                assert (key == "d") == (isinstance(action, Draw) and action.source == "deck")
            game.apply(game.random_legal_action())  # type: ignore[arg-type]


# -- the switching panel tells the truth --------------------------------------------------


def _yard_with_cars() -> Game:

    game = new_game(seed=11)
    branch_yard(game)
    lay(game, 3, -1, "straight")
    game.state.districts[0].squares["3,-1"].cars = [Car("boxcar", True)]
    return game


def test_after_drawing_the_panel_offers_no_switching() -> None:
    """Drawing closes the Switch option: the panel must not say a train may
    couple or set out anything, and says why once."""
    game = _yard_with_cars()
    put_train(game, "train-3", [Car("boxcar", False)], train_id="t")
    assert any(isinstance(a, Pull) for a in game.legal_actions())
    game.apply(Draw(0, "deck"))
    assert not any(isinstance(a, (Pull, Spot)) for a in game.legal_actions())
    panel = render_switching(game, 0)
    assert "couple" not in panel and "set out its" not in panel and "[" not in panel, panel
    assert "no switching move now: " in panel


def test_a_refused_pull_is_not_offered_beside_a_legal_spot() -> None:
    """Empties only: it may set out its car beside loaded cars, but not couple them."""
    game = _yard_with_cars()
    put_train(game, "train-5", [Car("hopper", False)], train_id="t")
    offered = ActionKeys().assign(game, game.legal_actions())
    assert not any(isinstance(a, Pull) and (a.x, a.y) == (3, -1) for a in offered.values())
    spot = next(k for k, a in offered.items() if isinstance(a, Spot) and (a.x, a.y) == (3, -1))
    line = next(line for line in render_switching(game, 0, offered).splitlines() if line.startswith("  (3, -1) "))
    assert "couple" not in line and f"[{spot}]" in line, line


def test_a_square_with_no_move_gives_the_rules_reasons() -> None:
    game = _yard_with_cars()
    put_train(game, "train-5", [], train_id="t", caboose=False)
    line = next(line for line in render_switching(game, 0).splitlines() if line.startswith("  (3, -1) "))
    assert "no move here: " in line and "empties only" in line and "an empty" not in line, line


def test_no_switching_panel_after_the_game_ends() -> None:
    game = _yard_with_cars()
    put_train(game, "train-3", [Car("boxcar", False)], train_id="t")
    assert "Switching at your Office" in render_state(game)
    game.state.phase = "over"
    assert "Switching" not in render_state(game) and render_switching(game, 0) == ""


# -- plain English ---------------------------------------------------------------------


def test_an_enhancement_is_played_onto_a_card_that_stays() -> None:
    from engine.stationmaster.rules.actions import Play

    game = new_game(seed=3)
    text = describe_action(game, Play(0, "division-yard", x=0, y=0))
    assert text == "Play Division Yard onto the Depot at (0, 0), which it enhances", text
    assert "over" not in text


def test_a_turnout_laid_over_a_straight_replaces_it() -> None:
    from engine.stationmaster.rules.actions import Play

    game = new_game(seed=3)
    lay(game, 1, 0, "straight")
    assert describe_action(game, Play(0, "turnout-left", x=1, y=0)) == "Play Turnout (left) at (1, 0), replacing the Straight"


def test_abs_signals_are_named_once() -> None:
    from command.stationmaster.textview import render_mainline

    game = new_game(seed=3)
    slot = next(i for i, s in enumerate(game.state.mainline) if s.kind == "terrain")
    game.state.mainline[slot].abs_signals = True
    game.state.mainline[slot].modifiers.append("abs-signals")
    line = next(line for line in render_mainline(game).splitlines() if line.startswith(f"  [{slot}] "))
    assert line.lower().count("abs signals") == 1, line


def test_no_grid_label_ends_in_a_cut_word_and_a_stop_after_a_space(catalog: Catalog) -> None:
    from command.stationmaster.textview import short_label
    from engine.stationmaster.rules.state import Square

    game = new_game(seed=3)
    for card in catalog.cards:
        label = short_label(game, Square(card=card.id, kind="track"))
        assert len(label) <= 9 and " ." not in label and not label.endswith(" "), (card.name, label)
    assert short_label(game, Square(card="whistle-post", kind="office")) == "Whistle"


def test_a_car_refused_is_named_with_its_article(catalog: Catalog) -> None:
    from engine.stationmaster.rules.consist import car_refusal

    passenger = catalog.by_id["train-1"]
    assert isinstance(passenger, TrainCard)
    why = car_refusal(passenger, Car("boxcar", False), pickup=True)
    assert why is not None and "not an empty boxcar" in why and "a empty" not in why
