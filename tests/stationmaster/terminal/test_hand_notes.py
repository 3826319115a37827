"""A Station Master hand with nothing unexplained: every card no choice
plays shows the rules' reason, ``why N`` (or ``why NAME``) prints every
reason, a card's name plays it; every word of it is the engine's own
(``Game.check``). And a lone choice (an attack its target cannot answer) is
taken for the person, with a line saying so; ``help`` teaches the game from
the same words as the site (``generator.stationmaster.quickref``)."""

from __future__ import annotations

import io
import json
import textwrap

import pytest

from command import play
from command.stationmaster import session
from command.stationmaster.handnotes import hand_notes, tries_for, why_not
from command.stationmaster.textview import card_name
from engine.stationmaster.bots import greedy_bot
from engine.stationmaster.rules.actions import Attack, Play
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.proposals import candidates
from generator.stationmaster.quickref import paragraphs
from tests.kit.stationmaster import CATALOG
from tests.kit.stationmaster_play import run_play
from tests.kit.stationmaster_scenarios import STRIKE, struck_game


@pytest.fixture(scope="module")
def stuck() -> Game:
    """Seed 3, two greedy players, at player 0's first moment after a draw
    with a card in hand that no legal action plays."""
    game = Game(CATALOG, players=2, seed=3)
    while not (game.to_act == 0 and game.state.phase == "local" and game.state.turn.drawn and not game.state.turn.played and hand_notes(game, game.legal_actions())):
        action = greedy_bot(game)
        assert action is not None
        game.apply(action)
    return game


def _session_on(game: Game, lines: list[str], seated: list[str] | None = None) -> str:
    out = io.StringIO()
    assert session.Session(game, out, None, seated or ["", "greedy"]).loop(io.StringIO("".join(line + "\n" for line in lines))) == 0
    return out.getvalue()


def _engine_words(game: Game, card: str) -> set[str]:
    """Every reason ``Game.check`` gives against any way of playing ``card`` tried."""
    proposed = [action for action in candidates(game) if getattr(action, "card", None) == card]
    return {" ".join(str(reason).split()) for action in tries_for(game, card) + proposed for reason in game.check(action)}


def test_each_unplayable_card_shows_the_rules_reason(stuck: Game) -> None:
    game = Game.replay(CATALOG, stuck.save())
    notes = hand_notes(game, game.legal_actions())
    hand = game.state.hands[0]
    out = _session_on(game, ["quit"])
    assert "Cards in your hand that no choice plays now (why N gives every reason):" in out
    flat = " ".join(out.split())
    for place, note in notes.items():
        assert f"{place + 1}. {card_name(game, hand[place])}: {note}" in flat
        assert note.removeprefix("e.g. ") in _engine_words(game, hand[place])  # the engine's words, never the terminal's
        assert not any(isinstance(action, (Play, Attack)) and action.card == hand[place] for action in game.legal_actions())


def test_why_by_number_and_by_name_prints_every_reason_the_engine_gives(stuck: Game) -> None:
    game = Game.replay(CATALOG, stuck.save())
    place = min(hand_notes(game, game.legal_actions()))
    card = game.state.hands[0][place]
    name = card_name(game, card)
    found = why_not(game, card)
    out = _session_on(game, [f"why {place + 1}", f"why {name.upper()}", name, "why", "why 99", "quit"])
    said = out.split("player 0, choose ")[1:]
    for reply in said[:3]:
        assert f"{name} cannot be played now; the rules' reasons, over " in reply
        for refusal in found:
            assert refusal.text in " ".join(reply.split())
    assert "error: why needs a card in your hand, by its number or name" in said[3]
    assert "error: no card '99' in your hand" in said[4]
    assert game.history == stuck.history  # asking changes nothing


def test_a_card_named_is_played_or_its_keys_listed(stuck: Game) -> None:
    game = Game.replay(CATALOG, stuck.save())
    ways: dict[str, int] = {}
    for action in game.legal_actions():
        if isinstance(action, Play):
            ways[action.card] = ways.get(action.card, 0) + 1
    card, count = next(iter(ways.items()))
    before = len(game.history)
    out = _session_on(game, [card_name(game, card).lower(), "quit"])
    if count == 1:
        assert len(game.history) == before + 1 and getattr(game.history[-1], "card", None) == card
    else:
        assert f"{card_name(game, card)} can be played {count} ways: choose " in out and len(game.history) == before


def test_a_lone_defence_choice_is_taken_and_said() -> None:
    game = struck_game()  # player 0 holds a Strike; player 1 holds no answer to it
    out = _session_on(game, ["", json.dumps(STRIKE.to_json()), "quit"], seated=["", ""])
    assert [a.kind for a in game.history[-2:]] == ["attack", "decline"]
    assert "(the only choice player 1 had, taken without asking)" in out
    assert "Pass the terminal to player 1." not in out  # nothing to choose: the terminal stays put
    assert play.CLEAR in out


def test_help_teaches_the_game_from_the_quick_reference_words() -> None:
    result = run_play([], ["help", "quit"])
    shown = " ".join(result.out.split())
    for paragraph in paragraphs(CATALOG):
        assert " ".join(textwrap.wrap(paragraph, 80)) in shown
    assert "The screen." in shown and "Keys: letters choose" in shown and "why N (or why NAME)" in shown


def test_one_reason_for_every_card_is_said_once(stuck: Game) -> None:
    game = Game.replay(CATALOG, stuck.save())
    game.apply(next(action for action in game.legal_actions() if isinstance(action, Play)))
    notes = hand_notes(game, game.legal_actions())
    if len(notes) < 2 or len(set(notes.values())) != 1:
        pytest.skip("the hand is not left with one reason for every card")
    out = _session_on(game, ["quit"])
    assert f"No card in your hand can be played now: {notes[0]} (why N gives every reason)." in " ".join(out.split())
    assert "Cards in your hand that no choice plays now" not in out
