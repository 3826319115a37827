"""``stationmaster lsp`` against clients that misbehave, over raw stdio (a
subprocess each): bytes that are no message, requests that make no sense, a
file in no pack, a pack holding something unreadable, and a client that goes
away without a word. The server answers what it can, says the rest in its
log, writes nothing, and ends when its client does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.kit.cli import subprocess_env
from tests.kit.project import PROJECT_ROOT

pytestmark = pytest.mark.xdist_group("lsp")


def frame(message: dict[str, Any] | bytes) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(number: int, method: str, params: Any) -> bytes:
    return frame({"jsonrpc": "2.0", "id": number, "method": method, "params": params})


def notify(method: str, params: Any) -> bytes:
    return frame({"jsonrpc": "2.0", "method": method, "params": params})


def replies(out: bytes) -> list[dict[str, Any]]:
    found = []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        size = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
        found.append(json.loads(rest[:size]))
        out = rest[size:]
    return found


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.rglob("*") if p.is_file()}


def test_nonsense_a_stray_file_an_unreadable_one_and_a_client_that_leaves(tmp_path: Path) -> None:
    content = tmp_path / "content" / "trickoftherails"
    shutil.copytree(PROJECT_ROOT / "content" / "trickoftherails", content)
    os.mkfifo(content / "stray.yaml")  # reading it would block forever
    locomotives = content / "locomotives.yaml"
    before = snapshot(tmp_path)
    text = locomotives.read_text(encoding="utf-8")
    stdin = b"".join(
        [
            b"this is no header\r\n\r\n",
            frame(b"{{{ not json"),
            request(1, "initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}),
            notify("initialized", {}),
            request(2, "no/such/method", {}),
            request(3, "textDocument/hover", {"textDocument": {"uri": 7}}),
            notify("textDocument/didOpen", {"textDocument": {"uri": (tmp_path / "notes.yaml").as_uri(), "languageId": "yaml", "version": 1, "text": "a: ["}}),
            request(4, "textDocument/hover", {"textDocument": {"uri": (tmp_path / "notes.yaml").as_uri()}, "position": {"line": 0, "character": 0}}),
            notify("textDocument/didOpen", {"textDocument": {"uri": locomotives.as_uri(), "languageId": "yaml", "version": 1, "text": text.replace("cards:", "cards: [")}}),
            request(5, "textDocument/documentSymbol", {"textDocument": {"uri": locomotives.as_uri()}}),
        ]
    )
    # The client writes all this and leaves: stdin ends, no shutdown, no exit.
    done = subprocess.run([sys.executable, "-m", "command.cli", "lsp"], input=stdin, capture_output=True, timeout=120, cwd=tmp_path, env=subprocess_env())
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    assert done.returncode == 0
    answers = replies(done.stdout)
    by_id = {a["id"]: a for a in answers if "id" in a}
    assert "result" in by_id[1]
    assert by_id[2]["error"]["code"] == -32601  # method not found
    assert 3 not in by_id or "error" in by_id[3]  # pygls logs params it cannot read; no crash either way
    assert by_id[4]["result"] is None
    assert by_id[5]["result"] == []  # the buffer does not read: no outline, no crash
    published = {a["params"]["uri"]: a["params"]["diagnostics"] for a in answers if a.get("method") == "textDocument/publishDiagnostics"}
    assert published[locomotives.as_uri()], "the broken buffer is a diagnostic"
    assert any("FIFO" in d["message"] for d in published.get((content / "stray.yaml").as_uri(), []))
    assert (tmp_path / "notes.yaml").as_uri() not in published
    assert snapshot(tmp_path) == before, "the server wrote a file"
