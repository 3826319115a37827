"""Each pack's skill ladder as its Simulation page measures it, with every
interval, and what it cost: the figures a reader can play again.

By default each pack's page plan (``SITE_MATRIX`` in
``generator/<pack>/simulation.py``: the ladder's steps on enough deals to
tell adjacent rungs apart, and each rung's self-play) is played through
the sweep machinery (``generator.matrix_site.play``, over every core), and
the matrix, the ladder's steps and the first player's win share are
printed with the CPU seconds it took (this process and its children).
``--games N`` scales the plan to N deals a step (and N self-play games at
most); ``--full`` plays every rung against every other instead of the
steps, which for the search rungs is CPU-hours.

Usage: python bench/matrix.py [--games N] [--full] [PACK ...]
(e.g. ``python bench/matrix.py --games 20 trickoftherails``)
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import resource
from pathlib import Path

from engine.packs import known_pack_ids, pack_rules
from engine.sweep.matrix import matrix
from engine.sweep.render import matrix_lines
from generator.matrix_site import MatrixPlan, command_lines, play

ROOT = Path(__file__).resolve().parent.parent


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, help="deals a step (default: the page plan's)")
    parser.add_argument("--full", action="store_true", help="every rung against every other, not only the steps")
    parser.add_argument("packs", nargs="*", help="the packs (default: every pack with a page plan)")
    args = parser.parse_args(argv)
    for pack_id in args.packs or known_pack_ids():
        try:
            plan: MatrixPlan = importlib.import_module(f"generator.{pack_id}.simulation").SITE_MATRIX
        except (ModuleNotFoundError, AttributeError):
            continue
        if args.games is not None:
            plan = dataclasses.replace(plan, games=args.games, self_play_games=min(args.games, plan.alone_games))
        if args.full:
            plan = dataclasses.replace(plan, steps=False, self_play_games=None)
        pack = pack_rules(pack_id)
        catalog = pack.load_catalog(ROOT / "content" / pack_id)
        before = _cpu()
        result = play(pack, catalog, plan)
        spent = _cpu() - before
        played = sum(f.games for f in result.figures)
        print(f"{pack.title}: {len(result.grid.cells)} cells, {played:,} games: {spent:.1f} CPU-s, {played / spent:.2f} games per CPU-s")
        print("\n".join(f"  {line}" for line in command_lines(pack_id, plan)))
        print("\n".join(matrix_lines(matrix(result.grid, result.figures), plan.rungs)))
        print(flush=True)


if __name__ == "__main__":
    main()
