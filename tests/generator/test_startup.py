"""What keeps a ``check`` on the shipped content quick to start: the game
modules stay unloaded. (Templates are compiled afresh in every run: nothing
compiled is kept on disk, see tests/fuzz/test_planted_caches.py.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.kit import hang_guard
from tests.kit.cli import subprocess_env
from tests.kit.project import PROJECT_ROOT


def _modules_after(args: list[str], cwd: Path) -> set[str]:
    code = f"import sys\nfrom command.cli import main\ncode = main({args!r})\nprint(code)\nprint(' '.join(sorted(sys.modules)))\n"
    done = hang_guard.run([sys.executable, "-c", code], f"stationmaster {' '.join(args)} to end", cwd=cwd, env=subprocess_env())
    lines = done.stdout.strip().splitlines()
    assert lines and lines[-2] in ("0", "1"), done.stdout[-2000:] + done.stderr[-2000:]
    return set(lines[-1].split())


@pytest.mark.parametrize("command", [["check"], ["validate"]])
def test_site_and_content_commands_do_not_load_play_or_simulate(command: list[str]) -> None:
    loaded = _modules_after(command, PROJECT_ROOT)
    assert "command.play" not in loaded and "engine.stationmaster.sim.simulate" not in loaded and "command.stationmaster.textview" not in loaded
    assert "multiprocessing" not in loaded, "the shipped site is small: nothing forks"


def test_help_lists_play_and_simulate_without_loading_them() -> None:
    done = hang_guard.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom command.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\nprint('command.play' in sys.modules, 'engine.stationmaster.sim.simulate' in sys.modules)",
        ],
        "stationmaster --help to end",
        cwd=PROJECT_ROOT,
        env=subprocess_env(),
    )
    assert "play Station Master in the terminal" in done.stdout
    assert "play many seeded games" in done.stdout
    assert done.stdout.strip().endswith("False False"), done.stdout


def test_play_and_simulate_still_get_their_full_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    from command import cli

    for command, option in (("play", "--players"), ("simulate", "--games")):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        assert option in capsys.readouterr().out
