"""Synthetic content for benchmarks: the shipped content plus N generated cards.

Cards are copies of shipped cards of the families that can repeat freely
(track, facilities in lockout pairs, modifiers, enhancements, maneuvers,
opponent cards, terrain, Mainline modifiers), with suffixed ids, written in
files of at most CHUNK cards so that every rule the loader checks still holds.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import yaml

Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content" / "stationmaster"
CHUNK = 10_000
FAMILIES = ["track", "facilities", "modifiers", "enhancements", "maneuvers", "opponent", "mainline-modifiers"]


def _cards(family: str) -> tuple[str, list[dict[str, object]], dict[str, object]]:
    path = next(p for p in CONTENT.rglob("*.yaml") if f"schema/{family}.schema.json" in p.read_text().split("\n", 1)[0])
    data = yaml.safe_load(path.read_text())
    extra = {k: v for k, v in data.items() if k != "cards"}
    return family, data["cards"], extra


def _copy(card: dict[str, object], family: str, n: int, k: int) -> dict[str, object]:
    out = dict(card)
    out["id"] = f"{card['id']}-s{n}"
    out["name"] = f"{card['name']} {n}"  # names are unique within a pack, as ids are
    if family == "facilities" and "lockouts" in card:
        out["lockouts"] = [f"{x}-s{n}" for x in card["lockouts"]]  # type: ignore[attr-defined]
    if family == "track":
        out["count"] = 0
        out["label"] = f"s{n}.{k}"  # grid labels are unique, and nine characters at most
    return out


def make(target: Path, total: int) -> int:
    """Write the shipped content plus about ``total`` synthetic cards under
    ``target``; returns the exact number of synthetic cards written.

    Each family is copied a whole card list at a time, so lockout pairs and
    other references stay complete; the result may exceed ``total`` by less
    than one family's list.
    """
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(CONTENT, target)
    sources = [_cards(f) for f in FAMILIES]
    out_dir = target / "synthetic"
    out_dir.mkdir()
    written, n, file_no = 0, 0, 0
    chunk = max(100, min(CHUNK, total // len(FAMILIES)))
    while written < total:
        for family, cards, extra in sources:
            batch: list[dict[str, object]] = []
            while len(batch) < chunk and written < total:
                n += 1
                batch.extend(_copy(card, family, n, k) for k, card in enumerate(cards))
                written += len(cards)
            if not batch:
                break
            file_no += 1
            body = {**extra, "cards": batch}
            dumped = yaml.dump(body, Dumper=Dumper, sort_keys=False, width=200)
            text = f"# yaml-language-server: $schema=../schema/{family}.schema.json\n" + dumped
            (out_dir / f"{family}-{file_no:04d}.yaml").write_text(text)
    return written


if __name__ == "__main__":
    print(make(Path(sys.argv[1]), int(sys.argv[2])), "synthetic cards written")
