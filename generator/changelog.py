"""What changed, card by card, between two states of the content.

Each side is read by the real loader and described by ``records`` (fields,
status, dealt per configuration), so the facts compared are the ones the site
prints. Both sides are judged by today's engine: an old revision's status
and dealt are what the engine in this checkout makes of that revision's
content, which is what a reader of today's site needs to compare with.

A card keeps its identity by id: a new name under the same id is a rename.
An id that changed is a new id (not a rename: the name is the same) only
when it is sure: exactly one removed card and exactly one added card are
alike in every other fact (name included); anything less certain stays one
card removed and one added.

The site's page says each change as a sentence in a reader's words
(``sentence``); the command's text and JSON keep each field's own name and
values, for whoever edits the content.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from engine.content.problems import Problem
from engine.errors import ContentError, UsageError
from engine.packs import find_packs, is_pack_folder, pack_rules
from generator.records import records, to_json

Kind = Literal["added", "removed", "renamed", "new id", "changed"]
KINDS: tuple[Kind, ...] = ("added", "removed", "renamed", "new id", "changed")
# How the tally names a number of cards of each kind ("2 given a new id").
_KIND_TALLY = {"new id": "given a new id"}
# What a pack may say of a change to one of its fields, in a reader's words:
# field (as the content spells it) to a function of the old and new values.
ChangeWords = Mapping[str, Callable[[Any, Any], str]]


@dataclass(frozen=True)
class PackSide:
    """One pack's cards on one side: its title, its configurations, its records by id."""

    title: str
    configurations: dict[str, dict[str, Any]]
    cards: dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Change:
    """One fact of a card, before and after. ``configuration`` names the
    configurations (by key) a Dealt change holds in."""

    field: str
    old: Any
    new: Any
    configurations: tuple[str, ...] = ()


@dataclass(frozen=True)
class CardChange:
    kind: Kind
    id: str
    name: str
    family: str
    old_id: str | None = None
    changes: tuple[Change, ...] = ()


@dataclass(frozen=True)
class PackChanges:
    pack: str
    title: str
    cards: tuple[CardChange, ...]
    # Set when the pack is missing on one side: "added" or "removed".
    whole: str | None = None
    # Every configuration of either side, by key (a Dealt change names some).
    configurations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def of_kind(self, kind: Kind) -> list[CardChange]:
        return [c for c in self.cards if c.kind == kind]


@dataclass(frozen=True)
class Changelog:
    old: str
    new: str
    packs: tuple[PackChanges, ...] = field(default=())


def _problem_text(problem: Problem, shown_root: Path | None) -> str:
    if shown_root is not None:
        problem = dataclasses.replace(problem, path=os.path.relpath(os.path.abspath(problem.path), shown_root))
    return problem.render()


def read_side(content_root: Path, label: str, only: str | None = None, shown_root: Path | None = None) -> dict[str, PackSide]:
    """Every pack (or pack ``only``) under ``content_root``, loaded by today's
    loader; UsageError naming ``label`` and the first problem if one does not
    load. ``shown_root``: where problem paths are shown from (a revision's
    temporary copy shows as the repository's own paths)."""
    if only is not None:
        pack_dir = content_root / only
        if not is_pack_folder(pack_dir):
            return {}
        folders, problems = find_packs(pack_dir)
    elif not content_root.is_dir():
        return {}
    else:
        folders, problems = find_packs(content_root)
    sides: dict[str, PackSide] = {}
    if problems:
        first = sorted(problems)[0]
        raise UsageError(f"the content at {label} does not load: {_problem_text(first, shown_root)}")
    for folder in folders:
        pack = pack_rules(folder.id)
        try:
            catalog = pack.load_catalog(folder.content)
        except ContentError as exc:
            more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
            raise UsageError(f"the {folder.id} content at {label} does not load: {_problem_text(exc.problems[0], shown_root)}{more}") from None
        except UsageError as exc:
            raise UsageError(f"the {folder.id} content at {label} cannot be read: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - old content meets today's loader
            # Content older than a field today's loader needs gets past its
            # own schemas and then lacks it: that revision cannot be read here.
            raise UsageError(f"the {folder.id} content at {label} does not load with today's engine ({type(exc).__name__}: {exc}); choose a later revision") from None
        data = records(pack, catalog)
        sides[folder.id] = PackSide(data["title"], {c["key"]: c for c in data["configurations"]}, {r["id"]: r for r in data["cards"]})
    return sides


def _facts(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record's comparable facts, Dealt apart, flattened to one level."""
    facts = {k: v for k, v in record.items() if k not in ("id", "fields", "dealt")}
    facts.update(record["fields"])
    return facts


def _changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Change]:
    before, after = _facts(old), _facts(new)
    found = [Change(name, before.get(name), after.get(name)) for name in _ordered(before, after) if before.get(name) != after.get(name)]
    moved: dict[tuple[Any, Any], list[str]] = {}
    for key in sorted(set(old["dealt"]) | set(new["dealt"])):
        was, now = old["dealt"].get(key), new["dealt"].get(key)
        if was != now:
            moved.setdefault((was, now), []).append(key)
    found.extend(Change("dealt", was, now, tuple(keys)) for (was, now), keys in sorted(moved.items(), key=lambda item: repr(item[0])))
    return found


def _ordered(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    top = ["name", "family", "count", "text", "source", "effect", "status"]
    return top + sorted((set(before) | set(after)) - set(top))


def _same_but_id(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k != "id"} == {k: v for k, v in b.items() if k != "id"}


def compare_pack(pack: str, old: PackSide | None, new: PackSide | None) -> PackChanges:
    if old is None or new is None:
        side = new or old
        assert side is not None
        kind: Kind = "added" if old is None else "removed"
        cards = tuple(CardChange(kind, r["id"], r["name"], r["family"]) for r in sorted(side.cards.values(), key=lambda r: r["id"]))
        return PackChanges(pack, side.title, cards, whole=kind, configurations=side.configurations)
    removed = [old.cards[i] for i in sorted(set(old.cards) - set(new.cards))]
    added = [new.cards[i] for i in sorted(set(new.cards) - set(old.cards))]
    found: list[CardChange] = []
    for gone in list(removed):
        twins = [r for r in added if _same_but_id(gone, r)]
        if len(twins) == 1 and sum(_same_but_id(r, twins[0]) for r in removed) == 1:
            removed.remove(gone)
            added.remove(twins[0])
            found.append(CardChange("new id", twins[0]["id"], twins[0]["name"], twins[0]["family"], old_id=gone["id"]))
    found += [CardChange("added", r["id"], r["name"], r["family"]) for r in added]
    found += [CardChange("removed", r["id"], r["name"], r["family"]) for r in removed]
    for card_id in sorted(set(old.cards) & set(new.cards)):
        changes = _changes(old.cards[card_id], new.cards[card_id])
        if changes:
            record = new.cards[card_id]
            kind = "renamed" if old.cards[card_id]["name"] != record["name"] else "changed"
            found.append(CardChange(kind, card_id, record["name"], record["family"], changes=tuple(changes)))
    found.sort(key=lambda c: (KINDS.index(c.kind), c.id))
    return PackChanges(pack, new.title, tuple(found), configurations={**old.configurations, **new.configurations})


def compare(old_label: str, old: Mapping[str, PackSide], new_label: str, new: Mapping[str, PackSide]) -> Changelog:
    return Changelog(old_label, new_label, tuple(compare_pack(p, old.get(p), new.get(p)) for p in sorted(set(old) | set(new))))


# --- how a change reads -------------------------------------------------


def shown(value: Any) -> str:
    """A fact as the text formats print it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict) and set(value) == {"edition"}:
        return f"edition {value['edition']}"
    if isinstance(value, dict) and set(value) == {"designed"}:
        return f"designed ({value['designed']})"
    if isinstance(value, str):
        return repr(value)
    return to_json(value).strip().replace("\n", " ").replace("  ", "")


def configurations_text(keys: tuple[str, ...], side: Mapping[str, Mapping[str, Any]]) -> str:
    """Which configurations a Dealt change holds in, as briefly as is exact:
    every one, every one for some player counts, or each by its key."""
    every = set(side)
    chosen = set(keys)
    if chosen == every:
        return "every configuration"
    counts = sorted({side[k]["players"] for k in chosen if k in side})
    whole = {k for k in every if side[k]["players"] in counts}
    if chosen == whole and counts:
        return "every configuration with " + " or ".join(f"{n} player{'s' if n != 1 else ''}" for n in counts)
    return "; ".join(keys)


def change_text(change: Change, configurations: Mapping[str, Mapping[str, Any]]) -> str:
    if change.field == "dealt":
        return f"dealt: {shown(change.old)} → {shown(change.new)} ({configurations_text(change.configurations, configurations)})"
    if change.field == "status":  # a status is a word of the site's, not content text
        return f"status: {change.old or 'none'} → {change.new or 'none'}"
    return f"{change.field}: {shown(change.old)} → {shown(change.new)}"


def summary(pack: PackChanges) -> str:
    if pack.whole is not None:
        return f"the whole pack {pack.whole} ({len(pack.cards)} cards)"
    if not pack.cards:
        return "no card changed"
    return ", ".join(f"{len(pack.of_kind(kind))} {_KIND_TALLY.get(kind, kind)}" for kind in KINDS if pack.of_kind(kind))


def to_text(log: Changelog) -> str:
    lines = [f"Changes from {log.old} to {log.new} (status and dealt of both sides by today's engine)"]
    for pack in log.packs:
        lines.append(f"{pack.title} ({pack.pack}): {summary(pack)}")
        if pack.whole is not None:
            continue
        for card in pack.cards:
            was = f" (id was {card.old_id})" if card.old_id else ""
            lines.append(f"  {card.kind:<8} {card.id}  {card.name}  [{card.family}]{was}")
            lines += [f"      {change_text(c, pack.configurations)}" for c in card.changes]
    return "\n".join(lines) + "\n"


def to_data(log: Changelog) -> dict[str, Any]:
    def card(c: CardChange) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": c.kind, "id": c.id, "name": c.name, "family": c.family}
        if c.old_id:
            out["oldId"] = c.old_id
        if c.changes:
            out["changes"] = [{"field": ch.field, "old": ch.old, "new": ch.new, **({"configurations": list(ch.configurations)} if ch.field == "dealt" else {})} for ch in c.changes]
        return out

    return {
        "from": log.old,
        "to": log.new,
        "engine": "today's: status and dealt on both sides are what this checkout's engine makes of each side's content",
        "packs": [{"pack": p.pack, "title": p.title, "whole": p.whole, "cards": [card(c) for c in p.cards]} for p in log.packs],
    }


def said(value: Any) -> str:
    """A value as a reader reads it: no quotes, yes or no, a list as a list."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ", ".join(said(v) for v in value) or "none"
    if isinstance(value, dict) and set(value) == {"edition"}:
        return f"the edition {value['edition']}"
    if isinstance(value, dict) and set(value) == {"designed"}:
        return "designed by the kit"
    return shown(value)


def field_words(name: str) -> str:
    """A content key in words: ``stationValue`` is "station value"."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: " " + m.group(1).lower(), name)


def configurations_words(keys: tuple[str, ...], side: Mapping[str, Mapping[str, Any]]) -> str:
    """Where a Dealt change holds, after "dealt": in every configuration,
    with some player counts, or in each configuration by its label."""
    text = configurations_text(keys, side)
    if text == "every configuration":
        return "in every configuration"
    if text.startswith("every configuration with "):
        return text.removeprefix("every configuration ")
    labels = [str(side[k]["label"]) if k in side else k for k in keys]
    return "in " + (labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1])


def sentence(change: Change, configurations: Mapping[str, Mapping[str, Any]], words: ChangeWords, counts: bool = True) -> str:
    """One change of a card as a reader reads it ("now dealt with 2
    players", "status now working, was not built yet"): the pack's own words
    for the field where it has them, else the field's name in words."""
    from generator.tableset import STATUS_WORDS

    old, new = change.old, change.new
    if change.field in words:
        return words[change.field](old, new)
    if change.field == "dealt":
        where = configurations_words(change.configurations, configurations)
        return f"now dealt {where}" if new else f"no longer dealt {where}"
    if change.field == "status":
        return f"status now {STATUS_WORDS.get(new, 'none') if new else 'none'}, was {STATUS_WORDS.get(old, 'none') if old else 'none'}"
    if change.field == "name":
        return f"renamed from {said(old)}"
    if change.field == "count":
        return f"now {said(new)} copies, was {said(old)}" if counts else "number of copies changed"
    if change.field == "text":
        return f"card text now reads “{said(new)}”" if new else "card text removed"
    if old is None:
        return f"{field_words(change.field)} now {said(new)}"
    if new is None:
        return f"no {field_words(change.field)} any more (was {said(old)})"
    return f"{field_words(change.field)} now {said(new)}, was {said(old)}"


def view(pack: PackChanges, counts: bool = True, words: ChangeWords | None = None) -> dict[str, Any]:
    """What the Markdown templates lay out for one pack: each card with its
    changes as sentences. Without ``counts`` (the site, which never prints a
    count) a count change says only that it changed."""
    cards = [
        {
            "kind": c.kind,
            "id": c.id,
            "name": c.name,
            "family": c.family,
            "old_id": c.old_id,
            "details": [sentence(ch, pack.configurations, words or {}, counts) for ch in c.changes],
        }
        for c in pack.cards
    ]
    return {"pack": pack.pack, "title": pack.title, "whole": pack.whole, "cards": cards}


def to_markdown(log: Changelog) -> str:
    from generator.cells import cell
    from generator.render import environment

    template = environment("").from_string(
        '{% from "_changes.md.j2" import pack_changes with context %}'
        "# Changes from {{ old | cell }} to {{ new | cell }}\n\n"
        "Status and dealt on both sides are what today's engine makes of each side's content.\n\n"
        "{% for p in packs %}## {{ p.title | cell }}\n\n{{ pack_changes(p) }}\n{% endfor %}"
    )
    text = template.render(old=log.old, new=log.new, packs=[view(p) for p in log.packs], link=lambda card_id, name: cell(name))
    return text.rstrip("\n") + "\n"
