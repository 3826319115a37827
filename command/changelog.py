"""``stationmaster changelog REV1 [REV2]``: what changed, card by card,
between two git revisions of the content (REV2: the working tree)."""

from __future__ import annotations

import argparse

from command.commands import CHANGELOG_HELP
from command.games import game_id
from command.output import add_output_options, check_output, emit
from generator.changelog import PackSide, compare, read_side, to_data, to_markdown, to_text
from generator.project import Project
from generator.records import to_json
from generator.revisions import WORKING_TREE, content_at, repository_root, resolve, short


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "changelog",
        help=CHANGELOG_HELP,
        description=CHANGELOG_HELP + ". Each side's content is read by this checkout's loader and its status and dealt "
        "are what this checkout's engine makes of it, so an old revision is judged by today's rules. "
        "A card is followed by its id; a changed id counts as a rename only when one removed card and one "
        "added card agree on everything else, name included.",
    )
    parser.add_argument("old", metavar="REV1", help="the revision to compare from (a commit, branch or tag)")
    parser.add_argument("new", metavar="REV2", nargs="?", default=None, help="the revision to compare to (default: the working tree)")
    parser.add_argument("--game", type=game_id, default=None, metavar="ID", help="only this pack (default: every pack)")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text", help="how to print the changes (default: text)")
    add_output_options(parser, "the changes")


def _side(project: Project, revision: str | None, game: str | None) -> tuple[str, dict[str, PackSide]]:
    if revision is None:
        return WORKING_TREE, read_side(project.content, WORKING_TREE, only=game)
    root = repository_root(project.root)
    commit = resolve(root, revision)
    label = revision if commit.startswith(revision) else f"{revision} ({short(commit)})"
    with content_at(root, commit, project.content) as (copy, shown_root):
        return label, read_side(copy, f"revision {label}", only=game, shown_root=shown_root)


def run(args: argparse.Namespace) -> int:
    check_output(args.output, args.force)
    project = Project.here()
    repository_root(project.root)  # not a repository: say so before reading anything
    old_label, old = _side(project, args.old, args.game)
    new_label, new = _side(project, args.new, args.game)
    log = compare(old_label, old, new_label, new)
    if args.format == "json":
        text = to_json(to_data(log))
    elif args.format == "markdown":
        text = to_markdown(log)
    else:
        text = to_text(log)
    emit(text, args.output, args.force)
    return 0
