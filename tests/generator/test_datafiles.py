"""Each pack's ``cards.json`` is a committed file beside its pages:
``cards`` writes it, ``check`` refuses it when it parts from the content, at
the line where it does, and a file that cannot be read is one line, exit 2."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from engine.packs import pack_rules
from generator.records import export, to_json
from tests.kit.cli import Result
from tests.kit.project import line_of

Run = Callable[..., Result]


def _exported(project: Path, pack: str) -> str:
    rules = pack_rules(pack)
    return to_json(export(rules, rules.load_catalog(project / "content" / pack)))


def test_check_finds_a_stale_or_missing_export_and_cards_writes_it(sm: Run, project: Path) -> None:
    station, trick = project / "site/stationmaster/cards.json", project / "site/trickoftherails/cards.json"
    assert station.read_text(encoding="utf-8") == _exported(project, "stationmaster")
    text = station.read_text(encoding="utf-8")
    station.write_text(text.replace('"count": 12', '"count": 11', 1), encoding="utf-8")
    trick.unlink()
    result = sm("check")
    assert result.code == 1 and "Traceback" not in result.output
    located = {p.path: p for p in result.problems if p.path.endswith("cards.json")}
    assert located["site/stationmaster/cards.json"].line == line_of(text, '"count": 12')
    assert "no longer what the content exports" in located["site/stationmaster/cards.json"].message
    assert located["site/trickoftherails/cards.json"][1:3] == (1, 1) and "missing" in located["site/trickoftherails/cards.json"].message
    assert all("run `make cards`" in p.message for p in located.values()), result.out
    result = sm("cards")
    assert result.code == 0, result.output
    assert "site/stationmaster/cards.json" in result.out and "site/trickoftherails/cards.json" in result.out
    assert station.read_text(encoding="utf-8") == text and trick.read_text(encoding="utf-8") == _exported(project, "trickoftherails")


def test_an_export_that_cannot_be_read_is_one_line(sm: Run, project: Path) -> None:
    station = project / "site/stationmaster/cards.json"
    station.unlink()
    station.mkdir()
    result = sm("check")
    assert result.code == 2 and result.out == "" and "Traceback" not in result.err, result.output
    assert result.err.splitlines()[-1] == "stationmaster: cannot read site/stationmaster/cards.json: Is a directory"
    shutil.rmtree(station)
