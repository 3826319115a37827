"""The fuzz suite's fixed cases: what no random mutation of a file's text can
make, the special files and odd paths a folder or a command line can hold.
A FIFO (which blocks whoever opens it for reading), an endless device, a huge
sparse file, a file name with a newline, an unreadable folder, path
arguments of every odd shape, given to ``validate``, ``check``, ``cards`` and
``play`` (both games).

The invariant is the fuzz suite's: exit 0, 1 or 2, never 3; no traceback; no
hang; no input file changed (``cards`` alone may rewrite regular pages).
Cases that can block run in-process under a short watchdog; cases that read
without end run in a child process with its memory capped.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.kit.fuzz import Outcome, assert_sound, call, changes, fingerprint, scratch, spawn
from tests.kit.project import PROJECT_ROOT

# The cap on a child that might read an endless device: over twice what any
# command here needs (about 200 MB of address space), far below what would
# trouble the machine, and small enough to be reached in a moment.
MEMORY = 512 * 1024 * 1024
LONG = "x" * 5000


@dataclass(frozen=True)
class Case:
    """One fixed case: what to put in the scratch project, the command, how
    to run it."""

    args: list[str]
    setup: Callable[[Path], None] = lambda root: None
    child: bool = False  # in a child process with its memory capped
    stdin: bytes = b""
    # paths (under the project) a run may change by design
    may_change: Callable[[str, str], bool] = field(default=lambda key, kind: False)


def _fifo(rel: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(root / rel)

    return make


def _link(rel: str, target: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        (root / rel).symlink_to(target)

    return make


def _sparse(rel: str, size: int) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        with open(root / rel, "wb") as handle:
            handle.write(b"# yaml-language-server: $schema=../schema/trains.schema.json\n")
            handle.truncate(size)

    return make


def _file(rel: str, data: bytes) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)

    return make


def _no_access(rel: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        os.chmod(root / rel, 0)

    return make


def _locked(rel: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        (root / rel).write_bytes(b"{}")
        os.chmod(root / rel, 0)

    return make


def _typed_save(key: str, kind: str) -> bool:
    """What a 'save s.json' typed at the prompt may write."""
    return key == "s.json"


def _pages(key: str, kind: str) -> bool:
    """What ``cards`` may rewrite: the regular pages under site/."""
    return key.startswith("site/") and key.endswith(".md") and kind.startswith("file")


HOME_DECK = "content/stationmaster/home-deck"
PAGES = "site/stationmaster"

CASES: dict[str, Case] = {
    # validate
    "validate: a FIFO named like a content file": Case(["validate"], _fifo(f"{HOME_DECK}/pipe.yaml")),
    "validate: a FIFO with another name": Case(["validate"], _fifo(f"{HOME_DECK}/notes")),
    "validate: a FIFO among the schemas": Case(["validate", "content/stationmaster"], _fifo("content/stationmaster/schema/pipe.schema.json")),
    "validate: a link to an endless device": Case(["validate"], _link(f"{HOME_DECK}/zero.yaml", "/dev/zero"), child=True),
    "validate: a huge sparse file": Case(["validate"], _sparse(f"{HOME_DECK}/huge.yaml", 2 * 1024**3), child=True),
    "validate: a link to an empty device": Case(["validate"], _link(f"{HOME_DECK}/null.yaml", os.devnull)),
    "validate: a file name with a newline": Case(["validate"], _file(f"{HOME_DECK}/a\nb.yaml", b"cards: []\n")),
    "validate: a file name with a carriage return and an escape": Case(["validate"], _file(f"{HOME_DECK}/a\r\x1b[2Jb.yaml", b"cards: []\n")),
    "validate: a file name that is not UTF-8": Case(["validate"], _file(os.fsdecode(HOME_DECK.encode() + b"/caf\xe9.yaml"), b"cards: []\n")),
    "validate: a FIFO beside the packs": Case(["validate"], _fifo("content/pipe.yaml")),
    "validate: a link to an endless device beside the packs": Case(["validate"], _link("content/zero.yaml", "/dev/zero"), child=True),
    "validate: a link to nothing beside the packs": Case(["validate"], _link("content/gone.yaml", "nowhere.yaml")),
    "validate: a broken YAML file beside the packs": Case(["validate"], _file("content/notes.yaml", b"title: [unclosed\n")),
    "check: a FIFO beside the packs": Case(["check"], _fifo("content/pipe.yaml")),
    "validate: a 5,000-character path": Case(["validate", LONG]),
    "validate: a path with a too-long name in it": Case(["validate", "content/stationmaster/" + "x" * 300]),
    "validate: an unreadable folder": Case(["validate"], _no_access(HOME_DECK)),
    "validate: an unreadable file": Case(["validate"], _no_access(f"{HOME_DECK}/trains.yaml")),
    # check and cards
    "check: a FIFO among the pages": Case(["check"], _fifo(f"{PAGES}/pipe.md")),
    "cards: a FIFO among the pages": Case(["cards"], _fifo(f"{PAGES}/pipe.md"), may_change=_pages),
    "check: a FIFO in the content": Case(["check"], _fifo(f"{HOME_DECK}/pipe.yaml")),
    "play: --load an endless device": Case(["play", "--load", "zero.json"], _link("zero.json", "/dev/zero"), child=True),
    "check: a page linked to an endless device": Case(["check"], _link(f"{PAGES}/zero.md", "/dev/zero"), child=True),
    "check: a page name with a newline": Case(["check"], _file(f"{PAGES}/a\nb.md", b"# A page\n")),
    "cards: a page name with a newline": Case(["cards"], _file(f"{PAGES}/a\nb.md", b"# A page\n"), may_change=_pages),
    "check: an unreadable page": Case(["check"], _no_access(f"{PAGES}/home-deck.md")),
    "cards: an unreadable site folder": Case(["cards"], _no_access(PAGES), may_change=_pages),
}
for game in ("stationmaster", "trickoftherails"):
    CASES |= {
        f"play {game}: --load a FIFO": Case(["play", "--game", game, "--load", "pipe.json"], _fifo("pipe.json")),
        f"play {game}: --save onto a FIFO": Case(["play", "--game", game, "--save", "pipe.json"], _fifo("pipe.json")),
        f"play {game}: 'save' onto a FIFO": Case(["play", "--game", game, "--bots", "2", "--players", "3"], _fifo("pipe.json"), stdin=b"save pipe.json\n"),
        f"play {game}: --load an empty device": Case(["play", "--game", game, "--load", os.devnull]),
        f"play {game}: --load a folder": Case(["play", "--game", game, "--load", "content"]),
        f"play {game}: --save into a folder": Case(["play", "--game", game, "--save", "content"]),
        f"play {game}: --content a file": Case(["play", "--game", game, "--content", "content/stationmaster/game.yaml"]),
        f"play {game}: --content the other game": Case(["play", "--game", game, "--content", "content/" + ("trickoftherails" if game == "stationmaster" else "stationmaster")]),
        f"simulate {game}: --content the other game": Case(
            ["simulate", "--game", game, "--games", "1", "--workers", "1", "--content", "content/" + ("trickoftherails" if game == "stationmaster" else "stationmaster")]
        ),
        f"export {game}: --content the other game": Case(["export", "--game", game, "--content", "content/" + ("trickoftherails" if game == "stationmaster" else "stationmaster")]),
        f"play {game}: --load a 5,000-character path": Case(["play", "--game", game, "--load", LONG]),
        f"play {game}: --save a 5,000-character path": Case(["play", "--game", game, "--save", LONG]),
        f"play {game}: --content a 5,000-character path": Case(["play", "--game", game, "--content", LONG]),
        f"play {game}: 'save' a 5,000-character path": Case(["play", "--game", game], stdin=b"save " + LONG.encode() + b"\n"),
        f"play {game}: --load an unreadable save": Case(["play", "--game", game, "--load", "locked.json"], _locked("locked.json")),
    }

# Arguments of odd shapes and sizes for a new game (none reaches a known defect).
for odd in (
    ["--seed", "9" * 4000],
    ["--seed", "-1"],
    ["--seed", "9" * 5000],
    ["--players", "0"],
    ["--players", "9" * 30],
    ["--bots", "-1"],
    ["--bot", ""],
    ["--house-rule", "=x"],
    ["--house-rule", "startingOffice=whistle-post=x"],
    ["--house-rule", "teams=yes"],
    ["--game", "../stationmaster"],
):
    CASES[f"play {' '.join(arg[:12] for arg in odd)}"] = Case(["play", *odd], stdin=b"d\nsave s.json\nquit\n", may_change=_typed_save)

# Path arguments of odd shapes (none reaches a known defect).
for arg in [
    "",
    ".",
    "-",
    "--",
    "content/stationmaster/game.yaml",
    os.devnull,
    "content//stationmaster/",
    "content/./stationmaster/../trickoftherails",
    "nowhere",
    "caf\u00e9",
    "content/stationmaster/schema",
    "site",
    "content/stationmaster/home-deck",
    " content",
    "content\t",
]:
    CASES[f"validate {arg!r}"] = Case(["validate", arg])


def _params() -> list[object]:
    found: list[object] = []
    for name, _case in CASES.items():
        marks = []
        if "unreadable" in name:
            marks.append(pytest.mark.skipif(os.geteuid() == 0, reason="run as root: a file's permissions do not stop root reading it"))
        found.append(pytest.param(name, marks=marks, id=name.replace("\n", "\\n")))
    return found


@pytest.mark.parametrize("name", _params())
def test_special_file_or_path(name: str) -> None:
    case = CASES[name]
    with scratch(PROJECT_ROOT, ["content", "site", "mkdocs.yml"]) as root:
        case.setup(root)
        before = fingerprint(root)
        fifos = [path for path in root.rglob("*") if path.is_fifo()]
        outcome: Outcome = spawn(case.args, root, stdin=case.stdin, memory=MEMORY) if case.child else call(case.args, root, stdin=case.stdin, fifos=fifos)
        assert_sound(outcome, name)
        after = fingerprint(root)
        changed = [
            changes({key: before.get(key, "absent")}, {key: after.get(key, "absent")})[0]
            for key in sorted(set(before) | set(after))
            if before.get(key) != after.get(key) and not case.may_change(key, before.get(key, ""))
        ]
        assert not changed, f"{name}: files changed: {changed}\n{outcome}"
