"""``make serve`` with content that does not validate: the preview shows the
located problems on every page instead of failing the rebuild (which left
the browser waiting on a server that never answered), and the next build
after the fix shows the site again. ``mkdocs build`` still refuses it.

Most of this calls the plugin's hooks directly on a broken copy; one test
starts a real ``mkdocs serve`` on the loopback address, under the hang guard."""

from __future__ import annotations

import socket
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from generator.mkdocs_plugin import CardTablesPlugin
from tests.kit import hang_guard
from tests.kit.cli import stop_server, subprocess_env
from tests.kit.project import VENV_BIN, edit

MANEUVERS = "content/stationmaster/home-deck/maneuvers.yaml"
PROBLEM = f"{MANEUVERS}:16:5: card 'poling', field 'nam': unknown key 'nam'"
NO_PAGE = cast(Any, None)  # the hooks under test do not read the files
HOME_DECK = cast(Any, SimpleNamespace(url="stationmaster/home-deck.html", meta={}))  # what they read of a page


def break_content(root: Path) -> None:
    edit(root / MANEUVERS, "    name: Poling\n", "    nam: Poling\n")


def mend_content(root: Path) -> None:
    edit(root / MANEUVERS, "    nam: Poling\n", "    name: Poling\n")


def plugin_for(root: Path, command: str) -> tuple[CardTablesPlugin, Any]:
    config = load_config(str(root / "mkdocs.yml"))
    plugin = CardTablesPlugin()
    plugin.on_startup(command=command, dirty=False)
    plugin.on_config(config)
    return plugin, config


def test_serving_shows_the_problems_on_every_page_and_recovers(project: Path) -> None:
    break_content(project)
    plugin, config = plugin_for(project, "serve")
    plugin.on_pre_build(config)  # no exception: the preview goes on
    page = plugin.on_page_content("<h1>Home Deck</h1>", HOME_DECK, config, NO_PAGE)
    assert PROBLEM in page
    assert page.endswith("<h1>Home Deck</h1>")
    mend_content(project)
    plugin.on_pre_build(config)
    assert plugin.on_page_content("<h1>Home Deck</h1>", HOME_DECK, config, NO_PAGE) == "<h1>Home Deck</h1>"


def test_the_problem_text_is_escaped_in_the_page(project: Path) -> None:
    edit(project / MANEUVERS, "    name: Poling\n", "    name: Poling\n    <b>x</b>: 1\n")
    plugin, config = plugin_for(project, "serve")
    plugin.on_pre_build(config)
    page = plugin.on_page_content("", NO_PAGE, config, NO_PAGE)
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page


def test_broken_markers_show_in_the_preview_too(project: Path) -> None:
    page_file = project / "site/stationmaster/mainline.md"
    text = page_file.read_text(encoding="utf-8")
    page_file.write_text(text.replace("<!-- /generated -->\n", "", 1), encoding="utf-8")
    plugin, config = plugin_for(project, "serve")
    plugin.on_pre_build(config)
    assert "site/stationmaster/mainline.md:" in plugin.on_page_content("", NO_PAGE, config, NO_PAGE)


def test_building_still_refuses_broken_content(project: Path) -> None:
    break_content(project)
    plugin, config = plugin_for(project, "build")
    with pytest.raises(PluginError, match="maneuvers.yaml:16:5"):
        plugin.on_pre_build(config)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_mkdocs_serve_answers_with_the_problems(project: Path) -> None:
    """A real ``mkdocs serve`` started on broken content answers the page
    request with the located problem in it."""
    break_content(project)
    port = _free_port()
    url = f"http://127.0.0.1:{port}/stationmaster/home-deck.html"
    log = tempfile.TemporaryFile(mode="w+")  # a file: a full pipe would stall the server
    server = subprocess.Popen(
        [str(VENV_BIN / "mkdocs"), "serve", "--dev-addr", f"127.0.0.1:{port}", "--no-livereload"],
        cwd=project,
        env=subprocess_env(),
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:

        def server_log() -> str:
            log.seek(0)
            return log.read()[-3000:]

        def answer() -> str | None:
            if server.poll() is not None:
                raise AssertionError(f"mkdocs serve stopped:\n{server_log()}")
            try:
                # A request that times out is only asked again: the hang guard bounds the wait.
                with urllib.request.urlopen(url, timeout=10) as response:
                    return str(response.read().decode("utf-8"))
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                return None

        page = hang_guard.wait_until(answer, f"{url} to answer", details=server_log)
        assert PROBLEM in page
    finally:
        stop_server(server, log)
