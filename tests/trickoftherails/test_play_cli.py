"""``stationmaster play --game trickoftherails``: people and bots at one
terminal, driven in-process through ``command.play.run`` with StringIO for
stdin and stdout. Whole games are played to their end; every screen is held
against the hands at that moment, so no player is ever shown a card another
player holds; bad arguments and bad saves are one-line usage errors."""

from __future__ import annotations

import argparse
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import pytest

from command import play
from command.play import CLEAR
from engine.stationmaster import load_catalog as load_station_master
from engine.stationmaster.rules.game import Game as StationMasterGame
from engine.trickoftherails.bots import greedy_bot, random_bot
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.actions import Play, from_json
from engine.trickoftherails.rules.game import Game
from tests.kit.project import PROJECT_ROOT
from tests.kit.trickoftherails import CATALOG

CONTENT = PROJECT_ROOT / "content" / "trickoftherails"
# A person's prompt, and the prompt that waits for the terminal to be handed over.
PROMPT = re.compile(r"player (\d+), (choose [0-9, tor]+|press Enter when only you can see the screen)> ")


class Played(NamedTuple):
    code: int
    out: str
    err: str


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="stationmaster")
    play.add_parser(top.add_subparsers(dest="command", required=True))
    return top


def run_play(argv: list[str], lines: Sequence[str] = ()) -> Played:
    args = parser().parse_args(["play", "--game", "trickoftherails", "--content", str(CONTENT), *argv])
    out, err = io.StringIO(), io.StringIO()
    code = play.run(args, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out, stderr=err)
    return Played(code, out.getvalue(), err.getvalue())


def replay(path: Path) -> Game:
    return Game.loads(CATALOG, path.read_text(encoding="utf-8"))


def mentions(text: str, card_id: str) -> bool:
    """Whether ``text`` names the card (``NYC 1`` is not ``NYC 10``)."""
    name = CATALOG.by_id[card_id].name
    return re.search(rf"(?<![\w&]){re.escape(name)}(?!\d)", text) is not None


def _first_turn(seed: int) -> Game:
    """The game as the person in seat 0 is first asked to choose (two greedy bots)."""
    game = Game(CATALOG, 3, seed)
    while game.to_act != 0 or len(game.legal_actions()) == 1:
        game.apply(greedy_bot(game))  # for the person too, when there is nothing to choose
    return game


# -- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_of_bots_plays_itself_to_the_end(catalog: Catalog, players: int) -> None:
    result = run_play(["--players", str(players), "--bots", str(players), "--seed", "5"])
    assert result.code == 0, result.err
    assert result.err == ""
    assert "Every seat is a bot" in result.out
    assert PROMPT.search(result.out) is None  # nobody was asked anything
    assert CLEAR not in result.out and "Your hand" not in result.out
    expected = Game(catalog, players, 5)
    while not expected.is_over():
        expected.apply(greedy_bot(expected))
    final = result.out[result.out.index("=== Game over ===") :]
    for p, score in enumerate(expected.score()):
        assert f"player {p} (greedy bot): {score}" in final
    assert ("Winner: " in final) != ("Shared win: " in final)


def test_one_person_and_two_bots_play_to_the_end(catalog: Catalog, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run_play(["--bots", "2", "--bot", "random", "--seed", "11", "--save", str(save)], ["1"] * 200)
    assert result.code == 0, result.err
    assert CLEAR not in result.out  # one person: nothing to hide from anyone
    game = replay(save)
    assert game.is_over()
    # the person always took the first choice; the bots chose for themselves
    expected = Game(catalog, 3, 11)
    while not expected.is_over():
        actor = expected.to_act
        expected.apply(expected.legal_actions()[0] if actor == 0 else random_bot(expected))
    assert game.state_json() == expected.state_json()
    prompts = PROMPT.findall(result.out)
    assert len(prompts) == len(_expected_prompts(game, ["", "random", "random"]))
    assert {p for p, _ in prompts} == {"0"}
    assert "=== Game over ===" in result.out and "Final share values: " in result.out


def _expected_prompts(game: Game, seats: list[str]) -> list[tuple[int, str, list[list[str]]]]:
    """Each prompt the session shows, in order, as (player, kind, the hands
    at that moment), from the game's recorded actions."""
    people = [p for p, bot in enumerate(seats) if not bot]
    twin = Game(CATALOG, game.state.players, game.seed, game.rules)
    at_terminal = None
    found = []
    for action in game.history:
        actor = action.player
        if not seats[actor] and len(twin.legal_actions()) > 1:  # a lone choice is taken unasked
            hands = [list(hand) for hand in twin.state.hands]
            if actor != at_terminal and len(people) > 1:
                found.append((actor, "pass", hands))
            found.append((actor, "choose", hands))
            at_terminal = actor
        twin.apply(action)
    return found


@pytest.mark.parametrize(("players", "bots", "seed"), [(3, 1, 2), (4, 0, 3), (5, 2, 4), (4, 3, 5)])
def test_no_screen_shows_a_card_another_player_holds(catalog: Catalog, tmp_path: Path, players: int, bots: int, seed: int) -> None:
    """Hot seat: every prompt's screen is held against the hands at that
    moment. Before a person's choice nothing of another player's hand is
    printed; before a hand-over, nobody's; and between two clear-screen
    marks (one person's turn) no card another player still holds after it."""
    save = tmp_path / "game.json"
    result = run_play(["--players", str(players), "--bots", str(bots), "--seed", str(seed), "--save", str(save)], ["1"] * 500)
    assert result.code == 0, result.err
    game = replay(save)
    assert game.is_over()
    seats = [""] * (players - bots) + ["greedy"] * bots
    expected = _expected_prompts(game, seats)
    parts = PROMPT.split(result.out)  # text, player, kind, text, player, kind, ...
    screens, shown = parts[0::3], list(zip(parts[1::3], parts[2::3]))
    assert [(int(p), "pass" if kind.startswith("press") else "choose") for p, kind in shown] == [(p, kind) for p, kind, _ in expected]
    for (player, kind, hands), screen in zip(expected, screens):
        hidden = [card for p, hand in enumerate(hands) if kind == "pass" or p != player for card in hand]
        leaked = [catalog.by_id[card].name for card in hidden if mentions(screen, card)]
        assert not leaked, f"the screen before player {player}'s {kind} prompt shows {leaked}"
        if kind == "choose":  # and the person does see their own hand, sorted
            own = sorted(hands[player], key=game.order)
            line = next(line for line in screen.splitlines() if line.startswith(f"Your hand (player {player})"))
            listing = screen[screen.index(line) :]
            assert [c for c in own if mentions(listing, c)] == own
            assert sorted(own, key=lambda c: listing.index(catalog.by_id[c].name + " (")) == own
    # turn by turn: each stretch between clear-screen marks is one person's
    passes = [(player, hands) for player, kind, hands in expected if kind == "pass"]
    stretches = result.out.split(CLEAR)[1:]
    assert len(stretches) == len(passes) and (len(passes) >= 2 if bots < players - 1 else not passes)
    after = [hands for _, hands in passes[1:]] + [[[] for _ in range(players)]]
    for (player, _), still_held, stretch in zip(passes, after, stretches):
        assert f"Pass the terminal to player {player}." in stretch.splitlines()[:6]
        others = [card for p, hand in enumerate(still_held) if p != player for card in hand]
        assert not [catalog.by_id[c].name for c in others if mentions(stretch, c)]


def test_a_person_sees_the_table(catalog: Catalog) -> None:
    result = run_play(["--bots", "2", "--seed", "1"], ["quit"])
    screen = PROMPT.split(result.out)[0]
    game = _first_turn(1)
    for part in (
        "Lane, leftmost first",
        "1. " + catalog.by_id[game.state.lane[0]].name,
        "(stock)",
        "(City ",
        "Locomotive [3] (cost 40)",
        "Railways",
        "share",
        "Shares held",
        "player 1 (greedy bot)",
        f"Your hand (player 0), {len(game.state.hands[0])} cards",
    ):
        assert part in screen, part
    for company, cards in game.state.railways.items():
        assert catalog.company(company).name in screen
        for card in cards:
            assert mentions(screen, card)
    assert "quit: stopping; the game was not saved" in result.out


# -- choices refused, commands, saves --------------------------------------------------------


def _refusable() -> tuple[int, str, list[str], int]:
    """A seed where the person (seat 0) is asked to follow suit and holds a
    card that does not: the inputs that reach that choice (always the first
    choice), the card, and how many actions were taken by then."""
    for seed in range(50):
        game = Game(CATALOG, 3, seed)
        inputs: list[str] = []
        while not game.is_over():
            legal = game.legal_actions()
            if game.to_act != 0 or len(legal) == 1:
                game.apply(greedy_bot(game) if game.to_act != 0 else legal[0])
                continue
            off = [c for c in game.state.hands[0] if Play(0, c) not in legal]
            if off:
                return seed, off[0], inputs, len(game.history)
            game.apply(legal[0])
            inputs.append("1")
    raise AssertionError("no seed makes the person follow suit")


def test_a_refused_card_prints_the_engines_reasons_and_changes_nothing(catalog: Catalog, tmp_path: Path) -> None:
    seed, card, inputs, taken = _refusable()
    save = tmp_path / "s.json"
    name = catalog.by_id[card].name
    result = run_play(["--bots", "2", "--seed", str(seed), "--save", str(save)], [*inputs, name.lower(), "quit"])
    assert result.code == 0
    reply = PROMPT.split(result.out)[-4]  # what the card's name brought
    lines = reply.strip().splitlines()
    assert lines[0] == f"refused: Play {name} ({catalog.by_id[card].station_value}) (1 reason):"
    assert "a card of the led company must be played" in lines[1]
    assert len(replay(save).history) == taken


def test_a_card_named_is_played(catalog: Catalog, tmp_path: Path) -> None:
    game = _first_turn(0)
    action = game.legal_actions()[-1]
    assert isinstance(action, Play)
    save = tmp_path / "s.json"
    result = run_play(["--bots", "2", "--seed", "0", "--save", str(save)], ["  " + catalog.by_id[action.card].name.upper() + " ", "quit"])
    assert result.code == 0
    assert replay(save).history[len(game.history)] == action


def test_an_action_as_json_is_taken(tmp_path: Path) -> None:
    game = _first_turn(4)
    action = game.legal_actions()[-1]
    save = tmp_path / "s.json"
    result = run_play(["--bots", "2", "--seed", "4", "--save", str(save)], [json.dumps(action.to_json()), "quit"])
    assert result.code == 0
    assert replay(save).history[len(game.history)] == action
    assert from_json(action.to_json()) == action


BAD_LINES = [
    "abc",
    "0",
    "99",
    "-1",
    "1.5",
    "{not json",
    '{"kind": "fly", "player": 0}',
    '{"kind": "play", "player": 7, "card": "nyc-1"}',
    "[" * 5000,
    "1" * 500,
    "save",
    "save /no/such/folder/x.json",
    "quit now",
    "ZZZ 12",
]


def test_malformed_input_gets_a_one_line_error_and_the_prompt_again() -> None:
    result = run_play(["--bots", "2", "--seed", "0"], [*BAD_LINES, "quit"])
    assert result.code == 0
    assert "Traceback" not in result.out + result.err
    replies = PROMPT.split(result.out)[3::3]
    for line, reply in zip(BAD_LINES, replies):
        assert reply.startswith("error: ") or reply.startswith("refused: "), (line, reply)
        assert reply.count("\n") == (1 if reply.startswith("error: ") else reply.count("  - ") + 1), (line, reply)


def test_help_and_show_again() -> None:
    result = run_play(["--bots", "2", "--seed", "0"], ["help", "", "?", "quit"])
    replies = PROMPT.split(result.out)[3::3]
    assert replies[0].startswith("\nA trick. The leader plays any card.") and replies[1].startswith("(type a number")
    assert replies[2].startswith("=== Trick of the Rails: trick 1 of 15")


def test_save_then_load_resumes_the_same_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = run_play(["--players", "4", "--bots", "3", "--seed", "6"], ["1", "1", "1", f"save {save}", "quit"])
    assert first.code == 0 and f"saved to {save}" in first.out
    saved = replay(save)
    assert sum(1 for a in saved.history if a.player == 0) >= 3  # and any lone choices, taken unasked
    second = run_play(["--load", str(save), "--bots", "3"], ["1"] * 100)
    assert second.code == 0, second.err
    assert second.out.startswith(f"Resumed {save}: {len(saved.history)} actions replayed.")
    assert "=== Game over ===" in second.out


def test_load_takes_no_seed_players_or_house_rules(catalog: Catalog, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save.write_text(Game(catalog, 3, 1).dumps())
    result = run_play(["--load", str(save), "--players", "4"])
    assert result.code == 2 and "--players" in result.err and result.err.count("\n") == 1


def _bad_saves() -> dict[str, bytes]:
    game = Game(CATALOG, 3, 2)
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    good = game.dumps()
    data = json.loads(good)
    station_master = StationMasterGame(load_station_master(PROJECT_ROOT / "content" / "stationmaster"), players=1, seed=0).dumps()
    return {
        "truncated": good[: len(good) // 2].encode(),
        "empty": b"",
        "not json": b"this is not a save\n",
        "a list": b"[]",
        "not utf-8": b"\xff\xfe\x00garbage",
        "other content": json.dumps(dict(data, content="0" * 64)).encode(),
        "other game": station_master.encode(),
        "bad players": json.dumps(dict(data, players=6)).encode(),
        "unreplayable": json.dumps(dict(data, actions=[*data["actions"], {"kind": "play", "player": 0, "card": "nyc-1"}] * 3)).encode(),
        "bad action": json.dumps(dict(data, actions=[{"kind": "fly"}])).encode(),
    }


@pytest.mark.parametrize("kind", sorted(_bad_saves()))
def test_a_bad_save_is_refused_in_one_line_and_never_overwritten(tmp_path: Path, kind: str) -> None:
    save = tmp_path / "game.json"
    body = _bad_saves()[kind]
    save.write_bytes(body)
    result = run_play(["--load", str(save), "--save", str(save)], ["1", "quit"])
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1 and result.err.startswith(f"stationmaster play: {save}"), result.err
    assert "Traceback" not in result.err
    assert save.read_bytes() == body


def test_saves_of_the_other_game_are_refused_with_the_game_to_use(catalog: Catalog, tmp_path: Path) -> None:
    ours = tmp_path / "rails.json"
    ours.write_text(Game(catalog, 3, 1).dumps())
    theirs = tmp_path / "station.json"
    theirs.write_text(_bad_saves()["other game"].decode())
    result = run_play(["--load", str(theirs)])
    # said once: what it is, what it is not, and the game that plays it
    assert result.code == 2 and result.err.endswith(": cannot resume: it is a Station Master save, not a Trick of the Rails one (play it with --game stationmaster)\n")
    args = parser().parse_args(["play", "--load", str(ours)])
    err = io.StringIO()
    assert play.run(args, stdin=io.StringIO(""), stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue().endswith(": cannot resume: it is a Trick of the Rails save, not a Station Master one (play it with --game trickoftherails)\n")
    # nor does a save of one game overwrite the other's
    result = run_play(["--save", str(theirs)])
    assert result.code == 2 and "not a Trick of the Rails save" in result.err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--players", "6"], "played by 3, 4, 5 players, not 6"),
        (["--players", "2"], "not 2"),
        (["--bots", "9"], "--bots 9"),
        (["--players", "4", "--bots", "5"], "--bots 5"),
        (["--bots", "-1"], "--bots -1"),
        (["--bots", "1", "--bot", "clever"], "no such bot"),
        (["--bot", "random"], "give --bots N too"),
        (["--house-rule", "variant=chaos"], "variant=chaos"),
        (["--house-rule", "teams=true"], "Teams"),
    ],
)
def test_bad_arguments_are_one_line_usage_errors(argv: list[str], words: str) -> None:
    result = run_play(argv, ["1"])
    assert result.code == 2, result
    assert result.out == ""
    assert result.err.count("\n") == 1 and result.err.startswith("stationmaster play: "), result.err
    assert words in result.err, result.err


def test_the_same_seed_and_input_print_the_same_game() -> None:
    lines = ["1", "2", "?", "bad", "1", "quit"]
    assert run_play(["--bots", "1", "--seed", "9"], lines) == run_play(["--bots", "1", "--seed", "9"], lines)


def test_a_resumed_game_keeps_its_bots_without_bots_given_again(tmp_path: Path) -> None:
    save = tmp_path / "rails.json"
    first = run_play(["--players", "4", "--bots", "3", "--seed", "6", "--save", str(save)], ["1", "quit"])
    assert first.code == 0, first.err
    assert json.loads(save.read_text(encoding="utf-8"))["table"] == [None, "greedy", "greedy", "greedy"]
    second = run_play(["--load", str(save)], ["quit"])
    assert second.code == 0, second.err
    assert "player 0 (a person), player 1 (greedy bot), player 2 (greedy bot), player 3 (greedy bot)" in " ".join(second.out.split())
    assert "Pass the terminal" not in second.out


def test_help_teaches_the_tricks_from_the_quick_reference_words() -> None:
    from generator.trickoftherails.quickref import paragraphs

    result = run_play(["--bots", "2", "--seed", "0"], ["help", "quit"])
    shown = " ".join(result.out.split())
    for paragraph in paragraphs():
        assert paragraph in shown, paragraph[:40]
    # The screen's words show a railway card of the content as the screen shows it.
    card = next(c for c in CATALOG.cards if c.station_value is not None and c.number is not None)
    company = CATALOG.company(card.company).name if card.company else ""
    assert f"{card.name} ({card.station_value}) is the {company} card numbered {card.number}, whose station value is {card.station_value}" in shown
