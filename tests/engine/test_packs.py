"""Game packs: how the kit finds them, and every way a pack can be malformed.

Each bad case is a located error naming the pack, exit 1 (or 2 when nothing
can run), and never a traceback; the pages and content are left as they were.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.pack import AnyPack
from engine.packs import find_packs, known_pack_ids, pack_rules
from tests.kit.cli import Result
from tests.kit.project import edit, snapshot

Run = Callable[..., Result]


def test_the_engine_knows_station_master() -> None:
    assert "stationmaster" in known_pack_ids()
    pack: AnyPack = pack_rules("stationmaster")
    assert pack.id == "stationmaster" and pack.title == "Station Master"


def test_a_folder_of_packs_and_a_pack_folder_are_both_found(shipped_content: Path) -> None:
    packs, problems = find_packs(shipped_content.parent)
    assert problems == [] and [p.id for p in packs] == known_pack_ids()
    one, problems = find_packs(shipped_content)
    assert problems == [] and [(p.id, p.content) for p in one] == [("stationmaster", shipped_content)]


def test_the_interface_answers_for_every_card(shipped_content: Path) -> None:
    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(shipped_content)
    configurations = pack.configurations(catalog)
    assert configurations and len({c.key for c in configurations}) == len(configurations)
    for card in catalog.cards:
        assert pack.status(catalog, card) in (None, "live", "dormantSolo", "unbuilt")
        assert isinstance(pack.is_dealt(catalog, card, configurations[0]), bool)
    game = pack.new_game(catalog, configurations[0], seed=3)
    assert game.legal_actions() and not game.is_over()


def _problems(result: Result) -> list[tuple[str, int, int, str]]:
    assert "Traceback" not in result.output
    return result.located()


def test_a_pack_without_its_game_file(sm: Run, project: Path) -> None:
    (project / "content" / "stationmaster" / "game.yaml").unlink()
    before = snapshot(project)
    for command in ("validate", "check", "cards"):
        result = sm(command)
        assert result.code == 1, result.output
        assert "content/stationmaster: this pack has no game.yaml" in result.out, result.out
    assert snapshot(project) == before


def test_a_game_file_that_names_no_pack(sm: Run, project: Path) -> None:
    edit(project / "content" / "stationmaster" / "game.yaml", "\nid: stationmaster\n", "\n")
    result = sm("validate")
    assert result.code == 1
    assert _problems(result) == [
        ("content/stationmaster/game.yaml", 1, 1, "game.yaml does not say which game it is: add a top-level line 'id: <pack>' (known packs: " + ", ".join(known_pack_ids()) + ")")
    ]


def test_a_pack_whose_rules_do_not_exist(sm: Run, project: Path) -> None:
    shutil.copytree(project / "content" / "stationmaster", project / "content" / "nosuch")
    edit(project / "content" / "nosuch" / "game.yaml", "\nid: stationmaster\n", "\nid: nosuch\n")
    result = sm("validate")
    assert result.code == 1
    text = (project / "content" / "nosuch" / "game.yaml").read_text(encoding="utf-8")
    line = text.split("\n").index("id: nosuch") + 1
    assert ("content/nosuch/game.yaml", line, 5, f"pack 'nosuch' has no rules: there is no engine/nosuch/pack.py (known packs: {', '.join(known_pack_ids())})") in _problems(result)


def test_two_packs_with_one_id(sm: Run, project: Path) -> None:
    shutil.copytree(project / "content" / "stationmaster", project / "content" / "stationmaster-copy")
    before = snapshot(project)
    for command in ("validate", "check"):
        result = sm(command)
        assert result.code == 1, result.output
        found = [p for p in _problems(result) if p[0] == "content/stationmaster-copy/game.yaml"]
        assert len(found) == 1 and "pack 'stationmaster' is already the pack in content/stationmaster" in found[0][3], result.out
    assert snapshot(project) == before


def test_a_pack_without_its_schemas(sm: Run, project: Path) -> None:
    shutil.rmtree(project / "content" / "stationmaster" / "schema")
    result = sm("validate")
    assert result.code == 1
    assert "content/stationmaster/schema: the schema directory is missing" in result.out


def test_a_page_in_a_folder_that_is_no_pack(sm: Run, project: Path) -> None:
    (project / "site" / "chess").mkdir()
    (project / "site" / "chess" / "rules.md").write_text("# Chess\n", encoding="utf-8")
    before = snapshot(project)
    for command in ("check", "cards"):
        result = sm(command)
        assert result.code == 1, result.output
        assert ("site/chess/rules.md", 1, 1, "this page belongs to no pack: site/chess/ is not a pack's folder (packs: stationmaster, trickoftherails)") in _problems(result)
    assert snapshot(project) == before


def test_a_generated_table_on_a_kit_page(sm: Run, project: Path) -> None:
    home = project / "site" / "index.md"
    home.write_text(home.read_text(encoding="utf-8") + "\n<!-- generated: track -->\n<!-- /generated -->\n", encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    line = home.read_text(encoding="utf-8").split("\n").index("<!-- generated: track -->") + 1
    assert [p[:3] for p in _problems(result)] == [("site/index.md", line, 1)]
    assert "belongs to no pack" in result.out


def test_the_kit_manual_folder_belongs_to_the_kit(sm: Run, project: Path) -> None:
    kit = project / "site" / "kit"
    kit.mkdir(exist_ok=True)
    (kit / "extra.md").write_text("# Extra\n\n## A part\n", encoding="utf-8")
    # A pack's page may link to a kit page and its anchors, as the built site does.
    editing = project / "site" / "stationmaster" / "editing.md"
    editing.write_text(editing.read_text(encoding="utf-8") + "\nSee [the extra](../kit/extra.md#a-part).\n", encoding="utf-8")
    result = sm("check")
    assert result.code == 0, result.output
    edit(editing, "../kit/extra.md#a-part", "../kit/extra.md#no-part")
    result = sm("check")
    assert result.code == 1 and "points at anchor '#no-part', which ../kit/extra.md does not have" in result.out, result.output


def test_a_generated_table_on_a_kit_manual_page(sm: Run, project: Path) -> None:
    kit = project / "site" / "kit"
    kit.mkdir(exist_ok=True)
    (kit / "extra.md").write_text("# Extra\n\n<!-- generated: track -->\n<!-- /generated -->\n", encoding="utf-8")
    result = sm("check")
    assert result.code == 1
    assert [p[:3] for p in _problems(result)] == [("site/kit/extra.md", 3, 1)]
    assert "belongs to no pack" in result.out


def test_an_asset_folder_without_pages_is_no_problem(sm: Run, project: Path) -> None:
    (project / "site" / "images").mkdir()
    (project / "site" / "images" / "logo.svg").write_text("<svg/>", encoding="utf-8")
    assert sm("check").code == 0


@pytest.mark.parametrize("args", [["validate", "content/nowhere"]])
def test_a_missing_folder_is_a_usage_error(sm: Run, args: list[str]) -> None:
    result = sm(*args)
    assert result.code == 2 and "no such content directory" in result.err


def test_a_pack_loader_refuses_another_packs_content(content_copy: Path) -> None:
    """The Station Master loader, called directly on content whose game.yaml
    names another pack, refuses it at the id (validate never gets that far:
    discovery already says the pack has no rules)."""
    from engine.errors import ContentError
    from engine.stationmaster import load_catalog

    game = content_copy / "game.yaml"
    text = game.read_text(encoding="utf-8").replace("\nid: stationmaster\n", "\nid: othergame\n")
    game.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_catalog(content_copy)
    line = text.split("\n").index("id: othergame") + 1
    assert [(p.line, p.column, p.message) for p in caught.value.problems] == [(line, 5, "game.yaml names pack 'othergame', but this is the stationmaster pack's loader")]


def test_the_folder_named_for_the_id_is_the_pack_when_a_copy_sorts_first(sm: Run, project: Path) -> None:
    shutil.copytree(project / "content" / "stationmaster", project / "content" / "aaa-copy")
    result = sm("validate")
    assert result.code == 1
    assert [p[0] for p in _problems(result) if "is already the pack" in p[3]] == ["content/aaa-copy/game.yaml"], result.out


def test_a_misspelt_pack_id_gets_a_suggestion(sm: Run, project: Path) -> None:
    edit(project / "content" / "stationmaster" / "game.yaml", "\nid: stationmaster\n", "\nid: stationmastr\n")
    result = sm("validate")
    assert result.code == 1
    assert "pack 'stationmastr' has no rules: there is no engine/stationmastr/pack.py (did you mean 'stationmaster'?)" in result.out
