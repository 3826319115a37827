"""``stationmaster changelog``: each side of a scratch repository's history
read through the real loader, compared card by card; every bad input a
one-line error with a non-zero exit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.changelog import PackSide, compare_pack
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT

MANEUVERS = Path("content/stationmaster/home-deck/maneuvers.yaml")


def _git(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository holding the shipped content at its first commit, and in
    the working tree: Poling renamed, Red Flag with another copy, Flying
    Switch dealt by no configuration, and one card added."""
    for name in [k for k in os.environ if k.startswith("GIT_")]:
        monkeypatch.delenv(name)
    root = tmp_path / "repo"
    shutil.copytree(PROJECT_ROOT / "content", root / "content")
    (root / "site").mkdir()
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "first")
    path = root / MANEUVERS
    text = path.read_text(encoding="utf-8")
    text = text.replace("name: Poling\n", "name: Poling Pole\n").replace("    count: 2\n    handLimitBonus", "    count: 3\n    handLimitBonus")
    text = text.replace("  - id: flying-switch\n    name: Flying Switch\n    count: 1\n", "  - id: flying-switch\n    name: Flying Switch\n    count: 0\n")
    text += "  - id: poling-spare\n    name: Spare Pole\n    count: 1\n    effect: poling\n    source:\n      designed: A card for the test.\n"
    path.write_text(text, encoding="utf-8")
    return root


def test_text_lists_each_card_with_each_fact_before_and_after(repo: Path, run_cli: RunCli) -> None:
    code, out, err = run_cli(["changelog", "HEAD"], repo)
    assert code == 0, err
    assert "Station Master (stationmaster): 1 added, 1 renamed, 2 changed" in out
    assert "  added    poling-spare  Spare Pole  [maneuvers]" in out
    assert "  renamed  poling  Poling Pole  [maneuvers]\n      name: 'Poling' → 'Poling Pole'" in out
    assert "      count: 2 → 3" in out
    assert "      dealt: yes → no (every configuration)" in out
    assert "Trick of the Rails (trickoftherails): no card changed" in out
    assert "today's engine" in out


def test_json_is_deterministic_and_names_each_change(repo: Path, run_cli: RunCli) -> None:
    first = run_cli(["changelog", "HEAD", "--format", "json", "--game", "stationmaster"], repo)
    again = run_cli(["changelog", "HEAD", "--format", "json", "--game", "stationmaster"], repo)
    assert first.code == 0 and first.out == again.out
    data = json.loads(first.out)
    assert [p["pack"] for p in data["packs"]] == ["stationmaster"]
    cards = {c["id"]: c for c in data["packs"][0]["cards"]}
    assert cards["poling-spare"]["kind"] == "added"
    switch = {ch["field"]: ch for ch in cards["flying-switch"]["changes"]}
    assert switch["count"]["old"] == 1 and switch["count"]["new"] == 0
    assert switch["dealt"]["old"] is True and switch["dealt"]["new"] is False and switch["dealt"]["configurations"]


def test_two_revisions_and_markdown(repo: Path, run_cli: RunCli) -> None:
    _git(repo, "commit", "-qam", "second")
    code, out, err = run_cli(["changelog", "HEAD~1", "HEAD", "--format", "markdown"], repo)
    assert code == 0, err
    assert out.startswith("# Changes from HEAD~1 (")
    assert "- Poling Pole: renamed from Poling.\n" in out
    assert run_cli(["changelog", "HEAD", "HEAD"], repo).out.count("no card changed") == 2


def test_an_id_change_is_a_new_id_only_when_everything_else_agrees() -> None:
    def side(*records: dict[str, object]) -> PackSide:
        return PackSide("T", {}, {str(r["id"]): r for r in records})

    def card(card_id: str, name: str, text: str = "x") -> dict[str, object]:
        return {"id": card_id, "name": name, "family": "f", "count": 1, "text": text, "source": {"edition": "e"}, "effect": None, "status": None, "dealt": {}, "fields": {}}

    sure = compare_pack("t", side(card("a", "A")), side(card("b", "A")))
    assert [(c.kind, c.id, c.old_id) for c in sure.cards] == [("new id", "b", "a")]
    other_text = compare_pack("t", side(card("a", "A")), side(card("b", "A", "y")))
    assert [(c.kind, c.id) for c in other_text.cards] == [("added", "b"), ("removed", "a")]
    twins = compare_pack("t", side(card("a", "A"), card("c", "A")), side(card("b", "A")))
    assert sorted(c.kind for c in twins.cards) == ["added", "removed", "removed"]


def test_a_bad_revision_is_one_line(repo: Path, run_cli: RunCli) -> None:
    code, out, err = run_cli(["changelog", "no-such-rev"], repo)
    assert code == 2 and out == ""
    assert err == "stationmaster: no revision 'no-such-rev' in this repository\n"


def test_outside_a_repository_is_one_line(tmp_path: Path, run_cli: RunCli) -> None:
    shutil.copytree(PROJECT_ROOT / "content", tmp_path / "plain" / "content")
    (tmp_path / "plain" / "site").mkdir()
    code, out, err = run_cli(["changelog", "HEAD"], tmp_path / "plain")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "is not in a git repository" in err


def test_content_that_does_not_load_names_the_revision_and_the_first_problem(repo: Path, run_cli: RunCli) -> None:
    path = repo / MANEUVERS
    path.write_text(path.read_text(encoding="utf-8").replace("count: 3", "count: three"), encoding="utf-8")
    _git(repo, "commit", "-qam", "broken")
    code, out, err = run_cli(["changelog", "HEAD~1", "HEAD"], repo)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("stationmaster: the stationmaster content at revision HEAD (")
    assert f"{MANEUVERS.as_posix()}:" in err and "three" in err


def test_unwritable_output_is_one_line_and_leaves_no_file(repo: Path, run_cli: RunCli) -> None:
    target = repo / "no-such-folder" / "log.txt"
    code, out, err = run_cli(["changelog", "HEAD", "--output", str(target)], repo)
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err
    assert not target.parent.exists()
    code, out, err = run_cli(["changelog", "HEAD", "--output", str(repo / "log.md"), "--format", "markdown"], repo)
    assert code == 0 and out == "" and (repo / "log.md").read_text(encoding="utf-8").startswith("# Changes from HEAD")
