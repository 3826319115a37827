"""Driving Station Master's terminal game (``stationmaster play``) in this
process, through ``command.play.run`` with StringIO for stdin and stdout,
and reading back what the players saw."""

from __future__ import annotations

import argparse
import io
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from command import play
from engine.stationmaster.rules.actions import Action, EndTurn
from engine.stationmaster.rules.game import Game
from tests.kit.project import SHIPPED_CONTENT
from tests.kit.stationmaster import CATALOG

CONTENT = SHIPPED_CONTENT
PROMPT = re.compile(r"player \d+, choose [^>\n]*> ")


class Played(NamedTuple):
    code: int
    out: str
    err: str

    @property
    def replies(self) -> list[str]:
        """The output split at each prompt: [0] is the opening table, [i] what
        input line i brought (the last also holds the closing note)."""
        return PROMPT.split(self.out)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="stationmaster")
    play.add_parser(top.add_subparsers(dest="command", required=True))
    return top


def run_play(argv: list[str], lines: Sequence[str] = ()) -> Played:
    """``stationmaster play --content <shipped> ARGV``, fed ``lines``."""
    args = parser().parse_args(["play", "--content", str(CONTENT), *argv])
    out, err = io.StringIO(), io.StringIO()
    code = play.run(args, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out, stderr=err)
    return Played(code, out.getvalue(), err.getvalue())


def asked(keyed: Mapping[str, Action]) -> bool:
    """Whether the session asks a person to choose among ``keyed`` (the
    offered actions by key): not when there is one, unless it ends the turn
    (a lone choice is taken unasked; ending the turn is always confirmed)."""
    return len(keyed) != 1 or isinstance(next(iter(keyed.values())), EndTurn)


def replay(path: Path) -> Game:
    """The game a save file holds."""
    return Game.loads(CATALOG, path.read_text(encoding="utf-8"))
