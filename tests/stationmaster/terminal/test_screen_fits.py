"""The Station Master turn screen fits the terminal: at 80x24, 100x50 and
120x50, for positions of seeded bot games (solitaire and two players, at
setup, mid-game, the busiest choice lists, an attack waiting on an answer,
the end), no line is wider than the terminal and the screen and its prompt
take no more rows than it has; what a player needs first is always there;
lines break between words; and the parts left out are one word away."""

from __future__ import annotations

import re

import pytest

from command.fit import wrap_line
from command.stationmaster.screen.layout import render_screen, render_view
from command.stationmaster.textview import ActionKeys, render_hand
from command.words import key_spans, or_words
from engine.stationmaster.bots import BOT_FUNCTIONS
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.response import answering
from tests.kit.stationmaster import CATALOG, new_game
from tests.kit.stationmaster_play import run_play

pytestmark = pytest.mark.xdist_group("screen_fits")

SIZES = [(80, 24), (100, 50), (120, 50)]
# (seed, players): whole greedy games, each stopped at a few turns
GAMES = [(3, 1), (5, 1), (1, 2), (7, 2)]
STOPS = (0, 25, 90, 170)


def _positions() -> dict[str, Game]:
    """A dozen and more positions, each named for the failure message."""
    found: dict[str, Game] = {}
    for seed, players in GAMES:
        game = Game(CATALOG, players=players, seed=seed)
        step, busiest = 0, 0
        while not game.is_over():
            if step in STOPS:
                found[f"seed {seed}, {players}p, step {step}"] = game.copy()
            offered = len(game.legal_actions())
            if offered > busiest:
                busiest = offered
                found[f"seed {seed}, {players}p, busiest"] = game.copy()
            if game.state.attack is not None and answering(game.state) == game.to_act and f"seed {seed} attack" not in found:
                found[f"seed {seed} attack"] = game.copy()
            action = BOT_FUNCTIONS["greedy"](game)
            assert action is not None
            game.apply(action)
            step += 1
        found[f"seed {seed}, {players}p, over"] = game
    return found


POSITIONS = _positions()


def _shows_key(text: str, key: str) -> bool:
    """Whether the screen names ``key``: alone, in brackets, or in a span such as '4 to 9'."""
    if re.search(rf"(^ +|\[){re.escape(key)}(\]| )", text, re.M):
        return True
    if "... and more: type choices" in text:
        return True  # the choices were cut, and say so
    prefix = key.rstrip("0123456789")
    number = int(key[len(prefix) :] or -1)
    spans = re.findall(rf"(?<![\w-]){re.escape(prefix)}(\d+) (?:to|\.\.\.) {re.escape(prefix)}(\d+)", text)
    return any(int(low) <= number <= int(high) for low, high in spans)


def test_the_positions_cover_what_they_claim() -> None:
    assert len(POSITIONS) >= 12
    assert any(name.endswith("attack") for name in POSITIONS), "no attack response among the seeded games"
    assert max(len(game.legal_actions()) for game in POSITIONS.values()) >= 40


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_screen_fits_its_terminal(width: int, height: int) -> None:
    for name, game in POSITIONS.items():
        keyed = ActionKeys().assign(game, game.legal_actions()) if not game.is_over() else {}
        lines = render_screen(game, keyed, width, height).splitlines()
        too_wide = [line for line in lines if len(line) > width]
        assert not too_wide, (name, too_wide)
        assert len(lines) + 1 <= height, (name, len(lines))  # the prompt takes a row too
        if game.is_over():
            continue
        text = "\n".join(lines)
        # whose turn, the hand and every choice's key are always there
        assert f"player {game.to_act} " in lines[0] or "player 0 places" in lines[0], (name, lines[0])
        assert f"Hand of player {game.to_act}" in text, name
        assert "Your choices" in text, name
        for key in keyed:
            assert _shows_key(text, key), (name, key)
        if name.endswith("attack"):
            assert "Attack on you" in text, name


def test_a_roomy_terminal_shows_the_district_grid_and_the_mainline() -> None:
    game = POSITIONS["seed 7, 2p, step 90"]
    keyed = ActionKeys().assign(game, game.legal_actions())
    text = render_screen(game, keyed, 120, 50)
    assert "<- Running Track" in text and "Mainline, west to east:" in text and "Trains on the Mainline" in text


def test_lines_break_between_words_and_keep_their_indent() -> None:
    line = "  - Flying Switch [maneuver]: Spent while switching: the train cuts off its rearmost car on the move"
    wrapped = wrap_line(line, 40)
    words = line.split()
    assert " ".join(" ".join(wrapped).split()) == " ".join(words)
    assert all(len(part) <= 40 for part in wrapped) and all(part.startswith("      ") for part in wrapped[1:])
    assert all(word in words for part in wrapped for word in part.split())  # no word cut in two
    squares = wrap_line("  Play Turnout (right): [4] at (-1, 0); [5] at (-1, 0) turned 180°; [6] at (1, 0); [7] at (1, 0)", 76)
    assert all(part.count("(") == part.count(")") for part in squares), squares  # a square's (x, y) stays on one line


def test_the_grid_of_a_wide_district_comes_in_bands() -> None:
    game = POSITIONS["seed 5, 1p, over"]
    text = render_view(game, "district 0", {}, 80)
    assert text is not None
    assert all(len(line) <= 80 for line in text.splitlines())
    assert text.count("  y=0 ") >= 2  # the columns did not fit one band


def test_after_the_game_ends_no_train_is_listed() -> None:
    for name, game in POSITIONS.items():
        if game.is_over():
            for view in (render_screen(game, {}, 120, 50), render_view(game, "board", {}, 120) or ""):
                assert "Trains on the Mainline" not in view and "standing at the Office" not in view, name


# -- hand notes --------------------------------------------------------------------------


def test_a_hand_card_that_cannot_be_played_shows_why() -> None:
    game = new_game(CATALOG)
    hand = game.state.hands[0]
    assert len(hand) >= 2
    text = render_hand(game, 0, {1: "no connected stub to build on"})
    lines = text.splitlines()[1:]
    assert lines[0].startswith("  1. ") and "not now" not in lines[0]
    assert lines[1].startswith("  2. ") and lines[1].endswith("-- not now: no connected stub to build on")
    keyed = ActionKeys().assign(game, game.legal_actions())
    assert "-- not now: no connected stub" in render_screen(game, keyed, 80, 24, notes={1: "no connected stub to build on"})


# -- words and score -----------------------------------------------------------------------


def test_the_words_on_the_screen_are_explained_from_the_content() -> None:
    game = POSITIONS["seed 7, 2p, step 90"]
    keyed = ActionKeys().assign(game, game.legal_actions())
    words = render_view(game, "words", keyed, 100) or ""
    for entry in CATALOG.words.glossary:
        assert f"{entry.term}: " in words
    for term in ("A/D track", "Crew Tray", "connected stub", "boxes", "grade"):
        assert any(entry.term == term for entry in CATALOG.words.glossary), term
    screen = render_screen(game, keyed, 120, 50)
    assert "Crew Tray" in screen and re.search(r"^(Words on this screen: .*Crew Tray|  Crew Tray: )", screen, re.M), screen


def test_the_score_view_says_how_points_are_earned() -> None:
    game = POSITIONS["seed 3, 1p, step 25"]
    text = render_view(game, "score", {}, 100) or ""
    for words in CATALOG.words.scoring.values():
        assert words.earns in text.replace("\n    ", " ")
    assert "point" in text and "Scores now: district 0:" in text


def test_a_view_word_with_a_bad_district_says_which_there_are() -> None:
    game = POSITIONS["seed 7, 2p, step 25"]
    assert render_view(game, "district 7", {}, 80) == "error: no district 7: the districts are 0 or 1"
    assert render_view(game, "boards", {}, 80) is None and render_view(game, "board x", {}, 80) is None


# -- one wording for ranges of keys ---------------------------------------------------------


def test_ranges_of_keys_are_said_in_words() -> None:
    assert or_words(key_spans(["1", "2", "9", "10", "11", "12", "d", "d1", "d2", "d3", "e"])) == "1, 2, 9 to 12, d, d1 to d3 or e"
    assert or_words(key_spans(["1", "2"])) == "1 or 2"


def test_a_list_with_gaps_says_why_and_a_long_prompt_counts_the_keys() -> None:
    from command.stationmaster.screen.choices import choices_full
    from command.stationmaster.textview import key_summary

    game = POSITIONS["seed 5, 1p, busiest"]
    keyed = ActionKeys().assign(game, game.legal_actions())
    gappy = {key: action for key, action in keyed.items() if not key.isdecimal() or int(key) % 3}
    assert "a missing number is a choice no longer open this turn" in choices_full(game, gappy)[0]
    assert "missing number" not in choices_full(game, keyed)[0]
    assert key_summary(gappy) == f"one of the {len(gappy)} keys listed"
    assert key_summary({k: a for k, a in keyed.items() if k in ("1", "2", "9", "10", "11", "e")}) == "1, 2, 9 to 11 or e"


# -- the session at a terminal's size --------------------------------------------------------


def test_the_session_fits_every_screen_to_the_size_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    result = run_play(["--seed", "5"], ["d", "?", "words", "district 0", "score", "e", "quit"])
    assert result.code == 0 and result.err == ""
    screens = result.replies
    # what the screen prints (a refusal is one line, which the terminal folds)
    assert all(len(line) <= 80 for screen in screens for line in screen.splitlines() if not line.startswith(("error:", "quit:"))), screens
    assert len(screens[0].splitlines()) + 1 <= 24 and len(screens[2].splitlines()) + 1 <= 24
    assert "What the words mean:" in screens[3] and "How points are earned:" in screens[5]
    assert "District 0 (its Office:" in screens[4]


def test_a_short_choice_keeps_its_square_and_drops_words_aside() -> None:
    from command.stationmaster.screen.choices import choices_brief

    game = Game(CATALOG, players=1, seed=7)
    game.apply(ActionKeys().assign(game, game.legal_actions())["1"])  # the grade
    game.apply(ActionKeys().assign(game, game.legal_actions())["d"])
    lines = choices_brief(game, ActionKeys().assign(game, game.legal_actions()))
    assert any(re.fullmatch(r"  Play Straight: \[\d+\] at \(-1, 0\); \[\d+\] at \(1, 0\)", line) for line in lines), lines
    assert any(re.fullmatch(r"  Discard Straight onto Department: \[\d+\] 1; \[\d+\] 2; \[\d+\] 3", line) for line in lines), lines
