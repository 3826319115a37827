"""Trick of the Rails' turn screen fits the terminal as Station Master's
does: at 80x24, 100x50 and 120x50, for every decision of a person in
seeded greedy games of 3, 4 and 5 players, no line is wider than the
terminal and the screen with its prompt is no taller; the hand and the
choices are always there; and ``board`` shows the whole table."""

from __future__ import annotations

import io

import pytest

from command.trickoftherails.session import Table
from engine.trickoftherails.bots import BOT_FUNCTIONS
from engine.trickoftherails.rules.game import Game
from tests.kit.trickoftherails import CATALOG

pytestmark = pytest.mark.xdist_group("totr_screen_fits")

SIZES = [(80, 24), (100, 50), (120, 50)]


def _decisions() -> list[Game]:
    """Every position with more than one choice in three seeded games."""
    found = []
    for players, seed in ((3, 2), (4, 1), (5, 0)):
        game = Game(CATALOG, players=players, seed=seed)
        while not game.is_over():
            if len(game.legal_actions()) > 1:
                found.append(game.copy())
            action = BOT_FUNCTIONS["greedy"](game)
            assert action is not None
            game.apply(action)
    return found


DECISIONS = _decisions()


def _screen(game: Game, monkeypatch: pytest.MonkeyPatch, width: int, height: int) -> str:
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("LINES", str(height))
    out = io.StringIO()
    player = game.to_act
    assert player is not None
    Table(game, out, None, [""] * game.state.players).show(player)
    return out.getvalue()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_decision_fits_its_terminal(monkeypatch: pytest.MonkeyPatch, width: int, height: int) -> None:
    assert len(DECISIONS) > 30
    for number, game in enumerate(DECISIONS):
        lines = _screen(game, monkeypatch, width, height).splitlines()
        assert all(len(line) <= width for line in lines), (number, [line for line in lines if len(line) > width])
        assert len(lines) + 1 <= height, (number, len(lines))
        text = "\n".join(lines)
        assert "Your hand" in text and lines[0].startswith("=== Trick of the Rails"), number
        if game.state.phase == "place":
            assert "Your choices:" in text, number


def test_a_roomy_terminal_shows_the_railways_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    game = DECISIONS[len(DECISIONS) // 2]
    text = _screen(game, monkeypatch, 120, 50)
    assert "cards, left to right" in text and "Shares held" in text


def test_board_shows_the_whole_table_at_a_small_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    game = DECISIONS[len(DECISIONS) // 2]
    out = io.StringIO()
    player = game.to_act
    assert player is not None
    table = Table(game, out, None, [""] * game.state.players)
    table.show(player)
    assert "Shares held" not in out.getvalue()
    table.handle(player, "board")
    assert "Shares held (and what they are worth" in out.getvalue() and "cards, left to right" in out.getvalue()
