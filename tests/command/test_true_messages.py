"""Messages that say what is true (issue 23, point 12): each case below
once said something else, and each is fixed where every command shares it."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.kit import hang_guard
from tests.kit.cli import Result, RunCli, subprocess_env
from tests.kit.project import PROJECT_ROOT

SM = str(PROJECT_ROOT / "content" / "stationmaster")
TOTR = str(PROJECT_ROOT / "content" / "trickoftherails")


def _play(args: list[str], cwd: Path, typed: str) -> subprocess.CompletedProcess[str]:
    return hang_guard.run([sys.executable, "-m", "command.cli", "play", *args], "play to end", cwd=cwd, env=subprocess_env(), input=typed)


def test_an_edited_format_in_a_trick_of_the_rails_save_is_named_as_such(tmp_path: Path) -> None:
    made = _play(["--game", "trickoftherails", "--content", TOTR, "--players", "3", "--bots", "3", "--save", "game.json"], tmp_path, "")
    assert made.returncode == 0, made.stderr
    save = tmp_path / "game.json"
    data = json.loads(save.read_text(encoding="utf-8"))
    data["format"] = "trickoftherails-save/9"
    save.write_text(json.dumps(data), encoding="utf-8")
    loaded = _play(["--game", "trickoftherails", "--content", TOTR, "--load", "game.json"], tmp_path, "quit\n")
    assert loaded.returncode == 2 and loaded.stderr.count("\n") == 1, loaded.stderr
    assert "it says 'trickoftherails'" not in loaded.stderr
    assert "the save's format is 'trickoftherails-save/9', which this version of the kit does not read (it reads 'trickoftherails-save/1')" in loaded.stderr


def test_a_second_cards_is_told_another_run_holds_the_pages(sm: Callable[..., Result], project: Path) -> None:
    fd = os.open(project / "site", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a first `cards` still running does
        result = sm("cards")
    finally:
        os.close(fd)
    assert result.code == 2 and result.err.count("\n") == 1, result.output
    assert "another `stationmaster cards` is writing the pages under site/" in result.err and "editor" not in result.output
    assert sm("cards").code == 0, "the lock goes with the run that held it"


@pytest.mark.parametrize("game", ["stationmaster", "trickoftherails"])
def test_quit_after_save_file_says_where_the_game_is(tmp_path: Path, game: str) -> None:
    content = SM if game == "stationmaster" else TOTR
    players = ["--players", "1"] if game == "stationmaster" else ["--players", "3", "--bots", "2"]
    done = _play(["--game", game, "--content", content, *players], tmp_path, "save mine.json\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "quit: stopping; the game is saved in mine.json (resume with --load mine.json)" in done.stdout, done.stdout
    assert "not saved" not in done.stdout and (tmp_path / "mine.json").is_file()


@pytest.mark.parametrize("command", [["simulate", "--games", "1"], ["sweep", "--games", "1", "--no-cache"], ["export"]])
def test_an_absolute_content_path_is_shown_as_given(run_cli: RunCli, tmp_path: Path, command: list[str]) -> None:
    missing = tmp_path / "nonexistent"
    code, _, err = run_cli([*command, "--content", str(missing)], PROJECT_ROOT / "site")
    assert code == 2 and err.count("\n") == 1, err
    assert f"{missing}: no such content directory" in err and "../" not in err, err


def test_cache_and_no_cache_together_are_refused(run_cli: RunCli, tmp_path: Path) -> None:
    code, out, err = run_cli(["sweep", "--content", SM, "--games", "1", "--cache", "cells", "--no-cache"], tmp_path)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "--cache cells and --no-cache contradict each other" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("command", "game"), [(["simulate", "--games", "1"], "stationmaster"), (["sweep", "--games", "1", "--no-cache"], "trickoftherails")])
def test_a_folder_of_packs_names_the_pack_folder_to_give(run_cli: RunCli, command: list[str], game: str) -> None:
    code, out, err = run_cli([*command, "--game", game, "--content", "content"], PROJECT_ROOT)
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert f"content: a folder of packs, not one pack's folder; give the {game} pack's: --content content/{game}" in err
    assert "schema directory is missing" not in err


def test_play_with_a_folder_of_packs_names_the_pack_folder_too() -> None:
    done = _play(["--content", "content"], PROJECT_ROOT, "quit\n")
    assert done.returncode == 2 and "--content content/stationmaster" in done.stderr, done.stderr
