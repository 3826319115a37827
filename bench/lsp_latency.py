"""How soon ``stationmaster lsp`` shows what ``validate`` says after an edit.

For each pack (and for Station Master grown by 1,000 and 10,000 synthetic
cards, ``synthetic.py``) one server is started over stdio, a card file is
opened, and a card's count is typed anew ``--runs`` times (unsaved: nothing
on disk changes). Each edit is timed from the change sent to the file's
diagnostics received (wall: what the designer waits for, the 0.1 s pause
that gathers keystrokes included) and by the server's CPU over that time.
Beside them, in the same run, the baseline: the same pack checked in this
process the way ``validate`` checks it (``load_catalog`` and
``engine_problems``), CPU seconds. Figures are medians.

Target (issue 27): under 300 ms from change to diagnostics on the shipped packs.

Usage: python bench/lsp_latency.py [--runs N] [--sizes 1000,10000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import make_test_lsp_client

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic  # noqa: E402
from warm import precompile  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from engine.packs import pack_rules  # noqa: E402


@dataclass(frozen=True)
class Case:
    label: str
    root: Path  # the workspace: holds content/<pack>/
    pack: str
    file: str  # the file edited, under content/<pack>/
    field: str  # the whole-number field typed anew on each edit
    values: tuple[int, ...]  # the values it is given in turn


def _cpu(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def baseline(case: Case, runs: int) -> float:
    pack = pack_rules(case.pack)
    folder = case.root / "content" / case.pack
    used = []
    for _ in range(runs):
        start = time.process_time()
        pack.engine_problems(pack.load_catalog(folder))
        used.append(time.process_time() - start)
    return statistics.median(used)


async def served(case: Case, runs: int) -> tuple[float, float, int]:
    """(median wall seconds, median server CPU seconds, problems at the end) per edit."""
    client: LanguageClient = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "command.cli", "lsp", cwd=str(case.root), env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        await client.initialize_session(types.InitializeParams(capabilities=client_capabilities("neovim"), root_uri=case.root.as_uri()))
        path = case.root / "content" / case.pack / case.file
        uri, text = path.as_uri(), path.read_text(encoding="utf-8")
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=0, text=text)))
        await _published(client, uri)
        assert client._server is not None
        pid = client._server.pid
        walls, cpus = [], []
        spots = list(re.finditer(rf"\b{case.field}: (\d+)", text))
        assert spots, f"{case.file} holds no {case.field}"
        for run in range(runs):
            found = spots[run % len(spots)]
            others = [v for v in case.values if v != int(found.group(1))]
            new = text[: found.start(1)] + str(others[run % len(others)]) + text[found.end(1) :]
            client.diagnostics.pop(uri, None)
            cpu, wall = _cpu(pid), time.perf_counter()
            change = types.TextDocumentContentChangeWholeDocument(text=new)
            client.text_document_did_change(types.DidChangeTextDocumentParams(text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=run + 1), content_changes=[change]))
            await _published(client, uri)
            walls.append(time.perf_counter() - wall)
            cpus.append(_cpu(pid) - cpu)
        problems = len(client.diagnostics.get(uri, []))
        await client.shutdown_session()
    finally:
        await client.stop()  # type: ignore[no-untyped-call]  # pytest-lsp leaves it untyped
    return statistics.median(walls), statistics.median(cpus), problems


async def _published(client: LanguageClient, uri: str) -> None:
    while uri not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="1000,10000")
    args = parser.parse_args()
    precompile()
    counts = ("count", (0, 1, 2, 3))
    cases = [
        Case("stationmaster, shipped", ROOT, "stationmaster", "home-deck/facilities.yaml", *counts),
        Case("trickoftherails, shipped", ROOT, "trickoftherails", "railway.yaml", "stationValue", (10, 20, 30, 40)),
    ]
    with tempfile.TemporaryDirectory() as scratch:
        for size in [int(s) for s in args.sizes.split(",") if s]:
            root = Path(scratch) / f"n{size}"
            written = synthetic.make(root / "content" / "stationmaster", size)
            cases.append(Case(f"stationmaster + {written:,} synthetic", root, "stationmaster", "home-deck/facilities.yaml", *counts))
        print(f"median of {args.runs} edits each; wall includes the server's 0.1 s pause after a change")
        for case in cases:
            wall, cpu, problems = asyncio.run(served(case, args.runs))
            base = baseline(case, args.runs)
            print(f"{case.label:<36} change to diagnostics {wall * 1000:6.0f} ms wall, {cpu:.3f} CPU s in the server; validate's check in-process {base:.3f} CPU s ({problems} problem(s))")


if __name__ == "__main__":
    main()
