"""``stationmaster validate [DIR]``: check every pack's content (or one pack's)
and print each problem with its place, or one summary line per pack."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.content.problems import Problem, render_all
from engine.errors import ContentError, UsageError
from engine.packs import find_packs, pack_rules


def run(args: argparse.Namespace) -> int:
    root = Path(args.content_dir)
    if not root.is_dir():
        raise UsageError(f"{args.content_dir}: no such content directory")
    folders, problems = find_packs(root)
    clean: list[str] = []
    for folder in folders:
        pack = pack_rules(folder.id)
        try:
            catalog = pack.load_catalog(folder.content)
        except ContentError as exc:
            problems.extend(exc.problems)
            continue
        found = pack.engine_problems(catalog)
        problems.extend(found)
        if not found:
            shown = args.content_dir if folder.content == root else folder.display
            clean.append(f"{shown}: {pack.summary(catalog)}")
    return report(problems, clean, args.format, args.content_dir)


def report(problems: list[Problem], clean: list[str], fmt: str, where: str) -> int:
    if problems:
        out = render_all(sorted(problems), fmt)
        if out:
            print(out)
        if fmt == "text":
            print(f"{len(problems)} problem(s) in {where}", file=sys.stderr)
        return 1
    if fmt == "json":
        print("[]")
    elif fmt == "text":
        print("\n".join(clean))
    return 0
