"""The built site: ``mkdocs build --strict`` passes on the real project, card
text reaches the HTML as literal text (no injected cells, markup or script),
and the MkDocs plugin renders the tables from content/ on every build."""

from __future__ import annotations

import html
import re
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.packs import pack_rules
from generator.records import export, to_json
from tests.kit import hang_guard
from tests.kit.cli import Result, stop_server, subprocess_env
from tests.kit.pages import status_of
from tests.kit.project import PROJECT_ROOT, VENV_BIN, edit, line_of, snapshot

Run = Callable[..., Result]
MKDOCS = VENV_BIN / "mkdocs"

pytestmark = pytest.mark.skipif(not MKDOCS.exists(), reason="no .venv/bin/mkdocs")


def exported(pack: str) -> str:
    return to_json(export(pack_rules(pack), pack_rules(pack).load_catalog(PROJECT_ROOT / "content" / pack)))


def build(cwd: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return hang_guard.run([MKDOCS, "build", "--strict", "--site-dir", out], "mkdocs build --strict to end", cwd=cwd, env=subprocess_env())


def row_of(page_html: str, anchor: str) -> tuple[str, str]:
    """(the <tr> holding ``id="anchor"``, the <table> around it)."""
    at = page_html.index(f'id="{anchor}"')
    tr = page_html[page_html.rindex("<tr>", 0, at) : page_html.index("</tr>", at) + len("</tr>")]
    table = page_html[page_html.rindex("<table>", 0, at) : page_html.index("</table>", at)]
    return tr, table


def cells_of(tr: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", tr, re.DOTALL)


def heads(table: str) -> int:
    return len(re.findall(r"<th[ >]", table))


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_real_project_builds_strict_without_warnings(tmp_path: Path) -> None:
    before = snapshot(PROJECT_ROOT / "site" / "stationmaster")
    proc = build(PROJECT_ROOT, tmp_path / "out")
    assert snapshot(PROJECT_ROOT / "site" / "stationmaster") == before
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert not [line for line in output.splitlines() if "WARNING" in line], output
    assert "Traceback" not in output
    home = (tmp_path / "out/stationmaster/home-deck.html").read_text(encoding="utf-8")
    tr, table = row_of(home, "card-depot")
    assert len(cells_of(tr)) == heads(table)
    assert (tmp_path / "out/stationmaster/mainline.html").exists() and (tmp_path / "out/stationmaster/editing.html").exists()
    # The build publishes each pack's committed export, byte for byte what `export` prints, beside its schema.
    for pack in ("stationmaster", "trickoftherails"):
        assert (tmp_path / f"out/{pack}/cards.json").read_text(encoding="utf-8") == exported(pack)
    assert (tmp_path / "out/cards.schema.json").exists()


NAME = "P|o <script>alert(1)</script> `c` *b* _x_ [l](http://x)"  # names are one line
SUMMARY = "Pipe | here <script>alert(1)</script> `tick`\n      *bold* _x_ [link](http://x) end"


def test_card_text_is_shown_literally_in_the_built_html(sm: Run, project: Path, tmp_path: Path) -> None:
    assert len(NAME) <= 60
    edit(project / "content/stationmaster/home-deck/maneuvers.yaml", "    name: Poling\n", f'    name: "{NAME}"\n')
    edit(project / "content/stationmaster/effects.yaml", "    summary: TBD in the source.\n", f"    summary: |\n      {SUMMARY}\n")
    result = sm("cards")
    assert result.code == 0, result.output
    assert sm("check").code == 0
    markdown = (project / "site/stationmaster/home-deck.md").read_text(encoding="utf-8")
    md_row = markdown.splitlines()[line_of(markdown, 'id="card-poling"></a>') - 1]
    assert "\\|" in md_row and "&lt;script&gt;" in md_row

    proc = build(project, tmp_path / "out")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = tmp_path / "out"
    every_page = "".join(p.read_text(encoding="utf-8") for p in out.glob("*.html"))
    assert "<script>alert(1)</script>" not in every_page
    assert 'href="http://x"' not in every_page

    home = (out / "stationmaster" / "home-deck.html").read_text(encoding="utf-8")
    tr, table = row_of(home, "card-poling")
    cells = cells_of(tr)
    assert len(cells) == heads(table) == 4, tr  # Card | Dealt | Status | Effect
    for tag in ("<strong>", "<em>", "<code>", "<a href"):
        assert tag not in tr, (tag, tr)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in cells[0] and "&lt;script&gt;alert(1)&lt;/script&gt;" in cells[3]
    assert text_of(cells[0]) == "P|o <script>alert(1)</script> `c` *b* _x_ [l](http://x)"
    assert text_of(cells[3]) == "Pipe | here <script>alert(1)</script> `tick` *bold* _x_ [link](http://x) end"
    assert cells[1].strip() == "yes" and status_of(cells[2]) in ("live", "dormantSolo", "unbuilt")

    # the same name as a link's text, and the summary, in the effects table
    editing = (out / "stationmaster" / "editing.html").read_text(encoding="utf-8")
    tr, table = row_of(editing, "effect-poling")
    cells = cells_of(tr)
    assert len(cells) == heads(table) == 4, tr
    assert "<strong>" not in tr and "<em>" not in tr
    assert tr.count("<code>") == 1 and "<code>poling</code>" in cells[0]
    assert re.fullmatch(r'<a href="home-deck.html#card-poling">[^<]*</a>', cells[3].strip()), cells[3]
    assert text_of(cells[3]) == "P|o <script>alert(1)</script> `c` *b* _x_ [l](http://x)"


def test_plugin_renders_tables_from_content_without_cards(project: Path, tmp_path: Path) -> None:
    edit(
        project / "content/stationmaster/home-deck/trains.yaml",
        '  - id: train-3\n    name: No. 3 Way Freight\n    count: 1\n    number: "3"\n    service: timetabled\n    speed: slow\n',
        '  - id: train-3\n    name: No. 3 Way Freight\n    count: 1\n    number: "3"\n    service: timetabled\n    speed: fast\n',
    )
    edit(project / "content/stationmaster/home-deck/maneuvers.yaml", "    name: Poling\n", "    name: Punting\n")
    before = snapshot(project / "site" / "stationmaster")
    proc = build(project, tmp_path / "out")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert snapshot(project / "site" / "stationmaster") == before, "the plugin must never write a page"
    home = (tmp_path / "out/stationmaster/home-deck.html").read_text(encoding="utf-8")
    tr, _ = row_of(home, "card-train-3")
    assert [c.strip() for c in cells_of(tr)][4] == "fast", tr  # Train | Dealt | Status | Number | Speed
    tr, _ = row_of(home, "card-poling")
    assert text_of(cells_of(tr)[0]) == "Punting"
    # and a committed page still has the old text, so check would refuse it
    assert "| 3 | slow |" in (project / "site/stationmaster/home-deck.md").read_text(encoding="utf-8")


def test_plugin_refuses_content_that_does_not_validate(project: Path, tmp_path: Path) -> None:
    trains = project / "content/stationmaster/home-deck/trains.yaml"
    text = trains.read_text(encoding="utf-8")
    line = line_of(text, "speed: slow")
    lines = text.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace("speed: slow", "speed: glacial")
    trains.write_text("".join(lines), encoding="utf-8")
    proc = build(project, tmp_path / "out")
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert "the content does not validate" in output
    assert f"content/stationmaster/home-deck/trains.yaml:{line}:12: card 'train-3', field 'speed'" in output
    assert "Traceback" not in output


def test_plugin_refuses_broken_markers(project: Path, tmp_path: Path) -> None:
    page = project / "site/stationmaster/mainline.md"
    text = page.read_text(encoding="utf-8")
    n = len(text.splitlines())
    page.write_text(text + "\n<!-- /generated -->\n", encoding="utf-8")
    proc = build(project, tmp_path / "out")
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert "generated-block markers are broken" in output
    assert f"site/stationmaster/mainline.md:{n + 2}:1: a closing marker with no block open" in output


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _fetch(url: str) -> str | None:
    import urllib.error
    import urllib.request

    try:
        # A request that times out counts as "not yet": the caller asks again.
        with urllib.request.urlopen(url, timeout=5) as response:
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def test_serve_rerenders_the_tables_when_a_content_file_changes(project: Path) -> None:
    """``make serve``: a real ``mkdocs serve``; saving a YAML file under
    content/ rebuilds the page with the new card text, and no page under site/
    is written."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}/stationmaster/home-deck.html"
    before = snapshot(project / "site" / "stationmaster")
    log = tempfile.TemporaryFile(mode="w+")  # a file, not a pipe: a full pipe would stall the server
    server = subprocess.Popen(
        [str(MKDOCS), "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        env=subprocess_env(),
        stdout=subprocess.DEVNULL,
        stderr=log,
        text=True,
    )
    try:

        def server_log() -> str:
            log.seek(0)
            return log.read()[-3000:]

        def showing(text: str) -> Callable[[], str | None]:
            def ready() -> str | None:
                if server.poll() is not None:
                    raise AssertionError(f"mkdocs serve stopped:\n{server_log()}")
                page = _fetch(url)
                return page if page is not None and text in page else None

            return ready

        # Waits for the re-render however long a loaded machine takes; only a hang fails.
        first = hang_guard.wait_until(showing("card-poling"), f"{url} to show card-poling", details=server_log)
        tr, _ = row_of(first, "card-poling")
        assert text_of(cells_of(tr)[0]) == "Poling"
        edit(project / "content/stationmaster/home-deck/maneuvers.yaml", "    name: Poling\n", "    name: Punting\n")
        second = hang_guard.wait_until(showing("Punting"), f"{url} to show the edited name Punting", details=server_log)
        tr, _ = row_of(second, "card-poling")
        assert text_of(cells_of(tr)[0]) == "Punting"
    finally:
        stop_server(server, log)
    assert snapshot(project / "site" / "stationmaster") == before, "serving never writes a page"
