"""``--game`` on the commands that play: Station Master unless said, its
content from content/<game>, and an unknown game a one-line usage error
naming the known packs."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from command import play
from engine.pack import SimulationRequest
from engine.packs import known_pack_ids, pack_rules
from tests.kit.cli import CliResult, RunCli
from tests.kit.project import PROJECT_ROOT


def _play(run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, args: list[str], cwd: Path = PROJECT_ROOT) -> CliResult:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    return run_cli(["play", "--seed", "7", *args], cwd)


def _one_error_line(result: CliResult) -> str:
    assert result.code == 2, result
    assert result.out == "" and "Traceback" not in result.err
    errors = [line for line in result.err.splitlines() if "error" in line]
    assert len(errors) == 1, result.err
    return errors[0]


@pytest.mark.parametrize("command", [["play"], ["simulate", "--games", "2"]])
@pytest.mark.parametrize("game", ["chess", "", "Stationmaster", "../content"])
def test_an_unknown_game_is_a_usage_error_listing_the_packs(run_cli: RunCli, command: list[str], game: str) -> None:
    line = _one_error_line(run_cli([*command, "--game", game], PROJECT_ROOT))
    assert f"unknown game {game!r}" in line
    assert f"(known packs: {', '.join(known_pack_ids())})" in line


def test_simulate_with_the_default_game_is_simulate_without_the_option(run_cli: RunCli) -> None:
    plain = run_cli(["simulate", "--games", "3", "--seed", "4", "--json"], PROJECT_ROOT)
    chosen = run_cli(["simulate", "--games", "3", "--seed", "4", "--json", "--game", "stationmaster"], PROJECT_ROOT)
    explicit = run_cli(["simulate", "--games", "3", "--seed", "4", "--json", "--game", "stationmaster", "--content", "content/stationmaster"], PROJECT_ROOT)
    assert plain.code == 0, plain.err
    assert plain == chosen == explicit


def test_play_reads_the_games_own_content_folder_by_default(run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _play(run_cli, monkeypatch, [])
    assert plain.code == 0, plain.err
    assert "quit: stopping" in plain.out
    assert _play(run_cli, monkeypatch, ["--game", "stationmaster"]) == plain
    assert _play(run_cli, monkeypatch, ["--game", "stationmaster", "--content", "content/stationmaster"]) == plain


def test_play_elsewhere_names_the_missing_folder(run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    result = _play(run_cli, monkeypatch, [], cwd=tmp_path)
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"stationmaster play: {Path('content') / 'stationmaster'}: no such content directory")


def test_a_game_without_a_terminal_view_is_refused(run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "terminal_games", lambda: ["trickoftherails"])
    result = _play(run_cli, monkeypatch, [])
    assert result.code == 2 and result.out == ""
    assert result.err.count("\n") == 1 and "cannot be played in the terminal yet (games that can: trickoftherails)" in result.err


def test_the_terminal_games_are_the_packs_with_a_session() -> None:
    """Found by ``command/<id>/session.py``, with no list to keep."""
    assert play.terminal_games() == ["stationmaster", "trickoftherails"]


def test_a_pack_with_no_command_folder_is_no_terminal_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pack need not have ``command/<id>/`` at all: ``play`` then refuses
    it in one line, rather than failing to look for its session."""
    import engine.packs

    monkeypatch.setattr(engine.packs, "known_pack_ids", lambda: ["nocommandfolder", "stationmaster"])
    assert play.terminal_games() == ["stationmaster"]


def test_simulate_refuses_a_bot_the_game_does_not_have(run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    pack = pack_rules("stationmaster")
    monkeypatch.setattr(type(pack), "bots", ("random",))
    line = _one_error_line(run_cli(["simulate", "--games", "2", "--bot", "greedy"], PROJECT_ROOT))
    assert "greedy" in line


def test_every_pack_offers_what_simulate_needs() -> None:
    for pack_id in known_pack_ids():
        pack = pack_rules(pack_id)
        assert pack.bots and all(isinstance(bot, str) for bot in pack.bots)
        catalog = pack.load_catalog(PROJECT_ROOT / "content" / pack_id)
        report = pack.simulator.simulate(catalog, SimulationRequest(2, seed=1))
        # Per-card figures only where a game draws cards (Trick of the Rails deals all at once).
        assert report.games == 2
        assert report.to_json() == pack.simulator.simulate(catalog, SimulationRequest(2, seed=1, workers=2)).to_json()
