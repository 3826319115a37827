"""``stationmaster export`` and the published ``cards.json``: every card of
a pack with its status and the configurations that deal it, valid against
the committed schema, byte-identical run after run and equal to the file
committed under ``site/<pack>/``; bad input is one line and a non-zero exit.
What each field means is checked in ``tests/generator/test_records.py``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from engine.packs import pack_rules
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT

SCHEMA = json.loads((PROJECT_ROOT / "site" / "cards.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("pack", ["stationmaster", "trickoftherails"])
def test_the_export_follows_its_schema_and_the_packs_own_answers(pack: str, run_cli: RunCli) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    code, out, err = run_cli(["export", "--game", pack], PROJECT_ROOT)
    assert code == 0, err
    data = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    rules = pack_rules(pack)
    catalog = rules.load_catalog(PROJECT_ROOT / "content" / pack)
    listed = {c["id"]: c for c in data["configurations"]}
    assert [c["id"] for c in data["cards"]] == [c.id for c in catalog.cards]
    for record, card in zip(data["cards"], catalog.cards):
        assert record["status"] == rules.status(catalog, card)
        # Every full configuration deals the card just when the one listed for it does.
        for full in rules.configurations(catalog):
            (standing,) = [i for i, c in listed.items() if c["players"] == full.players and all(full.rules.get(k) == v for k, v in c["rules"].items())]
            assert rules.is_dealt(catalog, card, full) == (standing in record["dealtIn"]), (card.id, full.key)
        assert record["count"] == card.count and record["name"] == card.name
        assert ("designed" in record["source"]) == card.source.designed
    assert run_cli(["export", "--game", pack], PROJECT_ROOT).out == out
    # The file the site publishes is what `export` prints.
    assert (PROJECT_ROOT / "site" / pack / "cards.json").read_text(encoding="utf-8") == out


def test_a_designed_card_and_its_fields(run_cli: RunCli) -> None:
    data = json.loads(run_cli(["export"], PROJECT_ROOT).out)
    assert data["pack"] == "stationmaster"
    trains = [c for c in data["cards"] if c["family"] == "trains"]
    assert trains and all({"consist", "service", "speed"} <= set(c["fields"]) for c in trains)
    sources = [c["source"] for c in data["cards"]]
    assert any("designed" in s for s in sources) and any("edition" in s for s in sources)


def test_content_that_does_not_load_is_one_line(content_copy: Path, run_cli: RunCli) -> None:
    trains = content_copy / "home-deck" / "trains.yaml"
    trains.write_text(trains.read_text(encoding="utf-8").replace("caboose: true", "caboose: yes", 1), encoding="utf-8")
    code, out, err = run_cli(["export", "--content", str(content_copy)], content_copy.parent)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "trains.yaml:" in err and "Traceback" not in err


def test_a_missing_folder_and_an_unwritable_output(tmp_path: Path, run_cli: RunCli) -> None:
    code, out, err = run_cli(["export", "--content", str(tmp_path / "nothing")], tmp_path)
    assert code == 2 and err.count("\n") == 1 and "no such content directory" in err
    target = tmp_path / "missing" / "cards.json"
    code, out, err = run_cli(["export", "--output", str(target)], PROJECT_ROOT)
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err and not target.parent.exists()
    shutil.rmtree(tmp_path / "missing", ignore_errors=True)
    code, out, err = run_cli(["export", "--output", str(tmp_path / "cards.json")], PROJECT_ROOT)
    assert code == 0 and out == ""
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads((tmp_path / "cards.json").read_text(encoding="utf-8")))
