"""``stationmaster play --players 3``: the terminal lists the attacks, shows
the player an attack waits on what it is, lists their answers in plain
words, and plays to the end."""

from __future__ import annotations

from command.stationmaster.textview import ActionKeys
from engine.stationmaster.rules.actions import Answer, Attack
from engine.stationmaster.rules.game import Game
from tests.kit.stationmaster import CATALOG
from tests.kit.stationmaster_play import asked, run_play


def _inputs(seed: int) -> list[str]:
    """The keys a player types to play seed ``seed`` to its end, taking any
    attack or answer offered and otherwise a random legal action; the keys
    are the terminal's own (``ActionKeys``), kept across prompts, with an
    Enter each time the terminal is handed to another player."""
    game = Game(CATALOG, players=3, seed=seed)
    keys = ActionKeys()
    typed = []
    at_terminal = None
    while not game.is_over():
        actions = game.legal_actions()
        keyed = keys.assign(game, actions)
        action = next((a for a in actions if isinstance(a, (Attack, Answer))), None) or game.random_legal_action()
        assert action is not None
        if asked(keyed):  # else the session takes the lone choice unasked
            if game.to_act != at_terminal:  # Enter at the hand-over prompt
                typed.append("")
                at_terminal = game.to_act
            typed.append(next(key for key, offered in keyed.items() if offered == action))
        game.apply(action)
    return typed


def test_three_players_attack_answer_and_finish() -> None:
    result = run_play(["--players", "3", "--seed", "1"], _inputs(1))
    assert result.code == 0, result.err
    assert "Traceback" not in result.out + result.err
    assert "Play Eminent Domain at the empty square (0, -1) of player 2's district" in result.out
    # player 2 holds no answer: letting it stand is taken for them, and said
    assert "> Let the Eminent Domain stand (no answer) (the only choice player 2 had, taken without asking)" in result.out
    assert "Attacks in force:" in result.out
    assert "Game over after 3 Days." in result.out
    for raw in ("attack(", "answer(", "decline("):
        assert raw not in result.out, raw
