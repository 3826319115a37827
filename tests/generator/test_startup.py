"""What keeps a ``check`` on the shipped content quick to start: the game
modules stay unloaded, and compiled templates are cached beside the templates
without ever being trusted over them."""

from __future__ import annotations

import sys
from pathlib import Path

import jinja2
import pytest

from generator import render
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


def _cached_environment(cache: Path) -> jinja2.Environment:
    env = render.environment("stationmaster")
    env.bytecode_cache = render._TemplateCache(str(cache))
    return env


def _render_all(env: jinja2.Environment) -> dict[str, bytes]:
    """Load every template; the bytecode of each, to compare."""
    return {p.name: env.get_template(p.name).root_render_func.__code__.co_code for p in sorted(render.TEMPLATES.glob("*.md.j2"))}


def _count_compiles(env: jinja2.Environment) -> list[str]:
    compiled: list[str] = []
    real = env.compile

    def counting(source: str, name: str | None = None, *args: object, **kwargs: object) -> object:
        compiled.append(str(name))
        return real(source, name, *args, **kwargs)  # type: ignore[call-overload]  # passes on whatever Jinja passed in

    env.compile = counting  # type: ignore[method-assign, assignment]  # a spy that counts, then compiles
    return compiled


def test_template_cache_is_written_and_reused(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _render_all(_cached_environment(cache))
    files = sorted(cache.iterdir())
    assert len(files) == len(first)
    second_env = _cached_environment(cache)
    compiled = _count_compiles(second_env)
    assert _render_all(second_env) == first
    assert compiled == []


def test_a_corrupt_cache_entry_is_recompiled_not_trusted(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _render_all(_cached_environment(cache))
    from jinja2.bccache import bc_magic

    for entry in cache.iterdir():
        # past Jinja's own header check, so the entry is read and fails to unpickle
        entry.write_bytes(bc_magic + b"not a pickled checksum at all")
    env = _cached_environment(cache)
    compiled = _count_compiles(env)
    assert _render_all(env) == _render_all(render.environment("stationmaster"))
    assert len(compiled) == len(list(render.TEMPLATES.glob("*.md.j2")))


def test_a_cache_entry_for_an_older_template_text_is_not_used(tmp_path: Path) -> None:
    """Jinja keys each entry by template name and checks a checksum of its
    source: an edited template compiles afresh."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "t.md.j2").write_text("old {{ x }}\n", encoding="utf-8")
    cache = tmp_path / "cache"

    def fresh() -> jinja2.Environment:
        return jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), bytecode_cache=render._TemplateCache(str(cache)))

    assert fresh().get_template("t.md.j2").render(x=1) == "old 1"
    (templates / "t.md.j2").write_text("new {{ x }}\n", encoding="utf-8")
    assert fresh().get_template("t.md.j2").render(x=1) == "new 1"


def test_a_cache_directory_that_cannot_be_made_only_costs_compiling(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache directory would go", encoding="utf-8")
    env = _cached_environment(blocker / "inner")
    assert set(_render_all(env)) == {p.name for p in render.TEMPLATES.glob("*.md.j2")}
    assert blocker.read_text(encoding="utf-8").startswith("a file")


def test_options_that_change_compiled_code_use_another_cache_folder() -> None:
    """Jinja's cache key is the template's name and source; the options are
    in the folder name, so code compiled with other options is never served."""
    env = render.environment("stationmaster")
    other = render.environment("stationmaster")
    other.trim_blocks = False
    assert render._compile_key(env) == render._compile_key(render.environment("stationmaster"))
    assert render._compile_key(env) != render._compile_key(other)
    assert env.bytecode_cache is not None and Path(env.bytecode_cache.directory).name == render._compile_key(env)  # type: ignore[attr-defined]
