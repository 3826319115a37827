"""The pre-commit hooks of ``.pre-commit-config.yaml``, for real, in a scratch
git repository: a commit that leaves the site out of date with the content
is refused, so is one with broken content, and ``stationmaster cards`` makes
the commit go through."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.kit import hang_guard
from tests.kit.project import PROJECT_ROOT, VENV_BIN, edit

GIT = shutil.which("git")
PRE_COMMIT = VENV_BIN / "pre-commit"

pytestmark = [
    pytest.mark.skipif(GIT is None, reason="git is not installed"),
    pytest.mark.skipif(not PRE_COMMIT.exists(), reason="no .venv/bin/pre-commit"),
    pytest.mark.skipif(not (VENV_BIN / "stationmaster").exists(), reason="no .venv/bin/stationmaster"),
]

TRAIN_3 = '  - id: train-3\n    name: No. 3 Way Freight\n    count: 1\n    number: "3"\n    service: timetabled\n    speed: slow\n'
TRAIN_3_FAST = TRAIN_3.replace("speed: slow", "speed: fast")


class Repo:
    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.root = root
        self.env = env

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        proc = hang_guard.run(list(args), f"`{Path(args[0]).name} {' '.join(args[1:])}` to end", cwd=self.root, env=self.env)
        if check:
            assert proc.returncode == 0, f"{args}:\n{proc.stdout}{proc.stderr}"
        return proc

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        assert GIT is not None
        return self.run(GIT, *args, check=check)

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").stdout.strip()

    def stationmaster(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run(str(self.root / ".venv/bin/stationmaster"), *args, check=False)


def _environment(home: Path) -> dict[str, str]:
    """The environment of git and pre-commit, with their own home under ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        HOME=str(home / "home"),
        XDG_CONFIG_HOME=str(home / "home" / ".config"),
        GIT_CONFIG_NOSYSTEM="1",
        PRE_COMMIT_HOME=str(home / "pre-commit-home"),
        NO_MKDOCS_2_WARNING="1",
    )
    env.pop("PYTHONPATH", None)
    (home / "home").mkdir(parents=True, exist_ok=True)
    return env


@pytest.fixture(scope="module")
def first_commit(baseline: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository of the up-to-date project with the hooks installed and
    its first commit made (the hooks passing on it), made once: each test
    works on a copy of it."""
    home = tmp_path_factory.mktemp("hooks")
    root = home / "repo"
    root.mkdir()
    for name in ("content", "site"):
        shutil.copytree(baseline / name, root / name)
    shutil.copy2(baseline / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copy2(PROJECT_ROOT / ".pre-commit-config.yaml", root / ".pre-commit-config.yaml")
    (root / ".venv").symlink_to(PROJECT_ROOT / ".venv")
    (root / ".gitignore").write_text(".venv\n", encoding="utf-8")
    made = Repo(root, _environment(home))
    made.git("init", "-q")
    made.git("config", "user.name", "Site Tests")
    made.git("config", "user.email", "site-tests@example.invalid")
    made.git("config", "commit.gpgsign", "false")
    made.run(str(PRE_COMMIT), "install")
    assert (root / ".git/hooks/pre-commit").exists()
    made.git("add", "-A")
    first = made.git("commit", "-m", "initial", check=False)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "stationmaster check (site agrees with content)" in first.stdout + first.stderr
    return root


@pytest.fixture
def repo(first_commit: Path, tmp_path: Path) -> Repo:
    root = tmp_path / "repo"
    shutil.copytree(first_commit, root, symlinks=True)
    made = Repo(root, _environment(tmp_path))
    assert made.git("status", "--porcelain").stdout == ""
    return made


def test_commit_of_stale_site_is_refused_until_cards(repo: Repo) -> None:
    head = repo.head()
    edit(repo.root / "content/stationmaster/home-deck/trains.yaml", TRAIN_3, TRAIN_3_FAST)

    refused = repo.git("commit", "-am", "train 3 runs fast", check=False)
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0, output
    assert repo.head() == head
    assert "stationmaster validate (content is well-formed)" in output and "Passed" in output
    assert "- hook id: stationmaster-check" in output
    assert "site/stationmaster/home-deck.md: out of date with content/" in output
    assert "table 'timetabled-trains': train-3: Speed: slow → fast" in output
    assert "make cards" in output

    fixed = repo.stationmaster("cards")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    # exactly the page whose text changed, the pack's cards.json and the
    # cards' search entries made from the page: the simulation reports are
    # only listed as stale (measured by `make reports`), and no page is
    # re-stamped
    rewritten = fixed.stdout.strip().partition(": ")[2].split(", ")
    assert rewritten == ["site/stationmaster/home-deck.md", "site/stationmaster/cards.json", "site/assets/search/cards.js"], fixed.stdout
    done = repo.git("commit", "-am", "train 3 runs fast", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert repo.head() != head
    changed = repo.git("show", "--name-only", "--format=", "HEAD").stdout.split()
    assert sorted(changed) == sorted(["content/stationmaster/home-deck/trains.yaml", *rewritten])


def test_regenerated_but_unstaged_page_is_still_refused(repo: Repo) -> None:
    """pre-commit checks what is committed: a page regenerated but not staged does not count."""
    edit(repo.root / "content/stationmaster/home-deck/trains.yaml", TRAIN_3, TRAIN_3_FAST)
    assert repo.stationmaster("cards").returncode == 0
    repo.git("add", "content/stationmaster/home-deck/trains.yaml")
    refused = repo.git("commit", "-m", "content only", check=False)
    assert refused.returncode != 0
    assert "table 'timetabled-trains': train-3: Speed: slow → fast" in refused.stdout + refused.stderr
    # the unstaged page is given back untouched
    assert "| 3 | fast |" in (repo.root / "site/stationmaster/home-deck.md").read_text(encoding="utf-8")


def test_hand_edited_table_is_refused(repo: Repo) -> None:
    page = repo.root / "site/stationmaster/home-deck.md"
    edit(page, "| left | W–NE | — |", "| left | W–NW | — |")
    refused = repo.git("commit", "-am", "typo fix in a table", check=False)
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0
    assert "table 'track': curve-left: Routes (ports joined): W–NW → W–NE" in output
    # the validate hook only runs for content/ changes
    assert re.search(r"^stationmaster validate \(content is well-formed\)\.+\(no files to check\)Skipped$", output, re.MULTILINE), output
    assert re.search(r"^stationmaster check \(site agrees with content\)\.+Failed$", output, re.MULTILINE), output


def test_broken_yaml_is_refused_by_the_validate_hook(repo: Repo) -> None:
    head = repo.head()
    edit(
        repo.root / "content/stationmaster/home-deck/trains.yaml",
        '    number: "1"\n    service: timetabled\n    speed: fast\n    consist: {coach: 3}\n',
        '    number: "1"\n    service: timetabled\n    speed: fast\n    consist: {coach: 3\n',
    )
    refused = repo.git("commit", "-am", "broken", check=False)
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0, output
    assert repo.head() == head
    assert "- hook id: stationmaster-validate" in output
    assert "content/stationmaster/home-deck/trains.yaml:" in output and "YAML syntax error" in output
