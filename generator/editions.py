"""The content's editions and the "What changed" page made from them.

A pack marks its editions in ``content/<pack>/editions.yaml`` (schema
``editions.schema.json``, so ``validate`` checks it): each one a commit of
this repository, in order, numbered from 1; ``commitAddress``, where the
file gives one, makes each revision a link to the commit on the web. The page compares each edition
with the one before, reading both through the real loader and judging both
with today's engine. Commits, unlike tags, travel with every clone of the
branch, and the page is committed, so neither a build nor ``check`` needs the
history: where a clone lacks it (shallow, or no git), the page as committed stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from engine.content import files
from engine.errors import UsageError
from engine.packs import LoadedPack
from generator.changelog import PackSide, compare_pack, read_side, summary, view
from generator.revisions import content_at, repository_root, resolve, short
from generator.tableset import table_set

EDITIONS_FILE = "editions.yaml"


@dataclass(frozen=True)
class Edition:
    number: int
    revision: str
    date: str
    summary: str
    # Where a reader sees the commit on the web, when the file says how.
    link: str | None = None


def read_editions(pack_content: Path) -> list[Edition]:
    """The editions a pack marks, oldest first (none without the file). The
    loader has checked the file against its schema by the time this runs."""
    path = pack_content / EDITIONS_FILE
    if not path.is_file():
        return []
    raw = yaml.safe_load(files.read_bytes(path).decode("utf-8")) or {}
    address = raw.get("commitAddress")
    return [
        Edition(i, e["revision"], str(e["date"]), " ".join(str(e["summary"]).split()), address.replace("{revision}", e["revision"]) if address else None)
        for i, e in enumerate(raw.get("editions", []), start=1)
    ]


def changes_context(loaded: LoadedPack) -> dict[str, Any]:
    """The "What changed" table of one pack: its editions, newest first, each
    with what changed since the one before. HistoryUnavailable when git
    cannot show an edition's commit here."""
    editions = read_editions(loaded.folder.content)
    if not editions:
        return {"editions": []}
    root = repository_root(loaded.folder.content)
    content_root = loaded.folder.content.parent
    sides: list[PackSide] = []
    for edition in editions:
        commit = resolve(root, edition.revision)
        with content_at(root, commit, content_root) as (copy, shown_root):
            label = f"edition {edition.number} (revision {short(commit)})"
            side = read_side(copy, label, only=loaded.folder.id, shown_root=shown_root).get(loaded.folder.id)
        if side is None:
            raise UsageError(f"{loaded.folder.display}/{EDITIONS_FILE}: edition {edition.number} (revision {short(commit)}) has no {loaded.folder.id} content to compare")
        sides.append(side)
    words = table_set(loaded.pack.id).change_words
    rows = []
    for i, edition in enumerate(editions):
        changes = None if i == 0 else compare_pack(loaded.folder.id, sides[i - 1], sides[i])
        rows.append(
            {
                "number": edition.number,
                "date": edition.date,
                "summary": edition.summary,
                "revision": short(edition.revision),
                "link": edition.link,
                "changes": None if changes is None else view(changes, counts=False, words=words),
                "tally": None if changes is None else summary(changes),
            }
        )
    return {"editions": rows[::-1]}
