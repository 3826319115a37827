"""``stationmaster validate [DIR]``: check every pack's content (or one pack's)
and print each problem with its place, or one summary line per pack."""

from __future__ import annotations

import argparse
import sys

from command.games import content_folder
from engine.content import files
from engine.content.problems import render_all
from engine.packs import load_packs


def run(args: argparse.Namespace) -> int:
    root = content_folder(args.content_dir)
    loaded, problems = load_packs(root)
    if problems:
        out = render_all(sorted(problems), args.format)
        if out:
            print(out)
        if args.format == "text":
            print(f"{len(problems)} problem(s) in {files.shown(args.content_dir)}", file=sys.stderr)
        return 1
    if args.format == "json":
        print("[]")
    elif args.format == "text":
        for one in loaded:
            shown = args.content_dir if one.folder.content == root else one.folder.display
            print(f"{files.shown(shown)}: {one.pack.summary(one.catalog)}")
    return 0
